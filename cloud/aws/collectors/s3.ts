import {
  GetBucketAclCommand,
  GetBucketLocationCommand,
  GetBucketPolicyCommand,
  GetBucketPolicyStatusCommand,
  GetPublicAccessBlockCommand,
  paginateListBuckets,
  type PublicAccessBlockConfiguration,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  GetPublicAccessBlockCommand as GetAccountPublicAccessBlockCommand,
  S3ControlClient,
} from '@aws-sdk/client-s3-control';
import { allows, describeStatement, policyExposure } from '../../../domain/policies/resource-policy';
import type { BlockPublicAccess, Bucket, Unread } from '../../../domain/scans/inventory';
import { mapLimit, settleAll } from './concurrency';
import { failureOf, isAbsent, unlessAbsent } from './failures';
import { foldPages, globalPart, type ReadContext } from './reader';
import { parsePolicyDocument } from '../trust-policy';
import { deniesInsecureTransport } from './s3-secure-transport';
import { GLOBAL_REGION, perRegion } from './session';

// S3: the account's Block Public Access (S3 Control), then every bucket on its own. A bucket policy can deny
// Sentinel alone: that bucket is unread, the others are evaluated. Per bucket: its region (from ListBuckets when
// AWS gives it), its Block Public Access, its ACL and policy status unless its own block makes them moot, and its
// policy (whether it refuses requests without TLS, which no block makes moot).

const PER_BUCKET_CONCURRENCY = 16;
const PUBLIC_GRANTEES = new Set([
  'http://acs.amazonaws.com/groups/global/AllUsers',
  'http://acs.amazonaws.com/groups/global/AuthenticatedUsers',
]);

/** What a statement open to everyone may not allow: writing, deleting or re-permissioning the bucket or its objects. */
const WRITE_ACTIONS = ['s3:PutObject', 's3:DeleteObject', 's3:PutBucketPolicy', 's3:PutBucketAcl', 's3:DeleteBucket'];

/** The public write statements and the other accounts a bucket policy names; null each for an unreadable policy. */
export function bucketPolicyGrants(
  policy: string | undefined,
  ownAccount: string,
): Pick<Bucket, 'publicWriteStatements' | 'crossAccountPrincipals'> {
  if (!policy) return { publicWriteStatements: [], crossAccountPrincipals: [] };
  const exposure = policyExposure(policy, ownAccount);
  if (!exposure) return { publicWriteStatements: null, crossAccountPrincipals: null };
  return {
    publicWriteStatements: exposure.public.filter((s) => allows(s, ...WRITE_ACTIONS)).map(describeStatement),
    crossAccountPrincipals: [...new Set(exposure.external.map((e) => e.account))].sort(),
  };
}

export function blockPublicAccess(config: PublicAccessBlockConfiguration | undefined): BlockPublicAccess | null {
  if (!config) return null;
  return {
    blockPublicAcls: config.BlockPublicAcls ?? false,
    ignorePublicAcls: config.IgnorePublicAcls ?? false,
    blockPublicPolicy: config.BlockPublicPolicy ?? false,
    restrictPublicBuckets: config.RestrictPublicBuckets ?? false,
  };
}

/** The bucket policy as a document, for the attack-path analysis; nothing without one (or one that is not JSON). */
function documentOf(policy: string | undefined): Pick<Bucket, 'policyDocument'> {
  const document = policy ? parsePolicyDocument(policy) : undefined;
  return document ? { policyDocument: document } : {};
}

export const s3AccountBlockPublicAccessPart = globalPart({
  part: 's3AccountBlockPublicAccess',
  async read({ session }: ReadContext) {
    const endpointUrl = session.endpointUrl;
    // S3 Control puts the account id in the host name, which an emulator's address cannot take.
    const s3control = session.client(
      (config) =>
        new S3ControlClient(
          endpointUrl ? { ...config, endpointProvider: () => ({ url: new URL(endpointUrl) }) } : config,
        ),
    );
    const answer = await unlessAbsent(
      () => s3control.send(new GetAccountPublicAccessBlockCommand({ AccountId: session.accountId })),
      'NoSuchPublicAccessBlockConfiguration',
    );
    return { value: { settings: blockPublicAccess(answer?.PublicAccessBlockConfiguration) } };
  },
});

