import {
  GetBucketAclCommand, GetBucketLocationCommand, GetBucketPolicyStatusCommand, GetPublicAccessBlockCommand,
  paginateListBuckets, type PublicAccessBlockConfiguration, S3Client,
} from '@aws-sdk/client-s3';
import { GetPublicAccessBlockCommand as GetAccountPublicAccessBlockCommand, S3ControlClient } from '@aws-sdk/client-s3-control';
import type { BlockPublicAccess, Bucket, Collected, S3Inventory } from '../../../domain/inventory';
import { hasCode } from '../errors';
import { mapLimit, settleAll } from './concurrency';
import { allPages } from './pages';
import { readPart, RefusedError } from './refusals';
import { GLOBAL_REGION, perRegion, type Session } from './session';

const PER_BUCKET_CONCURRENCY = 8;
const PUBLIC_GRANTEES = new Set([
  'http://acs.amazonaws.com/groups/global/AllUsers',
  'http://acs.amazonaws.com/groups/global/AuthenticatedUsers',
]);

function blockPublicAccess(config: PublicAccessBlockConfiguration | undefined): BlockPublicAccess | null {
  if (!config) return null;
  return {
    blockPublicAcls: config.BlockPublicAcls ?? false,
    ignorePublicAcls: config.IgnorePublicAcls ?? false,
    blockPublicPolicy: config.BlockPublicPolicy ?? false,
    restrictPublicBuckets: config.RestrictPublicBuckets ?? false,
  };
}

/** null when the answer is AWS's "not configured" error rather than a configuration. */
async function unlessAbsent<T>(read: () => Promise<T>, absentCode: string): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (hasCode(err, absentCode)) return null;
    throw err;
  }
}

async function accountBlockPublicAccess(session: Session): Promise<BlockPublicAccess | null> {
  const endpointUrl = session.endpointUrl;
  // S3 Control puts the account id in the host name, which an emulator's address cannot take.
  const s3control = session.client((config) => new S3ControlClient(
    endpointUrl ? { ...config, endpointProvider: () => ({ url: new URL(endpointUrl) }) } : config));
  const answer = await unlessAbsent(
    () => s3control.send(new GetAccountPublicAccessBlockCommand({ AccountId: session.accountId })),
    'NoSuchPublicAccessBlockConfiguration');
  return blockPublicAccess(answer?.PublicAccessBlockConfiguration);
}

export function collectS3(session: Session): Promise<Collected<S3Inventory>> {
  return readPart(async () => {
    // Bucket-level calls go to the bucket's region. An emulator's address cannot take the bucket in its host name.
    const s3 = perRegion((region) => session.client(
      (config) => new S3Client({ ...config, forcePathStyle: session.endpointUrl !== undefined }), region));

    /** null when the bucket was deleted while the collection ran. */
    async function readBucket(name: string): Promise<Bucket | null> {
      try {
        const { LocationConstraint } = await s3(GLOBAL_REGION).send(new GetBucketLocationCommand({ Bucket: name }));
        // us-east-1 answers with no constraint, and the oldest eu-west-1 buckets with "EU".
        const region = !LocationConstraint ? 'us-east-1' : LocationConstraint === 'EU' ? 'eu-west-1' : LocationConstraint;
        const client = s3(region);
        const [acl, policyStatus, block] = await settleAll([
          client.send(new GetBucketAclCommand({ Bucket: name })),
          unlessAbsent(() => client.send(new GetBucketPolicyStatusCommand({ Bucket: name })), 'NoSuchBucketPolicy'),
          unlessAbsent(() => client.send(new GetPublicAccessBlockCommand({ Bucket: name })), 'NoSuchPublicAccessBlockConfiguration'),
        ]);
        return {
          name,
          region,
          publicViaAcl: (acl.Grants ?? []).some((g) => PUBLIC_GRANTEES.has(g.Grantee?.URI ?? '')),
          publicViaPolicy: policyStatus?.PolicyStatus?.IsPublic ?? false,
          blockPublicAccess: blockPublicAccess(block?.PublicAccessBlockConfiguration),
        };
      } catch (err) {
        if (hasCode(err, 'NoSuchBucket')) return null;
        // A bucket policy can deny Sentinel alone: say which bucket.
        throw err instanceof RefusedError ? err.about(`bucket ${name}`) : err;
      }
    }

    const [account, pages] = await settleAll([
      accountBlockPublicAccess(session),
      allPages(paginateListBuckets({ client: s3(GLOBAL_REGION) }, {})),
    ]);
    const names = pages.flatMap((page) => page.Buckets ?? []).flatMap((b) => (b.Name ? [b.Name] : []));
    const buckets = await mapLimit({ items: names, limit: PER_BUCKET_CONCURRENCY, run: readBucket });
    return { accountBlockPublicAccess: account, buckets: buckets.filter((b): b is Bucket => b !== null) };
  });
}
