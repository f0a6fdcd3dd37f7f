import {
  GetAccessPointCommand,
  paginateListAccessPoints,
  paginateListMultiRegionAccessPoints,
  S3ControlClient,
} from '@aws-sdk/client-s3-control';
import type { MultiRegionAccessPoint, S3AccessPoint, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { failureOf, isAbsent } from './failures';
import { blockPublicAccess } from './s3';
import { foldPages, globalPart, type ReadContext, regionalPart } from './reader';
import type { Session } from './session';

// S3 access points: another way into a bucket, each with a Block Public Access of its own that AWS fixes when the
// point is created. Regional points are listed region by region (ListAccessPoints), each read with GetAccessPoint
// (the listing has no Block Public Access). Multi-Region Access Points are global; AWS serves their control plane
// from us-west-2 only, and the listing carries each one's Block Public Access.

const PER_POINT_CONCURRENCY = 8;
/** Access points per page: ListMultiRegionAccessPoints' maximum, used for both listings. */
const ACCESS_POINTS_PER_PAGE = 100;
/** The region of an access point's ARN (arn:aws:s3:<region>:<account>:accesspoint/<name>). */
const arnRegion = (arn: string | undefined) => arn?.split(':')[3];
/** The only region that answers ListMultiRegionAccessPoints. */
const MULTI_REGION_CONTROL_REGION = 'us-west-2';

/** S3 Control puts the account id in the host name, which an emulator's address cannot take. */
const s3control = (session: Session, region?: string) => {
  const endpointUrl = session.endpointUrl;
  return session.client(
    (config) =>
      new S3ControlClient(
        endpointUrl ? { ...config, endpointProvider: () => ({ url: new URL(endpointUrl) }) } : config,
      ),
    region,
  );
};

interface AccessPointsSlice {
  accessPoints: S3AccessPoint[];
  unread: Unread[];
}

export const s3AccessPointsPart = regionalPart({
  part: 's3AccessPoints',
  async read({ session }: ReadContext, region: string): Promise<AccessPointsSlice> {
    const client = s3control(session, region);
    const listed = await foldPages(
      paginateListAccessPoints({ client }, { AccountId: session.accountId, MaxResults: ACCESS_POINTS_PER_PAGE }),
      [] as { name: string; bucket: string }[],
      (into, page) => {
        // The region's own points only: an emulator's listing answers every region's in each.
        for (const p of page.AccessPointList ?? [])
          if (p.Name && arnRegion(p.AccessPointArn) === region) into.push({ name: p.Name, bucket: p.Bucket ?? '' });
        return into;
      },
    );
    const unread: Unread[] = [];
    const points = await mapLimit({
      items: listed,
      limit: PER_POINT_CONCURRENCY,
      run: async ({ name, bucket }): Promise<S3AccessPoint | null> => {
        try {
          const point = await client.send(new GetAccessPointCommand({ AccountId: session.accountId, Name: name }));
          return { name, region, bucket, blockPublicAccess: blockPublicAccess(point.PublicAccessBlockConfiguration) };
        } catch (err) {
          // Deleted since the listing: nothing left to judge.
          if (isAbsent(err, 'NoSuchAccessPoint')) return null;
          unread.push({ kind: 'resource', scope: name, reason: failureOf(err).reason });
          return null;
        }
      },
    });
    return { accessPoints: points.filter((p): p is S3AccessPoint => p !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ accessPoints: slices.flatMap((s) => s.accessPoints) }),
});

export const s3MultiRegionAccessPointsPart = globalPart({
  part: 's3MultiRegionAccessPoints',
  async read({ session }: ReadContext) {
    const accessPoints = await foldPages(
      paginateListMultiRegionAccessPoints(
        { client: s3control(session, MULTI_REGION_CONTROL_REGION) },
        { AccountId: session.accountId, MaxResults: ACCESS_POINTS_PER_PAGE },
      ),
      [] as MultiRegionAccessPoint[],
      (into, page) => {
        for (const p of page.AccessPoints ?? []) {
          into.push({
            name: p.Name ?? '',
            buckets: (p.Regions ?? []).flatMap((r) => (r.Bucket ? [r.Bucket] : [])),
            blockPublicAccess: blockPublicAccess(p.PublicAccessBlock),
          });
        }
        return into;
      },
    );
    return { value: { accessPoints } };
  },
});
