import {
  type DBCluster,
  type DBClusterSnapshot,
  type DBInstance,
  type DBSnapshot,
  DescribeDBClusterSnapshotAttributesCommand,
  DescribeDBEngineVersionsCommand,
  DescribeDBSnapshotAttributesCommand,
  paginateDescribeDBClusterParameters,
  paginateDescribeDBClusters,
  paginateDescribeDBClusterSnapshots,
  paginateDescribeDBInstances,
  paginateDescribeDBParameters,
  paginateDescribeDBSnapshots,
  type Parameter,
  RDSClient,
} from '@aws-sdk/client-rds';
import { isRdsEngine } from '../../../domain/checks/rds';
import { CLUSTER_TLS_PARAMETERS, forcesTls, tlsParameterOf } from '../../../domain/checks/rds-hardening';
import type { RdsCluster, RdsInstance, RdsSnapshot } from '../../../domain/scans/inventory';
import type { Session } from './session';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// RDS DB instances, region by region: one paginated DescribeDBInstances gives most settings the checks read, and
// where each instance sits for the network topology (listed once a collection attempt for both). DocumentDB and
// Neptune instances come back from the same API; they are other services, with controls of their own, and are left
// out (as AWS Security Hub's RDS controls do). DB clusters and snapshots are kept whatever their engine: the
// DocumentDB and Neptune checks judge theirs, which only this API reports.
//
// Whether a database forces TLS is in its parameter group: each group in use is read once, its pages only until the
// TLS parameter turns up. Whether RDS still offers an engine version is one DescribeDBEngineVersions per engine and
// version in use, filtered to it (the unfiltered list runs to thousands of versions).

const OTHER_SERVICES = new Set(['docdb', 'neptune']);
const PER_SNAPSHOT_CONCURRENCY = 4;
const PER_GROUP_CONCURRENCY = 4;

const rdsIn = (session: Session, region: string) => session.client((config) => new RDSClient(config), region);

/** null when the read was refused, or the group is gone: the database is then unread, never passing. */
async function unlessDenied<T>(read: () => Promise<T>, absentCode: string): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    // AWS's code, or the exception's name (with its Fault suffix) where the answer named that instead.
    const absent = isAbsent(err, absentCode) || isAbsent(err, `${absentCode}Fault`);
    if ((err instanceof ReadFailure && err.kind === 'denied') || absent) return null;
    throw err;
  }
}

/** The values a parameter group gives the named parameters, reading its pages until all are found. */
async function parameterValues(
  pages: AsyncIterable<{ Parameters?: Parameter[] }>,
  names: readonly string[],
): Promise<Map<string, string | undefined>> {
  const found = new Map<string, string | undefined>();
  for await (const page of pages) {
    for (const p of page.Parameters ?? [])
      if (p.ParameterName && names.includes(p.ParameterName)) found.set(p.ParameterName, p.ParameterValue);
    if (found.size === names.length) break;
  }
  return found;
}

/** Reads each distinct key once, a few at a time, and answers by key. */
async function byKey<T>(keys: Iterable<string>, read: (key: string) => Promise<T>): Promise<Map<string, T>> {
  const distinct = [...new Set(keys)];
  const values = await mapLimit({ items: distinct, limit: PER_GROUP_CONCURRENCY, run: read });
  return new Map(distinct.map((key, i) => [key, values[i] as T]));
}

const versionKey = (engine: string, version: string) => `${engine}\u0000${version}`;

/** A DB instance as listed for the parts that read DB instances: this part's fields and where it sits. */
export interface ListedDbInstance {
  instance: Omit<RdsInstance, 'tlsEnforced' | 'engineVersionOffered'>;
  /** Its (first) DB parameter group, which sets its TLS parameter. */
  parameterGroup: string | undefined;
  /** Its subnet group's subnets. */
  subnetIds: string[];
  /** Its VPC security groups. */
  securityGroupIds: string[];
  /** The port its endpoint listens on; null: not reported. */
  port: number | null;
}

