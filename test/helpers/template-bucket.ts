import { CreateBucketCommand, PutBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import { TEMPLATE_PREFIX } from '../../cloud/aws/template-publisher';
import { motoEndpoint, REGION, TEST_CREDENTIALS } from './aws';

/** The bucket policy docs/operations.md gives ("CloudFormation templates"): anyone may read the templates, nothing else. */
export function publicTemplatesPolicy(bucket: string) {
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'PublicCloudFormationTemplates',
        Effect: 'Allow',
        Principal: '*',
        Action: 's3:GetObject',
        Resource: `arn:aws:s3:::${bucket}/${TEMPLATE_PREFIX}*`,
      },
    ],
  };
}

/** A template bucket on moto (which enforces bucket policies on anonymous reads), set up as the docs say. */
export async function createTemplateBucket(bucket: string): Promise<S3Client> {
  const s3 = new S3Client({
    region: REGION,
    endpoint: motoEndpoint(),
    forcePathStyle: true,
    credentials: TEST_CREDENTIALS,
  });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: JSON.stringify(publicTemplatesPolicy(bucket)) }));
  return s3;
}
