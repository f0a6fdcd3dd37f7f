import {
  DescribeSnapshotAttributeCommand, EC2Client, paginateDescribeImages, paginateDescribeInstances,
  paginateDescribeSecurityGroups, paginateDescribeSnapshots, type SecurityGroup as AwsSecurityGroup,
} from '@aws-sdk/client-ec2';
import type { Collected, Ec2Inventory, Instance, OpenIngress, SecurityGroup } from '../../../domain/inventory';
import { hasCode } from '../errors';
import { mapLimit, REGION_CONCURRENCY, settleAll } from './concurrency';
import { allPages } from './pages';
import { readPart } from './refusals';
import type { Session } from './session';

const PER_SNAPSHOT_CONCURRENCY = 4;

function openIngress(group: AwsSecurityGroup): OpenIngress[] {
  return (group.IpPermissions ?? []).flatMap((p) => {
    const cidrs = [
      ...(p.IpRanges ?? []).map((r) => r.CidrIp),
      ...(p.Ipv6Ranges ?? []).map((r) => r.CidrIpv6),
    ].filter((cidr): cidr is string => cidr === '0.0.0.0/0' || cidr === '::/0');
    return cidrs.map((cidr) => ({ protocol: p.IpProtocol ?? '-1', fromPort: p.FromPort ?? null, toPort: p.ToPort ?? null, cidr }));
  });
}

/**
 * The account's snapshots that anyone may restore: RestorableByUserIds narrows them to candidates server-side,
 * and each is confirmed by its createVolumePermission. The owner-id filter repeats OwnerIds for endpoints
 * that ignore the latter (moto answers with the snapshots of its public AMIs).
 */
async function publicSnapshotIds(ec2: EC2Client, accountId: string): Promise<string[]> {
  const pages = await allPages(paginateDescribeSnapshots({ client: ec2 }, {
    OwnerIds: ['self'], RestorableByUserIds: ['all'], Filters: [{ Name: 'owner-id', Values: [accountId] }],
  }));
  const candidates = pages.flatMap((page) => page.Snapshots ?? []).flatMap((s) => (s.SnapshotId ? [s.SnapshotId] : []));
  const confirmed = await mapLimit({
    items: candidates,
    limit: PER_SNAPSHOT_CONCURRENCY,
    run: async (id) => {
      try {
        const { CreateVolumePermissions = [] } = await ec2.send(new DescribeSnapshotAttributeCommand({
          SnapshotId: id, Attribute: 'createVolumePermission',
        }));
        return CreateVolumePermissions.some((p) => p.Group === 'all') ? id : null;
      } catch (err) {
        if (hasCode(err, 'InvalidSnapshot.NotFound')) return null; // deleted since it was listed
        throw err;
      }
    },
  });
  return confirmed.filter((id): id is string => id !== null);
}

interface RegionReading {
  region: string;
  inventory: Ec2Inventory;
  /** Has an instance that is not terminated, or a security group of its own (not a VPC's "default"). */
  inUse: boolean;
}

async function readRegion(session: Session, region: string): Promise<RegionReading> {
  const ec2 = session.client((config) => new EC2Client(config), region);
  const [groupPages, instancePages, snapshots, imagePages] = await settleAll([
    allPages(paginateDescribeSecurityGroups({ client: ec2 }, {})),
    allPages(paginateDescribeInstances({ client: ec2 }, {})),
    publicSnapshotIds(ec2, session.accountId),
    allPages(paginateDescribeImages({ client: ec2 }, { Owners: ['self'] })),
  ]);
  const groups = groupPages.flatMap((page) => page.SecurityGroups ?? []);
  const instances = instancePages.flatMap((page) => page.Reservations ?? []).flatMap((r) => r.Instances ?? [])
    .map((i): Instance => ({
      id: i.InstanceId ?? '',
      region,
      type: i.InstanceType ?? '',
      state: i.State?.Name ?? '',
      launchedAt: i.LaunchTime?.toISOString() ?? '',
    }));
  return {
    region,
    inventory: {
      // Only groups open to the internet: the others are of no interest and would only weigh on the inventory.
      securityGroups: groups
        .map((g): SecurityGroup => ({ id: g.GroupId ?? '', name: g.GroupName ?? '', region, openIngress: openIngress(g) }))
        .filter((g) => g.openIngress.length > 0),
      instances,
      publicSnapshots: snapshots.map((id) => ({ id, region })),
      publicImages: imagePages.flatMap((page) => page.Images ?? [])
        .filter((image) => image.Public === true && image.ImageId)
        .map((image) => ({ id: image.ImageId ?? '', region })),
    },
    inUse: instances.some((i) => i.state !== 'terminated') || groups.some((g) => g.GroupName !== 'default'),
  };
}

export async function collectEc2({ session, regions }: { session: Session; regions: string[] }): Promise<{
  ec2: Collected<Ec2Inventory>;
  regionsInUse: string[];
}> {
  let regionsInUse: string[] = [];
  const ec2 = await readPart(async () => {
    const readings = await mapLimit({ items: regions, limit: REGION_CONCURRENCY, run: (region) => readRegion(session, region) });
    regionsInUse = readings.filter((r) => r.inUse).map((r) => r.region);
    return {
      securityGroups: readings.flatMap((r) => r.inventory.securityGroups),
      instances: readings.flatMap((r) => r.inventory.instances),
      publicSnapshots: readings.flatMap((r) => r.inventory.publicSnapshots),
      publicImages: readings.flatMap((r) => r.inventory.publicImages),
    };
  });
  return { ec2, regionsInUse };
}