// us-east-1 answers GetBucketLocation with no constraint, and the oldest eu-west-1 buckets with "EU".
const regionOf = (constraint: string | undefined) =>
  !constraint ? 'us-east-1' : constraint === 'EU' ? 'eu-west-1' : constraint;

export const s3BucketsPart = globalPart({
  part: 's3Buckets',
  async read({ session }: ReadContext) {
    // Bucket-level calls go to the bucket's region. An emulator's address cannot take the bucket in its host name.
    const s3 = perRegion((region) =>
      session.client(
        (config) => new S3Client({ ...config, forcePathStyle: session.endpointUrl !== undefined }),
        region,
      ),
    );
    const listed = await foldPages(
      paginateListBuckets({ client: s3(GLOBAL_REGION) }, {}),
      [] as { name: string; region?: string }[],
      (into, page) => {
        for (const b of page.Buckets ?? []) if (b.Name) into.push({ name: b.Name, region: b.BucketRegion });
        return into;
      },
    );

    const unread: Unread[] = [];
    /** null when the bucket was deleted while the collection ran. */
    async function readBucket({
      name,
      region: listedRegion,
    }: {
      name: string;
      region?: string;
    }): Promise<Bucket | null> {
      try {
        const region =
          listedRegion ??
          regionOf((await s3(GLOBAL_REGION).send(new GetBucketLocationCommand({ Bucket: name }))).LocationConstraint);
        const client = s3(region);
        const block = blockPublicAccess(
          (
            await unlessAbsent(
              () => client.send(new GetPublicAccessBlockCommand({ Bucket: name })),
              'NoSuchPublicAccessBlockConfiguration',
            )
          )?.PublicAccessBlockConfiguration,
        );
        // A path the bucket's own block neutralises is not read: it reads as closed, which is what it amounts to. The
        // policy is read first: a bucket without one (most) needs no policy status, so a bucket costs what it did
        // before the TLS check.
        const [acl, policy] = await settleAll([
          block?.ignorePublicAcls ? null : client.send(new GetBucketAclCommand({ Bucket: name })),
          unlessAbsent(() => client.send(new GetBucketPolicyCommand({ Bucket: name })), 'NoSuchBucketPolicy'),
        ]);
        const policyStatus =
          block?.restrictPublicBuckets || !policy?.Policy
            ? null
            : await unlessAbsent(
                () => client.send(new GetBucketPolicyStatusCommand({ Bucket: name })),
                'NoSuchBucketPolicy',
              );
        const publicGrants = (acl?.Grants ?? []).filter((g) => PUBLIC_GRANTEES.has(g.Grantee?.URI ?? ''));
        return {
          name,
          region,
          publicViaAcl: publicGrants.length > 0,
          publicViaPolicy: policyStatus?.PolicyStatus?.IsPublic ?? false,
          blockPublicAccess: block,
          deniesInsecureTransport: deniesInsecureTransport(policy?.Policy, name),
          publicAclPermissions: [...new Set(publicGrants.flatMap((g) => (g.Permission ? [g.Permission] : [])))].sort(),
          ...bucketPolicyGrants(policy?.Policy, session.accountId),
          ...documentOf(policy?.Policy),
        };
      } catch (err) {
        if (isAbsent(err, 'NoSuchBucket')) return null;
        unread.push({ kind: 'resource', scope: name, reason: failureOf(err).reason });
        return null;
      }
    }
    const buckets = await mapLimit({ items: listed, limit: PER_BUCKET_CONCURRENCY, run: readBucket });
    return { value: { buckets: buckets.filter((b): b is Bucket => b !== null) }, unread };
  },
});
