import {
  GetSnapshotBlockPublicAccessStateCommand,
  paginateDescribeSnapshots,
  paginateDescribeVolumes,
} from '@aws-sdk/client-ec2';
import type { RegionalResource } from '../../../domain/scans/inventory';
import { ec2In } from './ec2';
import { foldPages, type ReadContext, regionalPart } from './reader';

// EBS volumes and snapshots, region by region, for their encryption; and each region's block public access for
// snapshots. Only what is unencrypted is kept (a large account has many volumes), with the count of the region's
// own snapshots, since blocking public sharing matters where there are snapshots to share.

export const ebsVolumesPart = regionalPart({
  part: 'ebsVolumes',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeVolumes(
        { client: ec2In(session, region) },
        { Filters: [{ Name: 'encrypted', Values: ['false'] }] },
      ),
      [] as RegionalResource[],
      (into, page) => {
        for (const v of page.Volumes ?? [])
          if (v.VolumeId && v.Encrypted !== true) into.push({ id: v.VolumeId, region });
        return into;
      },
    ),
  assemble: (slices) => ({ unencrypted: slices.flat() }),
});

/**
 * The snapshots the account owns. The owner-id filter repeats OwnerIds for endpoints that ignore the latter (moto
 * answers with the snapshots of its public AMIs), as the public snapshots' read does.
 */
export const ebsSnapshotsPart = regionalPart({
  part: 'ebsSnapshots',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeSnapshots(
        { client: ec2In(session, region) },
        { OwnerIds: ['self'], Filters: [{ Name: 'owner-id', Values: [session.accountId] }] },
      ),
      { region, count: 0, unencrypted: [] as RegionalResource[] },
      (into, page) => {
        for (const s of page.Snapshots ?? []) {
          if (!s.SnapshotId) continue;
          into.count += 1;
          if (s.Encrypted !== true) into.unencrypted.push({ id: s.SnapshotId, region });
        }
        return into;
      },
    ),
  assemble: (slices) => ({
    regions: slices.map(({ region, count }) => ({ region, count })),
    unencrypted: slices.flatMap((s) => s.unencrypted),
  }),
});

export const ebsSnapshotBlockPublicAccessPart = regionalPart({
  part: 'ebsSnapshotBlockPublicAccess',
  async read({ session }: ReadContext, region: string) {
    const { State } = await ec2In(session, region).send(new GetSnapshotBlockPublicAccessStateCommand({}));
    // AWS reports unblocked for a region where it was never set.
    return { region, state: State ?? 'unblocked' };
  },
  assemble: (slices) => ({ regions: slices }),
});
