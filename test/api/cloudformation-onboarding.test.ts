import { randomBytes } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import request from 'supertest';
import { createApp } from '../../api/app';
import { ACCOUNT_ROLE_TEMPLATE } from '../../api/services/cloudformation-onboarding';
import { createTemplatePublisher, s3TemplatePublisher, templateKey } from '../../cloud/aws/template-publisher';
import { accountRoleTemplate, EXTERNAL_ID_PARAMETER } from '../../domain/cloudformation';
import { REGION } from '../helpers/aws';
import { createTestContext, signupAndLogin, type TestContext } from '../helpers/context';
import { createTemplateBucket } from '../helpers/template-bucket';

// POST /accounts with a template bucket configured (CLOUDFORMATION_TEMPLATE_BUCKET), on moto's S3.
const bucket = `sentinel-templates-${randomBytes(4).toString('hex')}`;
let s3: S3Client;
let ctx: TestContext;
beforeAll(async () => {
  s3 = await createTemplateBucket(bucket);
  ctx = await createTestContext({ config: { CLOUDFORMATION_TEMPLATE_BUCKET: bucket } });
});
afterAll(async () => {
  s3.destroy();
  await ctx.close();
});

const QUICK_CREATE = '#/stacks/quickcreate?';
function quickCreateParameters(link: string): Record<string, string> {
  const url = new URL(link);
  expect(url.hash.startsWith(QUICK_CREATE)).toBe(true);
  return { region: url.searchParams.get('region') ?? '', ...Object.fromEntries(new URLSearchParams(url.hash.slice(QUICK_CREATE.length))) };
}

async function connect(http: TestContext['http'], awsAccountId: string) {
  const owner = await signupAndLogin(ctx);
  return http.post('/accounts').set(owner.auth).send({ aws_account_id: awsAccountId }).expect(201);
}

describe('POST /accounts (CloudFormation)', () => {
  it('answers the account role template and a quick-create link to its published copy with the account\'s ExternalId', async () => {
    const res = await connect(ctx.http, '123412341234');
    const template = accountRoleTemplate({ sentinelAccountId: res.body.sentinel_account_id });
    expect(res.body.cloudformation_template).toBe(template);

    const link = quickCreateParameters(res.body.cloudformation_quick_create_url);
    const key = templateKey({ name: ACCOUNT_ROLE_TEMPLATE, body: template });
    expect(link).toEqual({
      region: REGION,
      templateURL: `${ctx.config.cloud.endpointUrl}/${bucket}/${key}`,
      stackName: 'Sentinel',
      [`param_${EXTERNAL_ID_PARAMETER}`]: res.body.external_id,
    });
    // Read as a customer's console reads it: anonymously.
    const published = await fetch(link.templateURL!);
    expect(published.status).toBe(200);
    expect(await published.text()).toBe(template);
  });

  it('links every tenant to the same template, each with its own ExternalId', async () => {
    const [a, b] = [await connect(ctx.http, '567856785678'), await connect(ctx.http, '567856785678')];
    const [linkA, linkB] = [quickCreateParameters(a.body.cloudformation_quick_create_url), quickCreateParameters(b.body.cloudformation_quick_create_url)];
    expect(linkA.templateURL).toBe(linkB.templateURL);
    expect(a.body.cloudformation_template).toBe(b.body.cloudformation_template);
    expect(linkA.param_ExternalId).toBe(a.body.external_id);
    expect(linkB.param_ExternalId).toBe(b.body.external_id);
    expect(a.body.external_id).not.toBe(b.body.external_id);
  });

  it('answers a null link without a template bucket, with the template all the same', async () => {
    const unconfigured = createTemplatePublisher({ ...ctx.config.cloud, templateBucket: undefined });
    expect(unconfigured).toBeUndefined();
    const http = request(createApp({ ...ctx, templates: unconfigured }));
    const res = await connect(http, '909090909090');
    expect(res.body.cloudformation_quick_create_url).toBeNull();
    expect(res.body.cloudformation_template).toBe(accountRoleTemplate({ sentinelAccountId: res.body.sentinel_account_id }));
  });

  it('still connects, with a null link, when the template cannot be published', async () => {
    const missing = s3TemplatePublisher({ bucket: `missing-${bucket}`, region: REGION, endpointUrl: ctx.config.cloud.endpointUrl });
    const http = request(createApp({ ...ctx, templates: missing }));
    const res = await connect(http, '313131313131');
    expect(res.body).toMatchObject({ status: 'PENDING', cloudformation_quick_create_url: null });
    expect(res.body.cloudformation_template).toContain('AWS::IAM::Role');
    expect(res.body.terraform_snippet).toContain(res.body.external_id);
  });
});
