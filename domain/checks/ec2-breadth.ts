import { onPart, onParts } from './helpers';
import { insideAny, ipv4Number, NOT_PUBLIC_IPV4 } from './ipv4';
import { bySetting } from './settings';
import type { Check } from './types';

// EC2 beyond the internet-wide rules: security groups open to a wide public range short of 0.0.0.0/0, and EBS
// volumes nothing was ever snapshotted from.

/** The widest range Prowler leaves alone: a /24 (256 addresses) or narrower is someone's own network. */
const NARROWEST_WIDE_PREFIX = 24;

/**
 * Whether an IPv4 CIDR is a public range wider than a /24 but not the whole internet (0.0.0.0/0 has checks of its
 * own): Prowler's "wide-open non-RFC1918 address".
 */
export function isWidePublicRange(cidr: string): boolean {
  const [address = '', bits = ''] = cidr.split('/');
  const network = ipv4Number(address);
  const prefix = Number(bits);
  if (network === null || !Number.isInteger(prefix) || prefix <= 0 || prefix >= NARROWEST_WIDE_PREFIX) return false;
  return !insideAny(network, prefix, NOT_PUBLIC_IPV4);
}

export const EC2_BREADTH_CHECKS: readonly Check[] = [
  {
    id: 'exposure.security_group_wide_public_range',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Security group open to a wide public address range',
    description:
      'A rule of the security group admits (or sends to) a public IPv4 range wider than a /24, such as a /8 or a /16, ' +
      "that is not the whole internet: thousands to millions of other people's addresses, usually a typo or a " +
      "cloud provider's whole range, reach what the group protects.",
    remediation:
      'In the EC2 console open Security Groups > the group > Inbound rules (and Outbound rules) > Edit, and narrow the ' +
      "range to the addresses that need it (a /32 per host, or the partner's own /24), or reference a security group " +
      'or prefix list instead. With the CLI: aws ec2 revoke-security-group-ingress --group-id ID --ip-permissions ' +
      "'IpProtocol=tcp,FromPort=PORT,ToPort=PORT,IpRanges=[{CidrIp=RANGE}]' (revoke-security-group-egress for an " +
      'outbound rule), then authorize-security-group-ingress with the narrow range.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/security-group-rules.html',
    prowler: ['ec2_securitygroup_allow_wide_open_public_ipv4'],
    evaluate: onPart('securityGroups', ({ groups }) =>
      bySetting(groups, {
        resource: (g) => g.id,
        fails: (g) => (g.wideRanges ?? []).length > 0,
        detail: (g) =>
          `Security group ${g.name} (${g.id}) in ${g.region} has rules for wide public ranges: ${(g.wideRanges ?? [])
            .map((r) => `${r.cidr} (${r.direction})`)
            .join(', ')}.`,
      }),
    ),
  },
  {
    id: 'exposure.ebs_volume_without_snapshot',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EBS volume never snapshotted',
    description:
      'No snapshot the account owns was taken of the EBS volume: a deleted, corrupted or encrypted-for-ransom volume ' +
      'cannot be restored, and its data is lost with it.',
    remediation:
      'Take a snapshot now (EC2 console > Volumes > the volume > Actions > Create snapshot, or aws ec2 create-snapshot ' +
      '--volume-id ID --description "baseline"), and keep taking them on a schedule: an AWS Backup plan or a Data ' +
      'Lifecycle Manager policy (EC2 console > Lifecycle Manager > Create lifecycle policy, or aws dlm ' +
      'create-lifecycle-policy) that targets the volume by tag.',
    docsUrl: 'https://docs.aws.amazon.com/ebs/latest/userguide/ebs-creating-snapshot.html',
    prowler: ['ec2_ebs_volume_snapshots_exists'],
    evaluate: (inventory, ctx) =>
      onParts(['ebsVolumes', 'ebsSnapshots'], ({ volumes }, { snapshottedVolumes }) => {
        const snapshotted = new Set(snapshottedVolumes.map((v) => `${v.region}/${v.id}`));
        // A region whose snapshots could not be listed may hold the volume's: its volumes are unread there.
        const unlisted = new Set(
          (inventory.ebsSnapshots.unread ?? []).filter((u) => u.kind === 'region').map((u) => u.scope),
        );
        return bySetting(volumes, {
          resource: (v) => v.id,
          fails: (v) => (snapshotted.has(`${v.region}/${v.id}`) ? false : unlisted.has(v.region) ? null : true),
          detail: (v) => `EBS volume ${v.id} in ${v.region} has no snapshot.`,
          unreadReason: "EC2 refused the region's snapshots (DescribeSnapshots), which may include the volume's.",
        });
      })(inventory, ctx),
  },
];
