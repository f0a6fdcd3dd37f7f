import {
  DescribeSnapshotAttributeCommand,
  EC2Client,
  type Instance as AwsInstance,
  type IpPermission,
  paginateDescribeImages,
  paginateDescribeInstances,
  paginateDescribeSecurityGroups,
  paginateDescribeSnapshots,
  type SecurityGroup as AwsSecurityGroup,
} from '@aws-sdk/client-ec2';
import type {
  DefaultSecurityGroup,
  GroupRule,
  Instance,
  OpenIngress,
  RegionalResource,
  SecurityGroup,
} from '../../../domain/scans/inventory';
import { isWidePublicRange } from '../../../domain/checks/ec2-breadth';
import { mapLimit } from './concurrency';
import { isAbsent } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';
import type { Session } from './session';

// EC2, region by region and API by API: security groups, instances, public snapshots and public AMIs are parts
// of their own, so a region or an API AWS refuses costs only that. Pages are reduced as they arrive: of ten
// thousand security groups only the few open to the internet (and the VPCs' default groups that have rules) are kept.

const PER_SNAPSHOT_CONCURRENCY = 4;

export const ec2In = (session: Session, region: string) => session.client((config) => new EC2Client(config), region);

function openIngress(group: AwsSecurityGroup): OpenIngress[] {
  return (group.IpPermissions ?? []).flatMap((p) => {
    const cidrs = [...(p.IpRanges ?? []).map((r) => r.CidrIp), ...(p.Ipv6Ranges ?? []).map((r) => r.CidrIpv6)].filter(
      (cidr): cidr is string => cidr === '0.0.0.0/0' || cidr === '::/0',
    );
    return cidrs.map((cidr) => ({
      protocol: p.IpProtocol ?? '-1',
      fromPort: p.FromPort ?? null,
      toPort: p.ToPort ?? null,
      cidr,
    }));
  });
}

/** The public IPv4 ranges wider than a /24 (short of 0.0.0.0/0) the group's rules admit or send to. */
function wideRangesOf(group: AwsSecurityGroup): NonNullable<SecurityGroup['wideRanges']> {
  const of = (direction: 'inbound' | 'outbound', permissions: IpPermission[] | undefined) =>
    (permissions ?? []).flatMap((p) =>
      (p.IpRanges ?? []).flatMap((r) =>
        r.CidrIp && isWidePublicRange(r.CidrIp) ? [{ direction, cidr: r.CidrIp }] : [],
      ),
    );
  return [...of('inbound', group.IpPermissions), ...of('outbound', group.IpPermissionsEgress)];
}

/**
 * Every peer of a permission (CIDRs, prefix lists, security groups), each as one rule: for the default groups here
 * and the network topology's groups (network-topology.ts).
 */
export function rulesOf(direction: GroupRule['direction'], p: IpPermission): GroupRule[] {
  const peers = [
    ...(p.IpRanges ?? []).map((r) => r.CidrIp),
    ...(p.Ipv6Ranges ?? []).map((r) => r.CidrIpv6),
    ...(p.PrefixListIds ?? []).map((r) => r.PrefixListId),
    ...(p.UserIdGroupPairs ?? []).map((r) => r.GroupId),
  ].filter((peer): peer is string => peer !== undefined);
  return peers.map((peer) => ({
    direction,
    protocol: p.IpProtocol ?? '-1',
    fromPort: p.FromPort ?? null,
    toPort: p.ToPort ?? null,
    peer,
  }));
}

/** A VPC's default group with what its rules allow; null for other groups, and for a default group without rules. */
function defaultGroup(group: AwsSecurityGroup, region: string): DefaultSecurityGroup | null {
  // AWS reserves the name: only the group each VPC is created with is called "default".
  if (group.GroupName !== 'default' || !group.VpcId) return null;
  const rules = [
    ...(group.IpPermissions ?? []).flatMap((p) => rulesOf('inbound', p)),
    ...(group.IpPermissionsEgress ?? []).flatMap((p) => rulesOf('outbound', p)),
  ];
  return rules.length > 0 ? { id: group.GroupId ?? '', vpcId: group.VpcId, region, rules } : null;
}

/** Concatenates the regions' lists. */
const concat = <T>(slices: T[][]): T[] => slices.flat();

interface GroupsSlice {
  groups: SecurityGroup[];
  defaultGroups: DefaultSecurityGroup[];
}

export const securityGroupsPart = regionalPart({
  part: 'securityGroups',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeSecurityGroups({ client: ec2In(session, region) }, {}),
      { groups: [], defaultGroups: [] } as GroupsSlice,
      (into, page) => {
        for (const g of page.SecurityGroups ?? []) {
          const open = openIngress(g);
          const wideRanges = wideRangesOf(g);
          // Only groups open to the internet or to a wide public range, and default groups with rules: the others
          // are of no interest and would only weigh on the inventory.
          if (open.length > 0 || wideRanges.length > 0)
            into.groups.push({ id: g.GroupId ?? '', name: g.GroupName ?? '', region, openIngress: open, wideRanges });
          const byDefault = defaultGroup(g, region);
          if (byDefault) into.defaultGroups.push(byDefault);
        }
        return into;
      },
    ),
  assemble: (slices) => ({
    groups: concat(slices.map((s) => s.groups)),
    defaultGroups: concat(slices.map((s) => s.defaultGroups)),
  }),
});

/** The instance's public IPv4 address: its primary one, or one associated with another of its interfaces. */
function publicIpOf(i: AwsInstance): string | null {
  return (
    i.PublicIpAddress ??
    (i.NetworkInterfaces ?? []).flatMap((n) => (n.Association?.PublicIp ? [n.Association.PublicIp] : []))[0] ??
    null
  );
}

