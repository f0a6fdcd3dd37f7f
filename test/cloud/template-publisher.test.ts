import { randomBytes } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  createTemplatePublisher,
  s3TemplatePublisher,
  TEMPLATE_PREFIX,
  templateKey,
  templateObjectUrl,
  templateVersion,
} from '../../cloud/aws/template-publisher';
import { loadConfig } from '../../config/config';
import { accountRoleTemplate } from '../../domain/onboarding/cloudformation';
import { type AwsFront, REGION, startAwsFront } from '../helpers/aws';
import { createTemplateBucket } from '../helpers/template-bucket';

// Publishing on moto's S3, through a front of the suite's own that counts the publisher's requests. The bucket
// has the policy docs/operations.md gives, and moto enforces it on anonymous reads, as a customer's console makes.

let front: AwsFront;
let s3: S3Client;
const bucket = `sentinel-templates-${randomBytes(4).toString('hex')}`;
const template = { name: 'sentinel-account-role', body: accountRoleTemplate({ sentinelAccountId: '123456789012' }) };

beforeAll(async () => {
  front = await startAwsFront();
  s3 = await createTemplateBucket(bucket);
});
afterAll(async () => {
  s3.destroy();
  await front.close();
});
beforeEach(() => {
  front.requests.length = 0;
  front.answer = () => undefined;
});

const s3Requests = (method: string) => front.requests.filter((r) => r.service === 's3' && r.method === method);
const publisher = () => s3TemplatePublisher({ bucket, region: REGION, endpointUrl: front.endpoint });

describe('s3TemplatePublisher', () => {
  it('puts a new version once, readable at its URL with the same bytes', async () => {
    const url = await publisher().publish(template);

    const key = `${TEMPLATE_PREFIX}sentinel-account-role-${templateVersion(template.body)}.yaml`;
    expect(url).toBe(`${front.endpoint}/${bucket}/${key}`);
    expect(s3Requests('HEAD')).toHaveLength(1);
    expect(s3Requests('PUT')).toHaveLength(1);
    const stored = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(await stored.Body?.transformToString()).toBe(template.body);
    expect(stored.ContentType).toBe('application/yaml');
    const fetched = await fetch(url);
    expect(await fetched.text()).toBe(template.body);
  });

  it('is readable by anyone under the templates prefix only, with the documented bucket policy', async () => {
    const url = await publisher().publish(template);
    expect((await fetch(url)).status).toBe(200);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'private/notes.txt', Body: 'not for customers' }));
    expect((await fetch(`${front.endpoint}/${bucket}/private/notes.txt`)).status).toBe(403);
  });

  it('asks S3 nothing for a version it has published, and only looks (no put) for one another process published', async () => {
    const mine = publisher();
    const url = await mine.publish(template);
    front.requests.length = 0;

    expect(await mine.publish(template)).toBe(url);
    expect(front.requests).toHaveLength(0);

    expect(await publisher().publish(template)).toBe(url);
    expect(s3Requests('HEAD')).toHaveLength(1);
    expect(s3Requests('PUT')).toHaveLength(0);
  });

  it('publishes a changed template under a key of its own, and concurrent asks share one publication', async () => {
    const first = await publisher().publish(template);
    front.requests.length = 0;
    const changed = { ...template, body: accountRoleTemplate({ sentinelAccountId: '210987654321' }) };

    const mine = publisher();
    const urls = await Promise.all([mine.publish(changed), mine.publish(changed), mine.publish(changed)]);

    expect(new Set(urls).size).toBe(1);
    expect(urls[0]).not.toBe(first);
    expect(urls[0]).toContain(templateKey(changed));
    expect(s3Requests('PUT')).toHaveLength(1);
    expect(await (await fetch(urls[0]!)).text()).toBe(changed.body);
  });

  it('forgets a failed publication, so the next ask tries again', async () => {
    const fresh = { ...template, body: `${template.body}# another version\n` };
    const mine = publisher();
    front.answer = (request) =>
      request.service === 's3' ? { status: 403, contentType: 'application/xml', body: '' } : undefined;
    await expect(mine.publish(fresh)).rejects.toThrow();

    front.answer = () => undefined;
    await expect(mine.publish(fresh)).resolves.toContain(templateKey(fresh));
    expect(s3Requests('PUT')).toHaveLength(1);
  });
});

describe('templateObjectUrl', () => {
  it("is the object's virtual-hosted https URL in AWS, and by path on a custom endpoint", () => {
    const key = 'cloudformation/sentinel-account-role-0123456789abcdef.yaml';
    expect(templateObjectUrl({ bucket: 'templates', region: 'eu-west-1', key })).toBe(
      `https://templates.s3.eu-west-1.amazonaws.com/${key}`,
    );
    expect(
      templateObjectUrl({ bucket: 'templates', region: 'eu-west-1', endpointUrl: 'http://127.0.0.1:5000/', key }),
    ).toBe(`http://127.0.0.1:5000/templates/${key}`);
  });
});

describe('createTemplatePublisher', () => {
  const templateBucket = { name: bucket, region: 'eu-west-1' };

  it('builds none without a template bucket, nor on the sandbox provider (which never calls AWS)', () => {
    expect(createTemplatePublisher({ provider: 'aws', templateBucket: undefined })).toBeUndefined();
    expect(createTemplatePublisher({ provider: 'sandbox', templateBucket })).toBeUndefined();
  });

  it('publishes to the configured bucket, in its region', () => {
    expect(createTemplatePublisher({ provider: 'aws', templateBucket, endpointUrl: front.endpoint })?.region).toBe(
      'eu-west-1',
    );
  });
});

describe('CLOUDFORMATION_TEMPLATE_BUCKET', () => {
  const env = { DATABASE_URL: 'postgres://localhost/sentinel', JWT_SECRET: 's'.repeat(32), CLOUD_PROVIDER: 'aws' };

  it('is read with its region, AWS_REGION unless CLOUDFORMATION_TEMPLATE_REGION says otherwise', () => {
    expect(loadConfig(env).cloud.templateBucket).toBeUndefined();
    expect(
      loadConfig({ ...env, CLOUDFORMATION_TEMPLATE_BUCKET: 'templates', AWS_REGION: 'eu-central-1' }).cloud
        .templateBucket,
    ).toEqual({ name: 'templates', region: 'eu-central-1' });
    expect(
      loadConfig({ ...env, CLOUDFORMATION_TEMPLATE_BUCKET: 'templates', CLOUDFORMATION_TEMPLATE_REGION: 'eu-west-1' })
        .cloud.templateBucket,
    ).toEqual({ name: 'templates', region: 'eu-west-1' });
  });

  it("refuses a name with dots, whose https URL would not match S3's certificate", () => {
    expect(() => loadConfig({ ...env, CLOUDFORMATION_TEMPLATE_BUCKET: 'templates.example.com' })).toThrow(
      /CLOUDFORMATION_TEMPLATE_BUCKET/,
    );
  });
});
