import { createHash } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config/config';
import { hasCode } from './errors';

// CloudFormation's quick-create page takes a template only by URL, and only from Amazon S3: the service
// publishes its templates to a bucket of its own (CLOUDFORMATION_TEMPLATE_BUCKET, docs/operations.md) that the
// customers' consoles can read. Each version of a template is its own object, named by its content hash, so a
// link handed out before a change keeps working, and publishing is idempotent: instances that publish the same
// version at once write the same bytes.

/** The key prefix the bucket policy makes public: nothing else in the bucket is readable from outside. */
export const TEMPLATE_PREFIX = 'cloudformation/';

export interface TemplatePublisher {
  /** The bucket's region: a quick-create link opens the console there, next to its template. */
  region: string;
  /** The template's https URL, publishing it the first time this process sees its version. */
  publish(template: { name: string; body: string }): Promise<string>;
}

// A connect waits for the first publication of a version: S3 answers in milliseconds, or the link is left out.
const TIMEOUTS = { connectionTimeout: 3_000, requestTimeout: 5_000 };

/**
 * A short hash of a template's text, naming its published copy: a changed template gets a new object (and a new
 * link), so a link handed out earlier keeps the bytes it was made for.
 */
export function templateVersion(template: string): string {
  return createHash('sha256').update(template).digest('hex').slice(0, 16);
}

export function templateKey({ name, body }: { name: string; body: string }): string {
  return `${TEMPLATE_PREFIX}${name}-${templateVersion(body)}.yaml`;
}

/** The object's https URL in S3 (virtual-hosted style, as AWS documents it), or on the custom endpoint by path. */
export function templateObjectUrl({
  bucket,
  region,
  endpointUrl,
  key,
}: {
  bucket: string;
  region: string;
  endpointUrl?: string;
  key: string;
}): string {
  return endpointUrl
    ? `${endpointUrl.replace(/\/$/, '')}/${bucket}/${key}`
    : `https://${bucket}.s3.${region}.amazonaws.com/${key}`;
}

/** The publisher for this deployment, or none: without a bucket, or on the sandbox provider, which never calls AWS. */
export function createTemplatePublisher(
  config: Pick<Config['cloud'], 'provider' | 'templateBucket' | 'endpointUrl'>,
): TemplatePublisher | undefined {
  const bucket = config.templateBucket;
  if (!bucket || config.provider === 'sandbox') return undefined;
  return s3TemplatePublisher({ bucket: bucket.name, region: bucket.region, endpointUrl: config.endpointUrl });
}

export function s3TemplatePublisher({
  bucket,
  region,
  endpointUrl,
}: {
  bucket: string;
  region: string;
  endpointUrl?: string;
}): TemplatePublisher {
  // The service's own credentials (default provider chain). A custom endpoint (moto in tests) is addressed by
  // path, as it has no per-bucket host names.
  const s3 = new S3Client({
    region,
    maxAttempts: 2,
    requestHandler: TIMEOUTS,
    ...(endpointUrl ? { endpoint: endpointUrl, forcePathStyle: true } : {}),
  });
  const published = new Map<string, Promise<string>>();

  async function putUnlessPresent(key: string, body: string): Promise<string> {
    try {
      await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    } catch (err) {
      // A missing object is 404 NotFound only to a caller allowed s3:ListBucket; without it S3 answers 403.
      if (!hasCode(err, 'NotFound')) throw err;
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: 'application/yaml',
          // The key names the content: the object never changes.
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    }
    return templateObjectUrl({ bucket, region, endpointUrl, key });
  }

  return {
    region,
    publish(template) {
      const key = templateKey(template);
      let url = published.get(key);
      if (!url) {
        const attempt = putUnlessPresent(key, template.body);
        // Forget a failure, so that the next connect tries again instead of inheriting it.
        attempt.catch(() => {
          if (published.get(key) === attempt) published.delete(key);
        });
        published.set(key, attempt);
        url = attempt;
      }
      return url;
    },
  };
}