const defined = <T>(values: (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);

function listedDbInstance(id: string, db: DBInstance, region: string): ListedDbInstance {
  return {
    instance: {
      id,
      region,
      engine: db.Engine ?? '',
      storageEncrypted: db.StorageEncrypted ?? false,
      autoMinorVersionUpgrade: db.AutoMinorVersionUpgrade ?? false,
      // Unknown when not reported: never read as private.
      publiclyAccessible: db.PubliclyAccessible ?? null,
      multiAz: db.MultiAZ ?? false,
      vpcId: db.DBSubnetGroup?.VpcId || null,
      certificateValidTill: db.CertificateDetails?.ValidTill?.toISOString() ?? null,
      arn: db.DBInstanceArn ?? id,
      engineVersion: db.EngineVersion ?? '',
      clusterId: db.DBClusterIdentifier || null,
    },
    parameterGroup: db.DBParameterGroups?.[0]?.DBParameterGroupName,
    subnetIds: defined((db.DBSubnetGroup?.Subnets ?? []).map((s) => s.SubnetIdentifier)),
    securityGroupIds: defined((db.VpcSecurityGroups ?? []).map((g) => g.VpcSecurityGroupId)),
    port: db.Endpoint?.Port ?? null,
  };
}

/**
 * The region's RDS DB instances (DescribeDBInstances), DocumentDB and Neptune ones left out, listed once a collection
 * attempt for this part and the network topology's (network-placements.ts).
 */
export const dbInstancesIn = ({ session, shared }: ReadContext, region: string): Promise<ListedDbInstance[]> =>
  shared(`rds:DescribeDBInstances@${region}`, () =>
    foldPages(
      paginateDescribeDBInstances({ client: rdsIn(session, region) }, {}),
      [] as ListedDbInstance[],
      (into, page) => {
        for (const db of page.DBInstances ?? []) {
          if (!db.DBInstanceIdentifier || OTHER_SERVICES.has(db.Engine ?? '')) continue;
          into.push(listedDbInstance(db.DBInstanceIdentifier, db, region));
        }
        return into;
      },
    ),
  );

export const rdsInstancesPart = regionalPart({
  part: 'rdsInstances',
  async read(ctx: ReadContext, region: string): Promise<RdsInstance[]> {
    const rds = rdsIn(ctx.session, region);
    const listed = await dbInstancesIn(ctx, region);
    // The TLS parameter of each standalone instance whose engine has one, and the group that sets it (a group not
    // reported leaves the instance unread). The others are decided by their cluster or by nothing: not judged.
    const tlsOf = ({ instance, parameterGroup: group }: ListedDbInstance) => {
      const parameter = tlsParameterOf(instance.engine);
      if (instance.clusterId !== null || !parameter) return null;
      return { key: group ? `${group}\u0000${parameter}` : null };
    };
    const judged = listed.flatMap((l) => tlsOf(l)?.key ?? []);
    const [tls, offered] = await Promise.all([
      byKey(judged, (key) => {
        const [group, parameter] = key.split('\u0000') as [string, string];
        return unlessDenied(
          async () =>
            forcesTls(
              (
                await parameterValues(paginateDescribeDBParameters({ client: rds }, { DBParameterGroupName: group }), [
                  parameter,
                ])
              ).get(parameter),
            ),
          'DBParameterGroupNotFound',
        );
      }),
      byKey(
        listed.map(({ instance }) => versionKey(instance.engine, instance.engineVersion)),
        (key) => {
          const [engine, version] = key.split('\u0000') as [string, string];
          return unlessDenied(async () => {
            const { DBEngineVersions = [] } = await rds.send(
              new DescribeDBEngineVersionsCommand({ Engine: engine, EngineVersion: version }),
            );
            return DBEngineVersions.some((v) => v.Engine === engine && v.EngineVersion === version);
          }, 'InvalidParameterValue');
        },
      ),
    ]);
    return listed.map((l) => {
      const judgedBy = tlsOf(l);
      return {
        ...l.instance,
        tlsEnforced: judgedBy ? (judgedBy.key ? (tls.get(judgedBy.key) ?? null) : null) : false,
        engineVersionOffered: offered.get(versionKey(l.instance.engine, l.instance.engineVersion)) ?? null,
      };
    });
  },
  assemble: (slices) => ({ instances: slices.flat() }),
});

export const rdsClustersPart = regionalPart({
  part: 'rdsClusters',
  async read({ session }: ReadContext, region: string): Promise<RdsCluster[]> {
    const rds = rdsIn(session, region);
    const listed = await foldPages(paginateDescribeDBClusters({ client: rds }, {}), [] as DBCluster[], (into, page) => {
      for (const c of page.DBClusters ?? []) if (c.DBClusterIdentifier) into.push(c);
      return into;
    });
    const groupOf = (c: DBCluster) => (isRdsEngine(c.Engine ?? '') ? c.DBClusterParameterGroup : undefined);
    const tls = await byKey(
      listed.flatMap((c) => groupOf(c) ?? []),
      (group) =>
        unlessDenied(async () => {
          const values = await parameterValues(
            paginateDescribeDBClusterParameters({ client: rds }, { DBClusterParameterGroupName: group }),
            CLUSTER_TLS_PARAMETERS,
          );
          return CLUSTER_TLS_PARAMETERS.some((name) => forcesTls(values.get(name)));
        }, 'DBParameterGroupNotFound'),
    );
    return listed.map((c) => {
      const group = groupOf(c);
      return {
        id: c.DBClusterIdentifier as string,
        arn: c.DBClusterArn ?? (c.DBClusterIdentifier as string),
        region,
        engine: c.Engine ?? '',
        storageEncrypted: c.StorageEncrypted ?? false,
        tlsEnforced: group ? (tls.get(group) ?? null) : isRdsEngine(c.Engine ?? '') ? null : false,
      };
    });
  },
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
