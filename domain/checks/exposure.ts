import type { BlockPublicAccess, Bucket, Inventory, OpenIngress, SecurityGroup, Unread } from '../scans/inventory';
import { failing, failWhen, judgedWithout, onPart, onParts, withPart } from './helpers';
import type { ControlRefs } from '../compliance/types';
import type { Check, CheckResult, FailingResource } from './types';

// Exposure checks: what the internet can reach or read directly (buckets, security groups, snapshots, images).

const INTERNET = new Set(['0.0.0.0/0', '::/0']);

/** EC2 reports well-known protocols by name but accepts (and may echo) their IANA numbers. */
function protocolOf(rule: OpenIngress): string {
  const byNumber: Record<string, string> = { '-1': 'all', '6': 'tcp', '17': 'udp' };
  return byNumber[rule.protocol] ?? rule.protocol.toLowerCase();
}

/** Whether the rule admits `port` over one of `protocols`: a range that contains the port counts. */
export function admitsPort(rule: OpenIngress, protocols: readonly string[], port: number): boolean {
  const protocol = protocolOf(rule);
  if (protocol === 'all') return true;
  return (
    protocols.includes(protocol) &&
    rule.fromPort !== null &&
    rule.toPort !== null &&
    rule.fromPort <= port &&
    port <= rule.toPort
  );
}

function admitsAllPorts(rule: OpenIngress): boolean {
  const protocol = protocolOf(rule);
  return (
    protocol === 'all' ||
    ((protocol === 'tcp' || protocol === 'udp') &&
      rule.fromPort !== null &&
      rule.toPort !== null &&
      rule.fromPort <= 0 &&
      rule.toPort >= 65535)
  );
}

function describeRule(rule: OpenIngress): string {
  const protocol = protocolOf(rule);
  if (protocol === 'all') return `all traffic from ${rule.cidr}`;
  const ports = rule.fromPort === rule.toPort ? `port ${rule.fromPort}` : `ports ${rule.fromPort}-${rule.toPort}`;
  return `${protocol} ${ports} from ${rule.cidr}`;
}

/**
 * One failing resource per security group (and region) with an internet-open rule that matches; `controlsOf`
 * names the controls its matching rules fail, when they fail fewer than all of the check's.
 */
export function openGroups(
  groups: SecurityGroup[],
  matches: (rule: OpenIngress) => boolean,
  controlsOf?: (rules: OpenIngress[]) => ControlRefs,
): FailingResource[] {
  return groups.flatMap((group) => {
    const rules = group.openIngress.filter((rule) => INTERNET.has(rule.cidr) && matches(rule));
    if (rules.length === 0) return [];
    return [
      {
        resource: group.id,
        region: group.region,
        detail: `Security group ${group.id} (${group.name}) in ${group.region} allows ${rules.map(describeRule).join(', ')}.`,
        ...(controlsOf ? { controls: controlsOf(rules) } : {}),
      },
    ];
  });
}

/** CIS 6.3 is about IPv4 sources and 6.4 about IPv6: a group open to one family fails only that one's control. */
function cisAdminControls(rules: OpenIngress[]): ControlRefs {
  return { 'cis-aws-7.0': [...new Set(rules.map((rule) => (rule.cidr === '::/0' ? '6.4' : '6.3')))].sort() };
}

const BPA_FLAGS = ['blockPublicAcls', 'ignorePublicAcls', 'blockPublicPolicy', 'restrictPublicBuckets'] as const;
/** The protocols CIS 6.2-6.4 count for the remote administration ports: TCP and UDP (all protocols match anyway). */
const ADMIN_PROTOCOLS = ['tcp', 'udp'] as const;

/**
 * CIS 3.1.4: every bucket covered by all four Block Public Access settings, the account's or its own (S3 applies
 * a setting that either turns on). The account's settings cover every bucket, present and future, and need no
 * bucket read; without them, each bucket must carry the missing ones itself.
 */
function bucketsWithoutBlock(inventory: Inventory): CheckResult {
  const account = inventory.s3AccountBlockPublicAccess;
  // Unread, the account's settings may cover what a bucket lacks: such a bucket is unread, never failed nor passed.
  const unreadAccount = account.status === 'ok' ? undefined : account.reason;
  const settings = account.status === 'ok' ? account.value.settings : null;
  if (settings && BPA_FLAGS.every((flag) => settings[flag])) return { status: 'pass' };
  return withPart(inventory.s3Buckets, ({ buckets }) => {
    const resources: FailingResource[] = [];
    const unread: Unread[] = [];
    for (const bucket of buckets) {
      const off = BPA_FLAGS.filter((flag) => bucket.blockPublicAccess?.[flag] !== true && settings?.[flag] !== true);
      if (off.length === 0) continue;
      if (unreadAccount !== undefined) {
        unread.push({
          kind: 'resource',
          scope: bucket.name,
          reason: `The account's Block Public Access, which may cover it, could not be read: ${unreadAccount}`,
        });
      } else {
        resources.push({
          resource: bucket.name,
          region: bucket.region,
          detail: `Bucket ${bucket.name} in ${bucket.region} has ${off.join(', ')} off, in its own Block Public Access and the account's.`,
        });
      }
    }
    return judgedWithout(resources, unread, unreadAccount);
  });
}