/** The groups of every network interface of the instance, once each: a secondary interface's admit traffic too. */
function groupIdsOf(i: AwsInstance): string[] {
  const ids = [
    ...(i.SecurityGroups ?? []).map((g) => g.GroupId),
    ...(i.NetworkInterfaces ?? []).flatMap((n) => (n.Groups ?? []).map((g) => g.GroupId)),
  ].filter((id): id is string => id !== undefined);
  return [...new Set(ids)].sort();
}

/** The subnet an instance is reached through: its interface's that holds its public IPv4 address, else its own. */
const reachedThrough = (i: AwsInstance): string | undefined =>
  (i.NetworkInterfaces ?? []).find((n) => n.Association?.PublicIp)?.SubnetId ?? i.SubnetId;

/** Whether the instance or one of its interfaces has an IPv6 address. */
const hasIpv6 = (i: AwsInstance): boolean =>
  Boolean(i.Ipv6Address) || (i.NetworkInterfaces ?? []).some((n) => (n.Ipv6Addresses ?? []).length > 0);

/** An instance as listed for the parts that read instances: the instances' part's fields and where it sits. */
export interface ListedInstance {
  instance: Instance;
  /** The subnet the internet would reach it through (see `reachedThrough`); undefined outside any subnet. */
  subnetId: string | undefined;
  ipv6: boolean;
}

function listedInstance(i: AwsInstance, region: string): ListedInstance {
  const metadata = i.MetadataOptions;
  return {
    instance: {
      id: i.InstanceId ?? '',
      region,
      type: i.InstanceType ?? '',
      state: i.State?.Name ?? '',
      launchedAt: i.LaunchTime?.toISOString() ?? '',
      metadata:
        metadata?.HttpTokens && metadata.HttpEndpoint
          ? { httpTokens: metadata.HttpTokens, httpEndpoint: metadata.HttpEndpoint }
          : null,
      instanceProfileArn: i.IamInstanceProfile?.Arn ?? null,
      publicIp: publicIpOf(i),
      securityGroupIds: groupIdsOf(i),
    },
    subnetId: reachedThrough(i),
    ipv6: hasIpv6(i),
  };
}

/**
 * The region's instances (DescribeInstances, terminated ones too), listed once a collection attempt for the instances'
 * part, the user data's (ec2-user-data.ts), which picks the live ones from them, and the network topology's
 * (network-topology.ts), which places them in their subnets.
 */
export const listedInstancesIn = ({ session, shared }: ReadContext, region: string): Promise<ListedInstance[]> =>
  shared(`ec2:DescribeInstances@${region}`, () =>
    foldPages(
      paginateDescribeInstances({ client: ec2In(session, region) }, {}),
      [] as ListedInstance[],
      (into, page) => {
        for (const i of (page.Reservations ?? []).flatMap((r) => r.Instances ?? []))
          into.push(listedInstance(i, region));
        return into;
      },
    ),
  );

/** The region's instances as the instances' part keeps them. */
export const instancesIn = async (ctx: ReadContext, region: string): Promise<Instance[]> =>
  (await listedInstancesIn(ctx, region)).map((listed) => listed.instance);

export const instancesPart = regionalPart({
  part: 'instances',
  read: instancesIn,
  assemble: (slices) => ({ instances: concat(slices) }),
});

/**
 * The account's snapshots that anyone may restore: RestorableByUserIds narrows them to candidates server-side,
 * and each is confirmed by its createVolumePermission. The owner-id filter repeats OwnerIds for endpoints
 * that ignore the latter (moto answers with the snapshots of its public AMIs).
 */
export const publicSnapshotsPart = regionalPart({
  part: 'publicSnapshots',
  async read({ session }: ReadContext, region: string): Promise<RegionalResource[]> {
    const ec2 = ec2In(session, region);
    const candidates = await foldPages(
      paginateDescribeSnapshots(
        { client: ec2 },
        {
          OwnerIds: ['self'],
          RestorableByUserIds: ['all'],
          Filters: [{ Name: 'owner-id', Values: [session.accountId] }],
        },
      ),
      [] as string[],
      (into, page) => {
        for (const s of page.Snapshots ?? []) if (s.SnapshotId) into.push(s.SnapshotId);
        return into;
      },
    );
    const confirmed = await mapLimit({
      items: candidates,
      limit: PER_SNAPSHOT_CONCURRENCY,
      run: async (id) => {
        try {
          const { CreateVolumePermissions = [] } = await ec2.send(
            new DescribeSnapshotAttributeCommand({
              SnapshotId: id,
              Attribute: 'createVolumePermission',
            }),
          );
          return CreateVolumePermissions.some((p) => p.Group === 'all') ? id : null;
        } catch (err) {
          if (isAbsent(err, 'InvalidSnapshot.NotFound')) return null; // deleted since it was listed
          throw err;
        }
      },
    });
    return confirmed.filter((id): id is string => id !== null).map((id) => ({ id, region }));
  },
  assemble: (slices) => ({ snapshots: concat(slices) }),
});

export const publicImagesPart = regionalPart({
  part: 'publicImages',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeImages(
        { client: ec2In(session, region) },
        {
          Owners: ['self'],
          Filters: [{ Name: 'is-public', Values: ['true'] }],
        },
      ),
      [] as RegionalResource[],
      (into, page) => {
        // The filter narrows server-side; Public is checked again for endpoints that ignore it.
        for (const image of page.Images ?? [])
          if (image.Public === true && image.ImageId) into.push({ id: image.ImageId, region });
        return into;
      },
    ),
  assemble: (slices) => ({ images: concat(slices) }),
});
