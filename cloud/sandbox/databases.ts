import type {
  Collected,
  DmsEndpoint,
  DmsReplicationInstance,
  ElastiCacheReplicationGroup,
  Inventory,
  KafkaCluster,
  KinesisStream,
  OpenSearchDomain,
  RdsCluster,
  RdsInstance,
  RdsSnapshot,
  RedshiftCluster,
  RegionalResource,
  Unread,
} from '../../domain/scans/inventory';
import { sandboxVolumes } from './ec2-breadth';
import { clusterTls } from './rds-hardening';

// The sandbox account's databases, analytics stores and snapshots: a few of each that an account of its size
// would run, mostly well set up, each setting with its own odds of having been missed (so some accounts fail each
// check and most pass it). Seeded like the rest of the sandbox: the same account and time give the same answer.

const DAY_MS = 86_400_000;

export interface SandboxSeed {
  id: string;
  company: string;
  /** The regions the account uses, its home region first. */
  regions: string[];
  at: Date;
  /** A random stream of its own per purpose (the sandbox's seeded randomness). */
  randomFor: (...keys: (string | number)[]) => () => number;
  hexId: (length: number, ...keys: (string | number)[]) => string;
  /** The multiplier on each issue's odds (cloud/sandbox/upkeep.ts): how neglected the account is. */
  neglect: number;
}

type DatabaseParts = Pick<
  Inventory,
  | 'rdsClusters'
  | 'rdsSnapshots'
  | 'dms'
  | 'redshiftClusters'
  | 'opensearchDomains'
  | 'kafkaClusters'
  | 'elasticacheReplicationGroups'
  | 'kinesisStreams'
  | 'ebsVolumes'
  | 'ebsSnapshots'
  | 'ebsSnapshotBlockPublicAccess'
>;

/** The RDS instances as the sandbox reads them: in a VPC, with a server certificate most renewed long ago. */
export function withNetworkAndCertificates(seed: SandboxSeed, instances: RdsInstance[]): RdsInstance[] {
  return instances.map((db) => {
    const random = seed.randomFor(seed.id, 'rds-certificate', db.id);
    const daysLeft = random() < 0.1 * seed.neglect ? 20 + Math.floor(random() * 50) : 200 + Math.floor(random() * 160);
    return {
      ...db,
      vpcId: random() < 0.03 * seed.neglect ? null : `vpc-${seed.hexId(17, seed.id, db.region, 'vpc')}`,
      certificateValidTill: new Date(seed.at.getTime() + daysLeft * DAY_MS).toISOString(),
    };
  });
}

/**
 * The parts, from the account's RDS instances (their snapshots follow them). `readable` drops what sits in a region
 * Sentinel may not read, `regional` names those regions unread for a part.
 */
