import {
  type DBClusterSnapshot,
  type DBSnapshot,
  DescribeDBClusterSnapshotAttributesCommand,
  DescribeDBSnapshotAttributesCommand,
  paginateDescribeDBClusters,
  paginateDescribeDBClusterSnapshots,
  paginateDescribeDBInstances,
  paginateDescribeDBSnapshots,
  RDSClient,
} from '@aws-sdk/client-rds';
import type { RdsCluster, RdsInstance, RdsSnapshot } from '../../../domain/scans/inventory';
import type { Session } from './session';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// RDS DB instances, region by region: one paginated DescribeDBInstances gives every setting the checks read.
// DocumentDB and Neptune instances come back from the same API; they are other services, with controls of their
// own, and are left out (as AWS Security Hub's RDS controls do). DB clusters and snapshots are kept whatever
// their engine: the DocumentDB and Neptune checks judge theirs, which only this API reports.

const OTHER_SERVICES = new Set(['docdb', 'neptune']);
const PER_SNAPSHOT_CONCURRENCY = 4;

const rdsIn = (session: Session, region: string) => session.client((config) => new RDSClient(config), region);

export const rdsInstancesPart = regionalPart({
  part: 'rdsInstances',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeDBInstances({ client: rdsIn(session, region) }, {}),
      [] as RdsInstance[],
      (into, page) => {
        for (const db of page.DBInstances ?? []) {
          if (!db.DBInstanceIdentifier || OTHER_SERVICES.has(db.Engine ?? '')) continue;
          into.push({
            id: db.DBInstanceIdentifier,
            region,
            engine: db.Engine ?? '',
            storageEncrypted: db.StorageEncrypted ?? false,
            autoMinorVersionUpgrade: db.AutoMinorVersionUpgrade ?? false,
            // Unknown when not reported: never read as private.
            publiclyAccessible: db.PubliclyAccessible ?? null,
            multiAz: db.MultiAZ ?? false,
            vpcId: db.DBSubnetGroup?.VpcId || null,
            certificateValidTill: db.CertificateDetails?.ValidTill?.toISOString() ?? null,
          });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ instances: slices.flat() }),
});

export const rdsClustersPart = regionalPart({
  part: 'rdsClusters',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(paginateDescribeDBClusters({ client: rdsIn(session, region) }, {}), [] as RdsCluster[], (into, page) => {
      for (const c of page.DBClusters ?? []) {
        if (!c.DBClusterIdentifier) continue;
        into.push({
          id: c.DBClusterIdentifier,
          arn: c.DBClusterArn ?? c.DBClusterIdentifier,
          region,
          engine: c.Engine ?? '',
          storageEncrypted: c.StorageEncrypted ?? false,
        });
      }
      return into;
    }),
  assemble: (slices) => ({ clusters: slices.flat() }),
});

type Listed = Omit<RdsSnapshot, 'public'>;

const instanceSnapshot = (region: string, s: DBSnapshot): Listed[] =>
  s.DBSnapshotIdentifier
    ? [
        {
          id: s.DBSnapshotIdentifier,
          arn: s.DBSnapshotArn ?? s.DBSnapshotIdentifier,
          region,
          kind: 'instance',
          engine: s.Engine ?? '',
          type: s.SnapshotType ?? '',
          encrypted: s.Encrypted ?? false,
        },
      ]
    : [];

const clusterSnapshot = (region: string, s: DBClusterSnapshot): Listed[] =>
  s.DBClusterSnapshotIdentifier
    ? [
        {
          id: s.DBClusterSnapshotIdentifier,
          arn: s.DBClusterSnapshotArn ?? s.DBClusterSnapshotIdentifier,
          region,
          kind: 'cluster',
          engine: s.Engine ?? '',
          type: s.SnapshotType ?? '',
          encrypted: s.StorageEncrypted ?? false,
        },
      ]
    : [];

/**
 * DB snapshots and DB cluster snapshots the account owns (automated and manual: the two listings leave shared and
 * public snapshots of other accounts out by default), and whether each is public. Only a manual snapshot can be
 * shared, so only manual ones cost a second call, for the attribute that lists who may restore it. A snapshot
 * whose attributes are refused is kept with `public: null`; one deleted meanwhile is dropped.
 */
export const rdsSnapshotsPart = regionalPart({
  part: 'rdsSnapshots',
  async read({ session }: ReadContext, region: string): Promise<RdsSnapshot[]> {
    const rds = rdsIn(session, region);
    const [instanceSnapshots, clusterSnapshots] = await Promise.all([
      foldPages(paginateDescribeDBSnapshots({ client: rds }, {}), [] as Listed[], (into, page) => {
        for (const s of page.DBSnapshots ?? []) into.push(...instanceSnapshot(region, s));
        return into;
      }),
      foldPages(paginateDescribeDBClusterSnapshots({ client: rds }, {}), [] as Listed[], (into, page) => {
        for (const s of page.DBClusterSnapshots ?? []) into.push(...clusterSnapshot(region, s));
        return into;
      }),
    ]);
    const snapshots = await mapLimit({
      items: [...instanceSnapshots, ...clusterSnapshots],
      limit: PER_SNAPSHOT_CONCURRENCY,
      run: async (snapshot): Promise<RdsSnapshot | null> => {
        if (snapshot.type !== 'manual') return { ...snapshot, public: false };
        try {
          const restorers =
            snapshot.kind === 'instance'
              ? (await rds.send(new DescribeDBSnapshotAttributesCommand({ DBSnapshotIdentifier: snapshot.id })))
                  .DBSnapshotAttributesResult?.DBSnapshotAttributes
              : (
                  await rds.send(
                    new DescribeDBClusterSnapshotAttributesCommand({ DBClusterSnapshotIdentifier: snapshot.id }),
                  )
                ).DBClusterSnapshotAttributesResult?.DBClusterSnapshotAttributes;
          const restore = (restorers ?? []).find((a) => a.AttributeName === 'restore');
          return { ...snapshot, public: (restore?.AttributeValues ?? []).includes('all') };
        } catch (err) {
          if (isAbsent(err, 'DBSnapshotNotFoundFault') || isAbsent(err, 'DBClusterSnapshotNotFoundFault')) return null;
          if (err instanceof ReadFailure && err.kind === 'denied') return { ...snapshot, public: null };
          throw err;
        }
      },
    });
    return snapshots.filter((s): s is RdsSnapshot => s !== null);
  },
  assemble: (slices) => ({ snapshots: slices.flat() }),
});
