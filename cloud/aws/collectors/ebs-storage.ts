import {
  GetSnapshotBlockPublicAccessStateCommand,
  paginateDescribeSnapshots,
  paginateDescribeVolumes,
} from '@aws-sdk/client-ec2';
import type { RegionalResource } from '../../../domain/scans/inventory';
import { ec2In } from './ec2';
import { foldPages, type ReadContext, regionalPart } from './reader';

// EBS volumes and snapshots, region by region, for their encryption and whether each volume was ever snapshotted;
// and each region's block public access for snapshots. Of the snapshots, the unencrypted ones, the volumes they were
// taken of, and the count of the region's own (blocking public sharing matters where there are snapshots to share).

export const ebsVolumesPart = regionalPart({
  part: 'ebsVolumes',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeVolumes({ client: ec2In(session, region) }, {}),
      { unencrypted: [] as RegionalResource[], volumes: [] as RegionalResource[] },
      (into, page) => {
        for (const v of page.Volumes ?? []) {
          if (!v.VolumeId) continue;
          into.volumes.push({ id: v.VolumeId, region });
          if (v.Encrypted !== true) into.unencrypted.push({ id: v.VolumeId, region });
        }
        return into;
      },
    ),
  assemble: (slices) => ({
    unencrypted: slices.flatMap((s) => s.unencrypted),
    volumes: slices.flatMap((s) => s.volumes),
  }),
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
      { region, count: 0, unencrypted: [] as RegionalResource[], volumeIds: new Set<string>() },
      (into, page) => {
        for (const s of page.Snapshots ?? []) {
          if (!s.SnapshotId) continue;
          into.count += 1;
          if (s.Encrypted !== true) into.unencrypted.push({ id: s.SnapshotId, region });
          if (s.VolumeId) into.volumeIds.add(s.VolumeId);
        }
        return into;
      },
    ).then(({ volumeIds, ...slice }) => ({
      ...slice,
      snapshottedVolumes: [...volumeIds].map((id) => ({ id, region })),
    })),
  assemble: (slices) => ({
    regions: slices.map(({ region, count }) => ({ region, count })),
    unencrypted: slices.flatMap((s) => s.unencrypted),
    snapshottedVolumes: slices.flatMap((s) => s.snapshottedVolumes),
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
