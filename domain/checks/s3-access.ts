import type { BlockPublicAccess, Bucket, Inventory, Unread } from '../scans/inventory';
import { failing, onPart, onParts, withPart, withUnread } from './helpers';
import { publicPaths } from './exposure';
import type { Check, CheckResult, FailingResource } from './types';

// S3 access beyond the bucket's reading by everyone (exposure.s3_bucket_public): who may write or list it through
// its ACL or policy, which other accounts its policy lets in, the access points that reach it, and the bucket a
// trail delivers to. S3 applies the stricter of the account's and the bucket's Block Public Access:
// IgnorePublicAcls neutralises public ACLs, RestrictPublicBuckets public policies.

const WRITE_PERMISSIONS = ['WRITE', 'WRITE_ACP', 'FULL_CONTROL'];
const LIST_PERMISSIONS = ['READ', 'READ_ACP', 'FULL_CONTROL'];
const BPA_FLAGS = ['blockPublicAcls', 'ignorePublicAcls', 'blockPublicPolicy', 'restrictPublicBuckets'] as const;

const blocked = (
  bucket: Bucket,
  account: BlockPublicAccess | null,
  flag: 'ignorePublicAcls' | 'restrictPublicBuckets',
) => account?.[flag] === true || bucket.blockPublicAccess?.[flag] === true;

/** The buckets whose ACL grants everyone one of `permissions`, unless a Block Public Access ignores public ACLs. */
function aclGranting(permissions: string[], verb: string) {
  return onParts(['s3Buckets', 's3AccountBlockPublicAccess'], ({ buckets }, { settings }) =>
    failing(
      buckets.flatMap((bucket) => {
        const granted = bucket.publicAclPermissions.filter((p) => permissions.includes(p));
        if (granted.length === 0 || blocked(bucket, settings, 'ignorePublicAcls')) return [];
        return [
          {
            resource: bucket.name,
            region: bucket.region,
            detail: `Bucket ${bucket.name}'s ACL grants everyone ${granted.join(', ')}: anyone can ${verb} it.`,
          },
        ];
      }),
    ),
  );
}

/** Buckets whose policy Sentinel could not read, named unread by the checks of their policy. */
const unreadPolicy = (bucket: Bucket): Unread => ({
  kind: 'resource',
  scope: bucket.name,
  reason: 'Its bucket policy is not a policy document Sentinel can read.',
});

/** A resource's Block Public Access settings that are off (all four when it has none). */
const offFlags = (settings: BlockPublicAccess | null) =>
  settings ? BPA_FLAGS.filter((flag) => !settings[flag]) : [...BPA_FLAGS];

/** A trail's bucket that is in this account and readable by everyone. */
function publicTrailBuckets(inventory: Inventory): CheckResult {
  return withPart(inventory.cloudtrail, ({ trails }) =>
    withPart(inventory.s3AccountBlockPublicAccess, ({ settings }) =>
      withPart(inventory.s3Buckets, ({ buckets }) => {
        const byName = new Map(buckets.map((b) => [b.name, b]));
        const resources: FailingResource[] = [];
        for (const trail of trails) {
          const bucket = byName.get(trail.bucket);
          // A bucket of another account (an organization's trail's) is that account's to judge.
          const paths = bucket ? publicPaths(bucket, settings) : [];
          if (bucket && paths.length > 0)
            resources.push({
              resource: bucket.name,
              region: bucket.region,
              detail: `Bucket ${bucket.name}, where trail ${trail.name} delivers its logs, is public through ${paths.join(' and ')}.`,
            });
        }
        return failing(resources);
      }),
    ),
  );
}