export function sandboxDatabases(
  seed: SandboxSeed,
  rdsInstances: RdsInstance[],
  readable: <T extends { region: string }>(items: T[]) => T[],
  regional: (service: string) => Unread[],
): DatabaseParts {
  const { id, company, regions, randomFor, hexId } = seed;
  const random = randomFor(id, 'databases');
  /** What the account has: drawn at the odds given. */
  const chance = (odds: number) => random() < odds;
  /** A misconfiguration: drawn at the odds given for a neglected account. */
  const issue = (odds: number) => random() < odds * seed.neglect;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const home = regions[0] as string;
  const arn = (service: string, region: string, resource: string) => `arn:aws:${service}:${region}:${id}:${resource}`;

  const clusters: RdsCluster[] = [
    ...(chance(0.5) ? [{ name: `${company}-aurora`, engine: 'aurora-postgresql' }] : []),
    ...(chance(0.45) ? [{ name: `${company}-catalog`, engine: 'docdb' }] : []),
    ...(chance(0.4) ? [{ name: `${company}-graph`, engine: 'neptune' }] : []),
  ].map(({ name, engine }) => {
    const region = pick(regions);
    const cluster = {
      id: name,
      arn: arn('rds', region, `cluster:${name}`),
      region,
      engine,
      storageEncrypted: !issue(0.2),
    };
    return { ...cluster, tlsEnforced: clusterTls(seed, cluster) };
  });

  const snapshots: RdsSnapshot[] = [
    ...rdsInstances.flatMap((db): RdsSnapshot[] => {
      const automated = `rds:${db.id}-${seed.at.toISOString().slice(0, 10)}-03-00`;
      const manual = `${db.id}-before-upgrade`;
      const own = (name: string, type: string, isPublic: boolean): RdsSnapshot => ({
        id: name,
        arn: arn('rds', db.region, `snapshot:${name}`),
        region: db.region,
        kind: 'instance',
        engine: db.engine,
        type,
        encrypted: db.storageEncrypted,
        public: isPublic,
      });
      return [own(automated, 'automated', false), ...(chance(0.5) ? [own(manual, 'manual', issue(0.12))] : [])];
    }),
    ...clusters
      .filter(() => chance(0.8))
      .map(
        (c): RdsSnapshot => ({
          id: `${c.id}-release`,
          arn: arn('rds', c.region, `cluster-snapshot:${c.id}-release`),
          region: c.region,
          kind: 'cluster',
          engine: c.engine,
          type: 'manual',
          encrypted: c.storageEncrypted,
          public: issue(0.25),
        }),
      ),
  ];

  const dmsInstances: DmsReplicationInstance[] = chance(0.4)
    ? [
        {
          id: `${company}-migration`,
          arn: arn('dms', home, `rep:${hexId(26, id, 'dms').toUpperCase()}`),
          region: home,
          publiclyAccessible: issue(0.25),
          autoMinorVersionUpgrade: !issue(0.35),
        },
      ]
    : [];
  const dmsEndpoints: DmsEndpoint[] = dmsInstances.flatMap((instance) =>
    ['source', 'target'].map((role) => ({
      id: `${company}-${role}`,
      arn: arn('dms', instance.region, `endpoint:${hexId(26, id, 'dms', role).toUpperCase()}`),
      region: instance.region,
      engine: role === 'source' ? 'mysql' : 'aurora-postgresql',
      sslMode: issue(0.3) ? 'none' : 'verify-full',
    })),
  );

  const redshift: RedshiftCluster[] = chance(0.45)
    ? [
        {
          id: `${company}-warehouse`,
          region: pick(regions),
          publiclyAccessible: issue(0.35),
          encrypted: !issue(0.15),
          automatedSnapshotRetentionDays: issue(0.25) ? 0 : 7,
          requireSsl: !issue(0.35),
          allowVersionUpgrade: !issue(0.2),
        },
      ]
    : [];

  const opensearch: OpenSearchDomain[] = ['search', 'logs']
    .filter(() => chance(0.5))
    .map((name) => {
      const region = pick(regions);
      const inVpc = !issue(0.5);
      return {
        name: `${company}-${name}`,
        arn: arn('es', region, `domain/${company}-${name}`),
        region,
        inVpc,
        publicStatements: !inVpc && chance(0.6) ? ['A statement allows es:*'] : [],
        encryptedAtRest: !issue(0.2),
        nodeToNodeEncryption: !issue(0.2),
        enforceHttps: !issue(0.15),
        fineGrainedAccessControl: !issue(0.3),
        auditLogs: !issue(0.4),
        updateAvailable: issue(0.3),
      };
    });

  const kafka: KafkaCluster[] = chance(0.45)
    ? [
        {
          name: `${company}-events`,
          arn: arn('kafka', home, `cluster/${company}-events/${hexId(8, id, 'msk')}`),
          region: home,
          serverless: false,
          publicAccess: issue(0.25),
          unauthenticatedAccess: issue(0.35),
          tlsAuthentication: !issue(0.4),
          clientBrokerEncryption: issue(0.25) ? 'TLS_PLAINTEXT' : 'TLS',
          inClusterEncryption: true,
        },
      ]
    : [];

  const elasticache: ElastiCacheReplicationGroup[] = chance(0.6)
    ? [
        {
          id: `${company}-sessions`,
          arn: arn('elasticache', home, `replicationgroup:${company}-sessions`),
          region: home,
          engine: pick(['redis', 'valkey']),
          snapshotRetentionDays: issue(0.35) ? 0 : 5,
          atRestEncryption: !issue(0.25),
          transitEncryption: !issue(0.2),
          autoMinorVersionUpgrade: !issue(0.12),
        },
      ]
    : [];

  const kinesis: KinesisStream[] = ['clickstream', 'audit-events']
    .filter(() => chance(0.5))
    .map((name) => {
      const region = pick(regions);
      return { name, arn: arn('kinesis', region, `stream/${name}`), region, encrypted: !issue(0.35) };
    });

  const volumes: RegionalResource[] = issue(0.3)
    ? [{ id: `vol-${hexId(17, id, 'scratch-volume')}`, region: pick(regions) }]
    : [];
  const snapshotCounts = regions.map((region) => ({ region, count: Math.floor(random() * 12) }));
  const unencryptedSnapshots: RegionalResource[] = snapshotCounts
    .filter(({ count }) => count > 0 && issue(0.15))
    .map(({ region }) => ({ id: `snap-${hexId(17, id, region, 'legacy-snapshot')}`, region }));
  // The scratch volume (unencrypted) was never snapshotted either.
  const all = sandboxVolumes(seed, volumes);
  const blocking = !issue(0.45) ? 'block-all-sharing' : pick(['unblocked', 'block-new-sharing']);

  const ok = <T>(value: T, service: string): Collected<T> => {
    const unread = regional(service);
    return unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };
  };
  return {
    rdsClusters: ok({ clusters: readable(clusters) }, 'RDS DescribeDBClusters'),
    rdsSnapshots: ok({ snapshots: readable(snapshots) }, 'RDS DescribeDBSnapshots'),
    dms: ok(
      { instances: readable(dmsInstances), endpoints: readable(dmsEndpoints) },
      'DMS DescribeReplicationInstances',
    ),
    redshiftClusters: ok({ clusters: readable(redshift) }, 'Redshift DescribeClusters'),
    opensearchDomains: ok({ domains: readable(opensearch) }, 'OpenSearch ListDomainNames'),
    kafkaClusters: ok({ clusters: readable(kafka) }, 'Kafka ListClustersV2'),
    elasticacheReplicationGroups: ok({ groups: readable(elasticache) }, 'ElastiCache DescribeReplicationGroups'),
    kinesisStreams: ok({ streams: readable(kinesis) }, 'Kinesis ListStreams'),
    ebsVolumes: ok({ unencrypted: readable(volumes), volumes: readable(all.volumes) }, 'EC2 DescribeVolumes'),
    ebsSnapshots: ok(
      {
        regions: readable(snapshotCounts),
        unencrypted: readable(unencryptedSnapshots),
        snapshottedVolumes: readable(all.snapshottedVolumes),
      },
      'EC2 DescribeSnapshots',
    ),
    ebsSnapshotBlockPublicAccess: ok(
      { regions: readable(regions.map((region) => ({ region, state: blocking }))) },
      'EC2 GetSnapshotBlockPublicAccessState',
    ),
  };
}
