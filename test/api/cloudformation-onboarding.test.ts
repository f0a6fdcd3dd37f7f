import { randomBytes } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import request from 'supertest';
import { createApp } from '../../api/app';
import {
  ACCOUNT_ROLE_TEMPLATE,
  EVENT_FORWARDER_STACK,
  EVENT_FORWARDER_TEMPLATE,
} from '../../core/accounts/cloudformation-onboarding';
import { createTemplatePublisher, s3TemplatePublisher, templateKey } from '../../cloud/aws/template-publisher';
import { accountRoleTemplate, EXTERNAL_ID_PARAMETER } from '../../domain/onboarding/cloudformation';
import { eventForwarderTemplate, FORWARDER_PARAMETERS } from '../../domain/onboarding/forwarder-templates';
import { GLOBAL_EVENTS_REGION } from '../../domain/events/forwarding-rules';
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
  return {
    region: url.searchParams.get('region') ?? '',
    ...Object.fromEntries(new URLSearchParams(url.hash.slice(QUICK_CREATE.length))),
  };
}

async function connect(http: TestContext['http'], awsAccountId: string) {
  const owner = await signupAndLogin(ctx);
  return http.post('/accounts').set(owner.auth).send({ aws_account_id: awsAccountId }).expect(201);
}

describe('POST /accounts (CloudFormation)', () => {
  it("answers the account role template and a quick-create link to its published copy with the account's ExternalId", async () => {
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
    const [linkA, linkB] = [
      quickCreateParameters(a.body.cloudformation_quick_create_url),
      quickCreateParameters(b.body.cloudformation_quick_create_url),
    ];
    expect(linkA.templateURL).toBe(linkB.templateURL);
    expect(a.body.cloudformation_template).toBe(b.body.cloudformation_template);
    expect(linkA.param_ExternalId).toBe(a.body.external_id);
    expect(linkB.param_ExternalId).toBe(b.body.external_id);
    expect(a.body.external_id).not.toBe(b.body.external_id);
  });

  it("answers the event forwarder's template and a quick-create link for its us-east-1 stack with the account's key and endpoint", async () => {
    const res = await connect(ctx.http, '246824682468');
    const forwarding = res.body.event_forwarding;
    expect(forwarding.cloudformation_template).toBe(eventForwarderTemplate());
    const link = quickCreateParameters(forwarding.cloudformation_quick_create_url);
    expect(link).toEqual({
      region: GLOBAL_EVENTS_REGION,
      templateURL: `${ctx.config.cloud.endpointUrl}/${bucket}/${templateKey({ name: EVENT_FORWARDER_TEMPLATE, body: eventForwarderTemplate() })}`,
      stackName: EVENT_FORWARDER_STACK,
      [`param_${FORWARDER_PARAMETERS.apiKey}`]: forwarding.api_key,
      [`param_${FORWARDER_PARAMETERS.endpoint}`]: forwarding.endpoint,
    });
    const published = await fetch(link.templateURL!);
    expect(published.status).toBe(200);
    expect(await published.text()).toBe(eventForwarderTemplate());
    // The key in the link is the account's: it is accepted by the ingestion endpoint (an empty batch is 400, not 401).
    const probe = await ctx.http
      .post('/ingest/aws/events')
      .set('Content-Type', 'application/json')
      .set(forwarding.api_key_header, link[`param_${FORWARDER_PARAMETERS.apiKey}`]!)
      .send('[]');
    expect(probe.status).toBe(400);
  });

  it('answers no forwarder, and no key, when the connect asks for none', async () => {
    const owner = await signupAndLogin(ctx);
    const res = await ctx.http
      .post('/accounts')
      .set(owner.auth)
      .send({ aws_account_id: '135713571357', event_forwarding: false })
      .expect(201);
    expect(res.body.event_forwarding).toBeNull();
    expect(res.body.terraform_snippet).not.toContain('aws_cloudwatch_event');
    expect(res.body.fallback_cli_script).not.toContain('aws events');
    const keys = await ctx.db
      .selectFrom('account_event_keys')
      .innerJoin('accounts', 'accounts.id', 'account_event_keys.account_id')
      .select('key_hash')
      .where('accounts.tenant_id', '=', owner.tenantId)
      .execute();
    expect(keys).toEqual([]);
    await ctx.http
      .post('/accounts')
      .set(owner.auth)
      .send({ aws_account_id: '135713571357', event_forwarding: 'yes' })
      .expect(400);
  });

  it('answers a null link without a template bucket, with the template all the same', async () => {
    const unconfigured = createTemplatePublisher({ ...ctx.config.cloud, templateBucket: undefined });
    expect(unconfigured).toBeUndefined();
    const http = request(createApp({ ...ctx, templates: unconfigured }));
    const res = await connect(http, '909090909090');
    expect(res.body.cloudformation_quick_create_url).toBeNull();
    expect(res.body.cloudformation_template).toBe(
      accountRoleTemplate({ sentinelAccountId: res.body.sentinel_account_id }),
    );
    expect(res.body.event_forwarding).toMatchObject({
      cloudformation_quick_create_url: null,
      cloudformation_template: eventForwarderTemplate(),
    });
  });

  it('still connects, with a null link, when the template cannot be published', async () => {
    const missing = s3TemplatePublisher({
      bucket: `missing-${bucket}`,
      region: REGION,
      endpointUrl: ctx.config.cloud.endpointUrl,
    });
    const http = request(createApp({ ...ctx, templates: missing }));
    const res = await connect(http, '313131313131');
    expect(res.body).toMatchObject({
      status: 'PENDING',
      cloudformation_quick_create_url: null,
      event_forwarding: { cloudformation_quick_create_url: null },
    });
    expect(res.body.cloudformation_template).toContain('AWS::IAM::Role');
    expect(res.body.terraform_snippet).toContain(res.body.external_id);
  });
});