export const S3_ACCESS_CHECKS: readonly Check[] = [
  {
    id: 'exposure.s3_bucket_public_write_acl',
    service: 's3',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'S3 bucket writable by anyone through its ACL',
    description:
      "A bucket's ACL grants WRITE, WRITE_ACP or FULL_CONTROL to everyone (AllUsers) or to every AWS account " +
      '(AuthenticatedUsers), and no Block Public Access ignores public ACLs: anyone can upload, overwrite or delete ' +
      'its objects (malware hosting, ransom, data destruction), or rewrite its ACL.',
    remediation:
      'Console: S3 > the bucket > Permissions > Access control list (ACL) > Edit: remove every grant to Everyone ' +
      '(public access) and Authenticated users group; then set Object Ownership to "Bucket owner enforced" to turn ' +
      'ACLs off. CLI: aws s3api put-bucket-acl --bucket <bucket> --acl private; aws s3api put-bucket-ownership-controls ' +
      '--bucket <bucket> --ownership-controls Rules=[{ObjectOwnership=BucketOwnerEnforced}]; aws s3api ' +
      'put-public-access-block --bucket <bucket> --public-access-block-configuration ' +
      'BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true. Review the ' +
      "bucket's objects for what was uploaded.",
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/acl-overview.html',
    controls: { 'aws-fsbp': ['S3.3'] },
    prowler: ['s3_bucket_public_write_acl'],
    evaluate: aclGranting(WRITE_PERMISSIONS, 'write to'),
  },
  {
    id: 'exposure.s3_bucket_public_list_acl',
    service: 's3',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'S3 bucket listable by anyone through its ACL',
    description:
      "A bucket's ACL grants READ, READ_ACP or FULL_CONTROL to everyone (AllUsers) or to every AWS account " +
      "(AuthenticatedUsers), and no Block Public Access ignores public ACLs: anyone can list every object's key and " +
      'read its permissions, which is how leaked backups and exports are found.',
    remediation:
      'Console: S3 > the bucket > Permissions > Access control list (ACL) > Edit: remove the Everyone and ' +
      'Authenticated users group grants; set Object Ownership to "Bucket owner enforced". CLI: aws s3api ' +
      'put-bucket-acl --bucket <bucket> --acl private; aws s3api put-public-access-block --bucket <bucket> ' +
      '--public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,' +
      'RestrictPublicBuckets=true.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/acl-overview.html',
    controls: { 'aws-fsbp': ['S3.2'] },
    prowler: ['s3_bucket_public_list_acl'],
    evaluate: aclGranting(LIST_PERMISSIONS, 'list'),
  },
  {
    id: 'exposure.s3_bucket_public_write_policy',
    service: 's3',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'S3 bucket policy lets anyone write',
    description:
      'A bucket policy statement open to everyone (Principal "*", no condition naming who) allows writing or ' +
      "deleting objects or changing the bucket's permissions (s3:PutObject, s3:DeleteObject, s3:Put*, s3:*), and no " +
      'Block Public Access restricts public policies.',
    remediation:
      'Console: S3 > the bucket > Permissions > Bucket policy > Edit: remove the statement, or name the principals ' +
      'that may write (or add an aws:PrincipalOrgID condition). Then turn on Block Public Access. CLI: aws s3api ' +
      'get-bucket-policy --bucket <bucket>, edit the document, aws s3api put-bucket-policy --bucket <bucket> ' +
      '--policy file://policy.json; aws s3api put-public-access-block --bucket <bucket> ' +
      '--public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,' +
      'RestrictPublicBuckets=true.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html',
    controls: { 'aws-fsbp': ['S3.3'] },
    prowler: ['s3_bucket_policy_public_write_access'],
    evaluate: onParts(['s3Buckets', 's3AccountBlockPublicAccess'], ({ buckets }, { settings }) => {
      const resources: FailingResource[] = [];
      const unread: Unread[] = [];
      for (const bucket of buckets) {
        if (blocked(bucket, settings, 'restrictPublicBuckets')) continue;
        if (bucket.publicWriteStatements === null) unread.push(unreadPolicy(bucket));
        else if (bucket.publicWriteStatements.length > 0)
          resources.push({
            resource: bucket.name,
            region: bucket.region,
            detail: `Bucket ${bucket.name}'s policy is open to everyone: ${bucket.publicWriteStatements.join('; ')}.`,
          });
      }
      return withUnread(failing(resources), unread);
    }),
  },
  {
    id: 'exposure.s3_bucket_cross_account_policy',
    service: 's3',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'S3 bucket policy lets other accounts in',
    description:
      "A bucket policy names other AWS accounts as principals. Each is a way into the bucket's data that this " +
      "account's IAM does not control: if the other account is not one of yours, or no longer needs it, it is a leak.",
    remediation:
      'Check that every account named is yours (or a partner that must have it). Console: S3 > the bucket > ' +
      'Permissions > Bucket policy > Edit: remove the statements naming accounts that should not have access, or ' +
      'restrict them with an aws:PrincipalOrgID condition. CLI: aws s3api get-bucket-policy --bucket <bucket>; edit; ' +
      'aws s3api put-bucket-policy --bucket <bucket> --policy file://policy.json. Accept the finding for accounts you trust.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/example-walkthroughs-managing-access-example2.html',
    prowler: ['s3_bucket_cross_account_access'],
    evaluate: onPart('s3Buckets', ({ buckets }) => {
      const resources: FailingResource[] = [];
      const unread: Unread[] = [];
      for (const bucket of buckets) {
        if (bucket.crossAccountPrincipals === null) unread.push(unreadPolicy(bucket));
        else if (bucket.crossAccountPrincipals.length > 0)
          resources.push({
            resource: bucket.name,
            region: bucket.region,
            detail: `Bucket ${bucket.name}'s policy lets in account ${bucket.crossAccountPrincipals.join(', ')}.`,
          });
      }
      return withUnread(failing(resources), unread);
    }),
  },
  {
    id: 'exposure.s3_access_point_public_access_block_off',
    service: 's3',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'S3 access point without Block Public Access',
    description:
      "An S3 access point does not have all four Block Public Access settings on. An access point's policy is a " +
      "separate way into its bucket: a public access point policy exposes the bucket's data whatever the bucket's " +
      'own settings, unless the account blocks it.',
    remediation:
      "An access point's Block Public Access is fixed when it is created: create a replacement with all four " +
      'settings on, move its users over, then delete the old one. Console: S3 > Access Points > Create access point ' +
      '(leave "Block all public access" checked). CLI: aws s3control create-access-point --account-id <account> ' +
      '--name <name> --bucket <bucket> --public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,' +
      'BlockPublicPolicy=true,RestrictPublicBuckets=true; aws s3control delete-access-point --account-id <account> ' +
      '--name <old name>.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-points-bpa-settings.html',
    controls: { 'aws-fsbp': ['S3.19'] },
    prowler: ['s3_access_point_public_access_block'],
    evaluate: onPart('s3AccessPoints', ({ accessPoints }) =>
      failing(
        accessPoints.flatMap((point) => {
          const off = offFlags(point.blockPublicAccess);
          if (off.length === 0) return [];
          return [
            {
              resource: point.name,
              region: point.region,
              detail: `Access point ${point.name} of bucket ${point.bucket} has ${off.join(', ')} off.`,
            },
          ];
        }),
      ),
    ),
  },
  {
    id: 'exposure.s3_multi_region_access_point_public_access_block_off',
    service: 's3',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'S3 Multi-Region Access Point without Block Public Access',
    description:
      'An S3 Multi-Region Access Point does not have all four Block Public Access settings on: its policy can open ' +
      'every bucket behind it, in every region, to the internet.',
    remediation:
      "A Multi-Region Access Point's Block Public Access is fixed when it is created: create a replacement with all " +
      'four settings on, move its users over, then delete the old one. Console: S3 > Multi-Region Access Points > ' +
      'Create. CLI: aws s3control create-multi-region-access-point --region us-west-2 --account-id <account> ' +
      "--details 'Name=<name>,PublicAccessBlock={BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true," +
      "RestrictPublicBuckets=true},Regions=[{Bucket=<bucket>}]'; aws s3control delete-multi-region-access-point " +
      '--region us-west-2 --account-id <account> --details Name=<old name>.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/multi-region-access-point-block-public-access.html',
    controls: { 'aws-fsbp': ['S3.24'] },
    prowler: ['s3_multi_region_access_point_public_access_block'],
    evaluate: onPart('s3MultiRegionAccessPoints', ({ accessPoints }) =>
      failing(
        accessPoints.flatMap((point) => {
          const off = offFlags(point.blockPublicAccess);
          if (off.length === 0) return [];
          return [
            {
              resource: point.name,
              detail: `Multi-Region Access Point ${point.name} (buckets ${point.buckets.join(', ')}) has ${off.join(', ')} off.`,
            },
          ];
        }),
      ),
    ),
  },
  {
    id: 'detection.trail_bucket_public',
    service: 'cloudtrail',
    scenario: 'detection',
    severity: 'CRITICAL',
    title: "A trail's log bucket is public",
    description:
      'The bucket a CloudTrail trail delivers to is in this account and readable by everyone (its ACL or policy, ' +
      'not blocked by Block Public Access): the logs tell an attacker who does what, from where, with which roles. ' +
      "A bucket of another account (an organization trail's) is judged in that account.",
    remediation:
      'Console: S3 > the bucket > Permissions: turn on Block public access (all four settings), remove the ' +
      'Everyone / Authenticated users ACL grants and any "Principal": "*" statement the CloudTrail bucket policy does ' +
      'not need. CLI: aws s3api put-public-access-block --bucket <bucket> --public-access-block-configuration ' +
      'BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true; aws s3api ' +
      'put-bucket-acl --bucket <bucket> --acl private.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/create-s3-bucket-policy-for-cloudtrail.html',
    controls: { 'aws-fsbp': ['CloudTrail.6'] },
    prowler: ['cloudtrail_logs_s3_bucket_is_not_publicly_accessible'],
    evaluate: publicTrailBuckets,
  },
];