/**
 * The ways a bucket is readable by anyone. S3 applies the most restrictive of the account's and the bucket's
 * Block Public Access: IgnorePublicAcls neutralises public ACLs and RestrictPublicBuckets public policies.
 */
export function publicPaths(bucket: Bucket, account: BlockPublicAccess | null): string[] {
  const blocks = (flag: 'ignorePublicAcls' | 'restrictPublicBuckets') =>
    account?.[flag] === true || bucket.blockPublicAccess?.[flag] === true;
  const paths: string[] = [];
  if (bucket.publicViaAcl && !blocks('ignorePublicAcls')) paths.push('its ACL');
  if (bucket.publicViaPolicy && !blocks('restrictPublicBuckets')) paths.push('its bucket policy');
  return paths;
}

const SG_REMEDIATION =
  'Remove the 0.0.0.0/0 and ::/0 sources from the rule; allow only known address ranges, or reach ' +
  'instances through Systems Manager Session Manager or a VPN instead of exposing the port. In the console: EC2 > Security Groups > the group > Edit inbound rules. With the CLI: aws ec2 ' +
  'revoke-security-group-ingress --group-id <group> --ip-permissions <the rule, with its port and open source>.';

export const EXPOSURE_CHECKS: readonly Check[] = [
  {
    id: 'exposure.s3_account_public_access_block_off',
    service: 's3',
    prowler: ['s3_account_level_public_access_blocks'],
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'S3 Block Public Access is off for the account',
    description:
      'At least one of the four account-level S3 Block Public Access settings is off (or none is configured), ' +
      'so one mistaken ACL or bucket policy can publish data.',
    remediation:
      'In the S3 console open "Block Public Access settings for this account" and turn on all four settings. ' +
      'First list buckets that must stay public (for example static websites) and serve them through CloudFront with ' +
      'origin access control instead. With the CLI: aws s3control put-public-access-block --account-id <account> ' +
      '--public-access-block-configuration ' +
      'BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/configuring-block-public-access-account.html',
    // CIS 3.1.4 accepts every bucket's own settings instead: exposure.s3_bucket_public_access_block_off decides it.
    controls: { 'aws-fsbp': ['S3.1'] },
    evaluate: onPart('s3AccountBlockPublicAccess', ({ settings }) => {
      const off = settings ? BPA_FLAGS.filter((flag) => !settings[flag]) : [...BPA_FLAGS];
      return failWhen(off.length > 0, {
        resource: 's3-account-public-access-block',
        detail: settings
          ? `Account-level settings off: ${off.join(', ')}.`
          : 'No account-level Block Public Access configuration.',
      });
    }),
  },
  {
    id: 'exposure.s3_bucket_public_access_block_off',
    service: 's3',
    prowler: ['s3_bucket_level_public_access_block'],
    scenario: 'exposure',
    severity: 'LOW',
    title: 'S3 bucket not covered by Block Public Access',
    description:
      "A bucket is covered by neither the account's nor its own Block Public Access (all four settings, at either " +
      'level): one mistaken ACL or bucket policy can publish it. CIS 3.1.4 accepts either level; the account level ' +
      'also covers the buckets created later.',
    remediation:
      'In the S3 console: Turn on all four Block Public Access settings for the account (S3 > Block Public Access settings for this ' +
      'account), or for the bucket (S3 > the bucket > Permissions > Block public access > Edit). CLI: aws s3api ' +
      'put-public-access-block --bucket <bucket> --public-access-block-configuration ' +
      'BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true. Serve what must ' +
      'be public through CloudFront with origin access control.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/configuring-block-public-access-bucket.html',
    controls: { 'cis-aws-7.0': ['3.1.4'], 'aws-fsbp': ['S3.8'] },
    evaluate: bucketsWithoutBlock,
  },
  {
    id: 'exposure.s3_bucket_public',
    service: 's3',
    prowler: ['s3_bucket_public_access'],
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Public S3 bucket',
    description:
      "A bucket grants access to everyone through its ACL or bucket policy, and neither the bucket's nor the " +
      "account's Block Public Access blocks that path.",
    remediation:
      'Check what the bucket holds and its access logs. Remove the public grant (AllUsers / AuthenticatedUsers ' +
      'in the ACL, "Principal": "*" statements in the policy) and turn on Block Public Access for the bucket; serve ' +
      'public content through CloudFront with origin access control. In the console: S3 > the bucket > Permissions. ' +
      'With the CLI: aws s3api delete-bucket-policy --bucket <bucket> (or put a policy without the public ' +
      'statements), aws s3api put-bucket-acl --bucket <bucket> --acl private, and aws s3api put-public-access-block ' +
      '--bucket <bucket> --public-access-block-configuration ' +
      'BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html',
    // The account's settings apply to every bucket: without them a bucket's exposure cannot be told.
    evaluate: onParts(['s3Buckets', 's3AccountBlockPublicAccess'], ({ buckets }, { settings }) =>
      failing(
        buckets.flatMap((bucket) => {
          const paths = publicPaths(bucket, settings);
          if (paths.length === 0) return [];
          return [
            {
              resource: bucket.name,
              region: bucket.region,
              detail: `Bucket ${bucket.name} is public through ${paths.join(' and ')}.`,
            },
          ];
        }),
      ),
    ),
  },
  {
    id: 'exposure.sg_ssh_open',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SSH open to the internet',
    description:
      'A security group allows port 22 (TCP or UDP) from 0.0.0.0/0 or ::/0 (port ranges and all-traffic rules ' +
      'that include 22 count); SSH servers are scanned and brute-forced within minutes.',
    remediation: SG_REMEDIATION,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html',
    prowler: ['ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_22'],
    controls: { 'cis-aws-7.0': ['6.3', '6.4'], 'aws-fsbp': ['EC2.13'] },
    evaluate: onPart('securityGroups', ({ groups }) =>
      failing(openGroups(groups, (rule) => admitsPort(rule, ADMIN_PROTOCOLS, 22), cisAdminControls)),
    ),
  },
  {
    id: 'exposure.sg_rdp_open',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'RDP open to the internet',
    description:
      'A security group allows port 3389 (TCP or UDP) from 0.0.0.0/0 or ::/0 (port ranges and all-traffic ' +
      'rules that include 3389 count); exposed RDP is a leading ransomware entry point.',
    remediation: SG_REMEDIATION,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html',
    prowler: ['ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_3389'],
    controls: { 'cis-aws-7.0': ['6.3', '6.4'], 'aws-fsbp': ['EC2.14'] },
    evaluate: onPart('securityGroups', ({ groups }) =>
      failing(openGroups(groups, (rule) => admitsPort(rule, ADMIN_PROTOCOLS, 3389), cisAdminControls)),
    ),
  },
  {
    id: 'exposure.sg_all_ports_open',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'All ports open to the internet',
    description:
      'A security group allows all traffic (protocol -1) or the whole 0-65535 port range from 0.0.0.0/0 or ::/0.',
    remediation:
      'Replace the rule with rules for the specific ports the service needs (for example 443), from the narrowest ' +
      'sources possible; keep administration ports closed and use Session Manager. In the console: EC2 > Security Groups > the group > Edit inbound rules. With the CLI: aws ec2 revoke-security-group-ingress --group-id <group> --ip-permissions <the rule>, then aws ec2 authorize-security-group-ingress for the ports needed.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/security-group-rules.html',
    prowler: ['ec2_securitygroup_allow_ingress_from_internet_to_all_ports'],
    controls: { 'cis-aws-7.0': ['6.3', '6.4'] },
    evaluate: onPart('securityGroups', ({ groups }) => failing(openGroups(groups, admitsAllPorts, cisAdminControls))),
  },
  {
    id: 'exposure.ebs_snapshot_public',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Public EBS snapshot',
    description:
      'An EBS snapshot is shared with all AWS accounts: anyone can create a volume from it and read the disk.',
    remediation:
      "Modify the snapshot's permissions to Private (or share it with specific accounts only), assume its data " +
      'was copied and rotate any secrets it held, and enable block public access for EBS snapshots in every region. In the console: EC2 > Snapshots > the snapshot > Actions > Modify permissions > Private. With the CLI: aws ec2 modify-snapshot-attribute --snapshot-id <snapshot> --attribute createVolumePermission --operation-type remove --group-names all, and aws ec2 enable-snapshot-block-public-access --state block-all-sharing.',
    docsUrl: 'https://docs.aws.amazon.com/ebs/latest/userguide/ebs-modifying-snapshot-permissions.html',
    prowler: ['ec2_ebs_public_snapshot'],
    controls: { 'aws-fsbp': ['EC2.1'] },
    evaluate: onPart('publicSnapshots', ({ snapshots }) =>
      failing(
        snapshots.map((snapshot) => ({
          resource: snapshot.id,
          region: snapshot.region,
          detail: `Snapshot ${snapshot.id} in ${snapshot.region} is public.`,
        })),
      ),
    ),
  },
  {
    id: 'exposure.ami_public',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Public AMI',
    description: 'An AMI owned by the account is public: anyone can launch it and read what was baked into it.',
    remediation:
      'Make the AMI private (EC2 console > AMIs > Edit AMI permissions), rotate credentials or keys it contained, and ' +
      'turn on block public access for AMIs in every region. With the CLI: aws ec2 modify-image-attribute --image-id <ami> --launch-permission "Remove=[{Group=all}]", and aws ec2 enable-image-block-public-access --image-block-public-access-state block-new-sharing.',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/sharingamis-intro.html',
    prowler: ['ec2_ami_public'],
    evaluate: onPart('publicImages', ({ images }) =>
      failing(
        images.map((image) => ({
          resource: image.id,
          region: image.region,
          detail: `AMI ${image.id} in ${image.region} is public.`,
        })),
      ),
    ),
  },
];
