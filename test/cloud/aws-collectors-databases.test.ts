import {
  CreateDBClusterCommand,
  CreateDBClusterSnapshotCommand,
  CreateDBInstanceCommand,
  CreateDBSnapshotCommand,
  ModifyDBClusterSnapshotAttributeCommand,
  ModifyDBSnapshotAttributeCommand,
  RDSClient,
} from '@aws-sdk/client-rds';
import {
  CreateEndpointCommand,
  CreateReplicationInstanceCommand,
  DatabaseMigrationServiceClient,
} from '@aws-sdk/client-database-migration-service';
import { CreateSnapshotCommand, CreateVolumeCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateReplicationGroupCommand, ElastiCacheClient } from '@aws-sdk/client-elasticache';
import { CreateClusterCommand as CreateKafkaClusterCommand, KafkaClient } from '@aws-sdk/client-kafka';
import { CreateStreamCommand, KinesisClient, StartStreamEncryptionCommand } from '@aws-sdk/client-kinesis';
import { CreateDomainCommand, OpenSearchClient } from '@aws-sdk/client-opensearch';
import {
  CreateClusterCommand as CreateRedshiftClusterCommand,
  CreateClusterParameterGroupCommand,
  RedshiftClient,
} from '@aws-sdk/client-redshift';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory, PartName } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoDifferences,
  motoGaps,
  queryError,
  REGION,
} from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// The databases, analytics stores and snapshots against moto: each test seeds a customer account through the SDK,
// connects it with the real CLI script, and collects only these parts through the front (test/helpers/aws.ts). The
// front stands in for what moto lacks, as AWS documents it, and says so where it does: moto answers every item of a
// list at once where AWS pages it (the front pages moto's answer, with AWS's Marker or NextToken), and leaves out a
// few fields AWS reports.

const PARTS: PartName[] = [
  'rdsInstances',
  'rdsClusters',
  'rdsSnapshots',
  'dms',
  'redshiftClusters',
  'opensearchDomains',
  'kafkaClusters',
  'elasticacheReplicationGroups',
  'kinesisStreams',
  'ebsVolumes',
  'ebsSnapshots',
  'ebsSnapshotBlockPublicAccess',
];

/** Each check's outcome: 'pass', 'not_evaluated', or its failing resources as `resource@region`, sorted. */
function outcomes(inventory: Inventory, ids: string[]): Record<string, string | string[]> {
  return Object.fromEntries(
    ids.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region}`).sort() : result.status,
      ];
    }),
  );
}

/** The unread resources a check names, by scope. */
const unreadOf = (inventory: Inventory, id: string) =>
  (checkById(id)!.evaluate(inventory, { now: inventory.collectedAt }).unread ?? []).map((u) => u.scope).sort();

/**
 * The top-level `<tag>` elements inside the first `<container>` of an XML answer, with where they start and end
 * (elements of the same name nested inside them are kept inside).
 */
function topLevel(xml: string, container: string, tag: string): { items: string[]; start: number; end: number } {
  const open = xml.indexOf(`<${container}>`);
  const close = xml.indexOf(`</${container}>`, open);
  if (open < 0 || close < 0) return { items: [], start: 0, end: 0 };
  const start = open + container.length + 2;
  const items: string[] = [];
  const token = new RegExp(`<(/?)${tag}>`, 'g');
  token.lastIndex = start;
  let depth = 0;
  let from = start;
  for (let m = token.exec(xml); m && m.index < close; m = token.exec(xml)) {
    if (m[1] === '') {
      if (depth === 0) from = m.index;
      depth += 1;
    } else {
      depth -= 1;
      if (depth === 0) items.push(xml.slice(from, m.index + m[0].length));
    }
  }
  return { items, start, end: close };
}

/**
 * moto's whole list as AWS pages it, `size` items a page, for a query-protocol answer: the page the request's token
 * (`tokenIn`, a form parameter) asks for, and the token of the next one (`tokenOut`, before `</resultTag>`).
 */
function xmlPage(
  request: AwsRequest,
  answer: CannedAnswer,
  {
    container,
    tag,
    size,
    tokenIn,
    tokenOut,
    resultTag,
  }: {
    container: string;
    tag: string;
    size: number;
    tokenIn: string;
    tokenOut: string;
    resultTag: string;
  },
): CannedAnswer {
  const from = Number(new URLSearchParams(request.body).get(tokenIn) ?? '0');
  const body = answer.body.replace(new RegExp(`<${tokenOut}>[^<]*</${tokenOut}>|<${tokenOut}/>`, 'g'), '');
  const { items, start, end } = topLevel(body, container, tag);
  const page = body.slice(0, start) + items.slice(from, from + size).join('') + body.slice(end);
  const next = from + size < items.length ? `<${tokenOut}>${from + size}</${tokenOut}>` : '';
  return { ...answer, body: page.replace(`</${resultTag}>`, `${next}</${resultTag}>`) };
}

/** The same for a JSON answer: the page of `list` the request's `tokenIn` asks for, and the next page's token. */
function jsonPage(
  from: number,
  answer: CannedAnswer,
  { lists, size, tokenOut }: { lists: string[]; size: number; tokenOut: string },
): CannedAnswer {
  const parsed = JSON.parse(answer.body) as Record<string, unknown>;
  const total = Math.max(...lists.map((l) => ((parsed[l] as unknown[] | undefined) ?? []).length));
  for (const l of lists) parsed[l] = ((parsed[l] as unknown[] | undefined) ?? []).slice(from, from + size);
  delete parsed[tokenOut];
  if (from + size < total) parsed[tokenOut] = String(from + size);
  return { ...answer, body: JSON.stringify(parsed) };
}

const PAGE = 2;

const CHECKS = [
  'exposure.rds_snapshot_public',
  'exposure.rds_snapshot_unencrypted',
  'exposure.rds_cluster_unencrypted',
  'exposure.rds_instance_outside_vpc',
  'exposure.rds_certificate_expiring',
  'exposure.documentdb_snapshot_public',
  'exposure.documentdb_cluster_unencrypted',
  'exposure.neptune_snapshot_public',
  'exposure.neptune_cluster_unencrypted',
  'exposure.neptune_snapshot_unencrypted',
  'exposure.dms_instance_public',
  'exposure.dms_endpoint_without_ssl',
  'exposure.dms_minor_upgrades_off',
  'exposure.redshift_public',
  'exposure.redshift_unencrypted',
  'exposure.redshift_automated_snapshots_off',
  'exposure.redshift_ssl_not_required',
  'exposure.redshift_version_upgrades_off',
  'exposure.opensearch_public',
  'exposure.opensearch_unencrypted',
  'exposure.opensearch_fine_grained_access_off',
  'detection.opensearch_audit_logs_off',
  'exposure.opensearch_https_not_enforced',
  'exposure.opensearch_node_to_node_unencrypted',
  'exposure.opensearch_update_available',
  'exposure.kafka_public',
  'exposure.kafka_unauthenticated_access',
  'exposure.kafka_plaintext_in_transit',
  'exposure.kafka_tls_authentication_off',
  'exposure.elasticache_backups_off',
  'exposure.elasticache_minor_upgrades_off',
  'exposure.elasticache_unencrypted_at_rest',
  'exposure.elasticache_unencrypted_in_transit',
  'exposure.kinesis_stream_unencrypted',
  'exposure.ebs_volume_unencrypted',
  'exposure.ebs_snapshot_unencrypted',
  'exposure.ebs_snapshot_public_sharing_unblocked',
];

/** The day the front says each instance's certificate expires: moto reports no CertificateDetails. */
const VALID_TILL: Record<string, string> = {
  'orders-db': '2031-01-01T00:00:00.000Z',
  'legacy-db': '2020-01-01T00:00:00.000Z',
};

/**
 * What AWS reports and moto leaves out, added to moto's answers: an RDS instance's CertificateDetails and, for an
 * instance created without a subnet group, the VPC of the default subnet group AWS puts it in (moto's has none);
 * DocumentDB's engine for the cluster named catalog-docs (moto refuses engine docdb, so it is created as
 * aurora-mysql); require_ssl true in the parameter group tls-only (moto answers its defaults for every group).
 */
function awsFields(request: AwsRequest, answer: CannedAnswer): CannedAnswer {
  let body = answer.body;
  if (request.service === 'rds' && request.operation === 'DescribeDBInstances') {
    const { items } = topLevel(body, 'DBInstances', 'DBInstance');
    for (const item of items) {
      const id = /<DBInstanceIdentifier>([^<]+)</.exec(item)?.[1] ?? '';
      const details = VALID_TILL[id]
        ? `<CertificateDetails><CAIdentifier>rds-ca-rsa2048-g1</CAIdentifier><ValidTill>${VALID_TILL[id]}</ValidTill></CertificateDetails>`
        : '';
      const vpc =
        id === 'legacy-db'
          ? ''
          : '<DBSubnetGroup><DBSubnetGroupName>default</DBSubnetGroupName><VpcId>vpc-0default</VpcId></DBSubnetGroup>';
      body = body.replace(
        item,
        item
          .replace(/<DBSubnetGroup>[\s\S]*?<\/DBSubnetGroup>|<DBSubnetGroup\/>/, '')
          .replace('</DBInstance>', `${details}${vpc}</DBInstance>`),
      );
    }
  }
  if (request.service === 'rds' && /^DescribeDBCluster/.test(request.operation ?? ''))
    body = body.replace(/(catalog-[^<]*<\/DBCluster(?:Snapshot)?Identifier>[\s\S]*?)aurora-mysql/g, '$1docdb');
  // moto writes DMS's timestamps as ISO strings, where AWS's JSON protocol sends epoch seconds.
  if (request.service === 'dms')
    body = body.replace(
      /"(\w*(?:Time|Date))":\s*"([^"]+)"/g,
      (_, key: string, at: string) => `"${key}": ${Date.parse(at) / 1000}`,
    );
  // moto writes MSK's creation time in a form that is not RFC 3339, as AWS's REST JSON protocol sends it.
  if (request.service === 'kafka')
    body = body.replace(/"creationTime":\s*"?([^",}]+)"?/g, (_, at: string) => {
      const date = /^[\d.]+$/.test(at) ? new Date(Number(at) * 1000) : new Date(at.endsWith('Z') ? at : `${at}Z`);
      return `"creationTime": "${date.toISOString()}"`;
    });
  // moto takes a retention period of 0 as unset (1 day); AWS keeps 0, which turns automated snapshots off.
  if (request.service === 'redshift' && request.operation === 'DescribeClusters')
    body = body.replace(/(open-warehouse<\/ClusterIdentifier>[\s\S]*?<AutomatedSnapshotRetentionPeriod>)1</, '$10<');
  if (
    request.service === 'redshift' &&
    request.operation === 'DescribeClusterParameters' &&
    /tls-only/.test(request.body)
  )
    body = body.replace(/(<ParameterName>require_ssl<\/ParameterName>[\s\S]*?<ParameterValue>)false/, '$1true');
  return body === answer.body ? answer : { ...answer, body };
}

describe('AWS database and analytics store collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;
  const collect = (target: Parameters<typeof suite.provider.collectInventory>[0]) =>
    suite.provider.collectInventory(target, { parts: PARTS });
  const calls = (service: string, operation: string) =>
    suite.front.requests.filter((r) => r.service === service && r.operation === operation);

  /** moto's lists paged as AWS pages them, PAGE items a page, and the fields AWS reports that moto leaves out. */
  function pagedLikeAws(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
    if (answer.status !== 200) return undefined;
    const aws = awsFields(request, answer);
    const query = (container: string, tag: string, resultTag: string) =>
      xmlPage(request, aws, { container, tag, size: PAGE, tokenIn: 'Marker', tokenOut: 'Marker', resultTag });
    const body = () => JSON.parse(request.body || '{}') as Record<string, string | undefined>;
    switch (`${request.service}:${request.operation}`) {
      case 'rds:DescribeDBSnapshots':
        return query('DBSnapshots', 'DBSnapshot', 'DescribeDBSnapshotsResult');
      case 'rds:DescribeDBClusters':
        return query('DBClusters', 'DBCluster', 'DescribeDBClustersResult');
      case 'redshift:DescribeClusters':
        return query('Clusters', 'Cluster', 'DescribeClustersResult');
      case 'ec2:DescribeSnapshots':
        return xmlPage(request, aws, {
          container: 'snapshotSet',
          tag: 'item',
          size: PAGE,
          tokenIn: 'NextToken',
          tokenOut: 'nextToken',
          resultTag: 'DescribeSnapshotsResponse',
        });
      case 'dms:DescribeReplicationInstances':
        return jsonPage(Number(body().Marker ?? 0), aws, {
          lists: ['ReplicationInstances'],
          size: PAGE,
          tokenOut: 'Marker',
        });
      case 'kinesis:ListStreams':
        return jsonPage(Number(body().NextToken ?? 0), aws, {
          lists: ['StreamSummaries', 'StreamNames'],
          size: PAGE,
          tokenOut: 'NextToken',
        });
    }
    // MSK is a REST API: its operations have only a path.
    if (request.service === 'kafka' && request.path === '/api/v2/clusters')
      return jsonPage(Number(new URLSearchParams(request.query).get('nextToken') ?? 0), aws, {
        lists: ['clusterInfoList'],
        size: PAGE,
        tokenOut: 'nextToken',
      });
    return aws === answer ? motoDifferences(request, answer) : aws;
  }

  const rds = (customer: CustomerAccount, region = REGION) => client(new RDSClient(customerConfig(customer, region)));
  const instance = (customer: CustomerAccount, id: string, encrypted: boolean, region = REGION) =>
    rds(customer, region).send(
      new CreateDBInstanceCommand({
        DBInstanceIdentifier: id,
        DBInstanceClass: 'db.t3.micro',
        Engine: 'postgres',
        AllocatedStorage: 20,
        MasterUsername: 'app',
        MasterUserPassword: 'Correct-Horse-9',
        StorageEncrypted: encrypted,
        PubliclyAccessible: false,
      }),
    );
  const cluster = (customer: CustomerAccount, id: string, engine: string, encrypted: boolean) =>
    rds(customer).send(
      new CreateDBClusterCommand({
        DBClusterIdentifier: id,
        Engine: engine,
        MasterUsername: 'app',
        MasterUserPassword: 'Correct-Horse-9',
        StorageEncrypted: encrypted,
      }),
    );
  const snapshot = async (customer: CustomerAccount, db: string, id: string, shared: boolean) => {
    await rds(customer).send(new CreateDBSnapshotCommand({ DBInstanceIdentifier: db, DBSnapshotIdentifier: id }));
    if (shared)
      await rds(customer).send(
        new ModifyDBSnapshotAttributeCommand({
          DBSnapshotIdentifier: id,
          AttributeName: 'restore',
          ValuesToAdd: ['all'],
        }),
      );
  };
  const clusterSnapshot = async (customer: CustomerAccount, of: string, id: string, shared: boolean) => {
    await rds(customer).send(
      new CreateDBClusterSnapshotCommand({ DBClusterIdentifier: of, DBClusterSnapshotIdentifier: id }),
    );
    if (shared)
      await rds(customer).send(
        new ModifyDBClusterSnapshotAttributeCommand({
          DBClusterSnapshotIdentifier: id,
          AttributeName: 'restore',
          ValuesToAdd: ['all'],
        }),
      );
  };

  const dms = (customer: CustomerAccount) => client(new DatabaseMigrationServiceClient(customerConfig(customer)));
  // moto creates the instance but answers with an ISO timestamp the SDK cannot read (see awsFields): the answer is
  // not needed.
  const replicationInstance = (customer: CustomerAccount, id: string, open: boolean) =>
    dms(customer)
      .send(
        new CreateReplicationInstanceCommand({
          ReplicationInstanceIdentifier: id,
          ReplicationInstanceClass: 'dms.t3.micro',
          PubliclyAccessible: open,
          AutoMinorVersionUpgrade: !open,
        }),
      )
      .catch((err: unknown) => {
        if (!(err instanceof Error && /Expected real number/.test(err.message))) throw err;
      });
  const endpoint = async (customer: CustomerAccount, id: string, sslMode: 'none' | 'verify-full') =>
    (
      await dms(customer).send(
        new CreateEndpointCommand({
          EndpointIdentifier: id,
          EndpointType: 'source',
          EngineName: 'postgres',
          ServerName: 'db.internal',
          Port: 5432,
          DatabaseName: 'orders',
          Username: 'app',
          Password: 'Correct-Horse-9',
          SslMode: sslMode,
        }),
      )
    ).Endpoint?.EndpointArn as string;

  const redshift = (customer: CustomerAccount) => client(new RedshiftClient(customerConfig(customer)));
  const warehouse = (customer: CustomerAccount, id: string, good: boolean) =>
    redshift(customer).send(
      new CreateRedshiftClusterCommand({
        ClusterIdentifier: id,
        NodeType: 'ra3.xlplus',
        MasterUsername: 'admin',
        MasterUserPassword: 'Correct-Horse-9',
        PubliclyAccessible: !good,
        Encrypted: good,
        AutomatedSnapshotRetentionPeriod: good ? 7 : 0,
        AllowVersionUpgrade: good,
        ClusterParameterGroupName: good ? 'tls-only' : undefined,
      }),
    );

  const opensearch = (customer: CustomerAccount) => client(new OpenSearchClient(customerConfig(customer)));
  const domain = (customer: CustomerAccount, name: string, good: boolean, accountId: string) =>
    opensearch(customer).send(
      new CreateDomainCommand({
        DomainName: name,
        AccessPolicies: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: good ? { AWS: `arn:aws:iam::${accountId}:role/search-app` } : '*',
              Action: 'es:*',
              Resource: `arn:aws:es:${REGION}:${accountId}:domain/${name}/*`,
            },
          ],
        }),
        EncryptionAtRestOptions: { Enabled: good },
        NodeToNodeEncryptionOptions: { Enabled: good },
        DomainEndpointOptions: { EnforceHTTPS: good },
        AdvancedSecurityOptions: good
          ? {
              Enabled: true,
              InternalUserDatabaseEnabled: true,
              MasterUserOptions: { MasterUserName: 'admin', MasterUserPassword: 'Correct-Horse-9' },
            }
          : { Enabled: false },
        LogPublishingOptions: good
          ? {
              AUDIT_LOGS: {
                Enabled: true,
                CloudWatchLogsLogGroupArn: `arn:aws:logs:${REGION}:${accountId}:log-group:/search/audit`,
              },
            }
          : {},
      }),
    );

  const kafkaCluster = async (customer: CustomerAccount, name: string, good: boolean) =>
    (
      await client(new KafkaClient(customerConfig(customer))).send(
        new CreateKafkaClusterCommand({
          ClusterName: name,
          KafkaVersion: '3.6.0',
          NumberOfBrokerNodes: 3,
          BrokerNodeGroupInfo: {
            InstanceType: 'kafka.m5.large',
            ClientSubnets: ['subnet-0a', 'subnet-0b', 'subnet-0c'],
            ConnectivityInfo: { PublicAccess: { Type: good ? 'DISABLED' : 'SERVICE_PROVIDED_EIPS' } },
          },
          ClientAuthentication: good
            ? {
                Tls: {
                  Enabled: true,
                  CertificateAuthorityArnList: ['arn:aws:acm-pca:us-east-1:111122223333:certificate-authority/ca'],
                },
                Unauthenticated: { Enabled: false },
              }
            : { Unauthenticated: { Enabled: true } },
          EncryptionInfo: { EncryptionInTransit: { ClientBroker: good ? 'TLS' : 'TLS_PLAINTEXT', InCluster: true } },
        }),
      )
    ).ClusterArn as string;

  const cache = (customer: CustomerAccount, id: string, good: boolean) =>
    client(new ElastiCacheClient(customerConfig(customer))).send(
      new CreateReplicationGroupCommand({
        ReplicationGroupId: id,
        ReplicationGroupDescription: id,
        Engine: 'redis',
        CacheNodeType: 'cache.t3.micro',
        NumCacheClusters: 1,
        SnapshotRetentionLimit: good ? 7 : 0,
        AtRestEncryptionEnabled: good,
        TransitEncryptionEnabled: good,
        AutoMinorVersionUpgrade: good,
      }),
    );

  const stream = async (customer: CustomerAccount, name: string, encrypted: boolean) => {
    // HTTP/1.1, as the collector speaks it: moto does not speak the HTTP/2 the Kinesis client uses by default.
    const kinesis = client(new KinesisClient({ ...customerConfig(customer), requestHandler: new NodeHttpHandler() }));
    await kinesis.send(new CreateStreamCommand({ StreamName: name, ShardCount: 1 }));
    if (encrypted)
      await kinesis.send(
        new StartStreamEncryptionCommand({ StreamName: name, EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' }),
      );
  };

  const volume = async (customer: CustomerAccount, encrypted: boolean) => {
    const ec2 = client(new EC2Client(customerConfig(customer)));
    const { VolumeId } = await ec2.send(
      new CreateVolumeCommand({ AvailabilityZone: `${REGION}a`, Size: 8, Encrypted: encrypted }),
    );
    const { SnapshotId } = await ec2.send(new CreateSnapshotCommand({ VolumeId }));
    return { volume: VolumeId as string, snapshot: SnapshotId as string };
  };

  it('finds what is open, unencrypted or unpatched, passes what is not, and reads every page', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const account = customer.accountId;
    const arn = (service: string, resource: string) => `arn:aws:${service}:${REGION}:${account}:${resource}`;
    await instance(customer, 'orders-db', true);
    await instance(customer, 'legacy-db', false);
    await cluster(customer, 'orders-aurora', 'aurora-postgresql', true);
    await cluster(customer, 'reports-aurora', 'aurora-mysql', false);
    await cluster(customer, 'catalog-docs', 'aurora-mysql', false);
    await cluster(customer, 'graph', 'neptune', false);
    await snapshot(customer, 'legacy-db', 'legacy-export', true);
    await snapshot(customer, 'orders-db', 'orders-before-upgrade', false);
    await clusterSnapshot(customer, 'catalog-docs', 'catalog-release', true);
    await clusterSnapshot(customer, 'graph', 'graph-release', true);
    await clusterSnapshot(customer, 'orders-aurora', 'orders-aurora-release', false);
    await replicationInstance(customer, 'open-migration', true);
    await replicationInstance(customer, 'migration', false);
    await replicationInstance(customer, 'migration-2', false);
    const plain = await endpoint(customer, 'plain-source', 'none');
    await endpoint(customer, 'tls-source', 'verify-full');
    await redshift(customer).send(
      new CreateClusterParameterGroupCommand({
        ParameterGroupName: 'tls-only',
        ParameterGroupFamily: 'redshift-1.0',
        Description: 'TLS only',
      }),
    );
    await warehouse(customer, 'open-warehouse', false);
    await warehouse(customer, 'warehouse', true);
    await warehouse(customer, 'warehouse-2', true);
    // Six domains: DescribeDomains takes five names at a time.
    await domain(customer, 'open-search', false, account);
    for (const name of ['search-1', 'search-2', 'search-3', 'search-4', 'search-5'])
      await domain(customer, name, true, account);
    const openKafka = await kafkaCluster(customer, 'open-events', false);
    await kafkaCluster(customer, 'events', true);
    await kafkaCluster(customer, 'events-2', true);
    await cache(customer, 'plain-cache', false);
    await cache(customer, 'sessions', true);
    await cache(customer, 'sessions-2', true);
    await stream(customer, 'raw-clicks', false);
    await stream(customer, 'clicks', true);
    await stream(customer, 'clicks-2', true);
    const plainDisk = await volume(customer, false);
    await volume(customer, true);
    await volume(customer, true);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.rewrite = pagedLikeAws;

    const inventory = await collect(target);

    // Automated snapshots are named after the time they were taken.
    const found = JSON.parse(
      JSON.stringify(outcomes(inventory, CHECKS)).replace(
        /(rds:[a-z-]+?)-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}/g,
        '$1-automated',
      ),
    ) as Record<string, unknown>;
    const kafka = `${openKafka}@${REGION}`;
    const search = `${arn('es', 'domain/open-search')}@${REGION}`;
    const cacheGroup = `${arn('elasticache', 'replicationgroup:plain-cache')}@${REGION}`;
    expect(found).toEqual({
      'exposure.rds_snapshot_public': [`${arn('rds', 'snapshot:legacy-export')}@${REGION}`],
      'exposure.rds_snapshot_unencrypted': [
        `${arn('rds', 'cluster-snapshot:rds:reports-aurora-automated')}@${REGION}`,
        `${arn('rds', 'snapshot:legacy-export')}@${REGION}`,
        `${arn('rds', 'snapshot:rds:legacy-db-automated')}@${REGION}`,
      ],
      'exposure.rds_cluster_unencrypted': [`${arn('rds', 'cluster:reports-aurora')}@${REGION}`],
      'exposure.rds_instance_outside_vpc': [`legacy-db@${REGION}`],
      'exposure.rds_certificate_expiring': [`legacy-db@${REGION}`],
      'exposure.documentdb_snapshot_public': [`${arn('rds', 'cluster-snapshot:catalog-release')}@${REGION}`],
      'exposure.documentdb_cluster_unencrypted': [`${arn('rds', 'cluster:catalog-docs')}@${REGION}`],
      'exposure.neptune_snapshot_public': [`${arn('rds', 'cluster-snapshot:graph-release')}@${REGION}`],
      'exposure.neptune_cluster_unencrypted': [`${arn('rds', 'cluster:graph')}@${REGION}`],
      'exposure.neptune_snapshot_unencrypted': [
        `${arn('rds', 'cluster-snapshot:graph-release')}@${REGION}`,
        `${arn('rds', 'cluster-snapshot:rds:graph-automated')}@${REGION}`,
      ],
      'exposure.dms_instance_public': [`${arn('dms', 'rep:open-migration')}@${REGION}`],
      'exposure.dms_endpoint_without_ssl': [`${plain}@${REGION}`],
      'exposure.dms_minor_upgrades_off': [`${arn('dms', 'rep:open-migration')}@${REGION}`],
      'exposure.redshift_public': [`open-warehouse@${REGION}`],
      'exposure.redshift_unencrypted': [`open-warehouse@${REGION}`],
      'exposure.redshift_automated_snapshots_off': [`open-warehouse@${REGION}`],
      'exposure.redshift_ssl_not_required': [`open-warehouse@${REGION}`],
      'exposure.redshift_version_upgrades_off': [`open-warehouse@${REGION}`],
      'exposure.opensearch_public': [search],
      'exposure.opensearch_unencrypted': [search],
      'exposure.opensearch_fine_grained_access_off': [search],
      'detection.opensearch_audit_logs_off': [search],
      'exposure.opensearch_https_not_enforced': [search],
      'exposure.opensearch_node_to_node_unencrypted': [search],
      // moto reports no service software update for any domain.
      'exposure.opensearch_update_available': 'pass',
      'exposure.kafka_public': [kafka],
      'exposure.kafka_unauthenticated_access': [kafka],
      'exposure.kafka_plaintext_in_transit': [kafka],
      'exposure.kafka_tls_authentication_off': [kafka],
      'exposure.elasticache_backups_off': [cacheGroup],
      'exposure.elasticache_minor_upgrades_off': [cacheGroup],
      'exposure.elasticache_unencrypted_at_rest': [cacheGroup],
      'exposure.elasticache_unencrypted_in_transit': [cacheGroup],
      'exposure.kinesis_stream_unencrypted': [`${arn('kinesis', 'stream/raw-clicks')}@${REGION}`],
      'exposure.ebs_volume_unencrypted': [`${plainDisk.volume}@${REGION}`],
      'exposure.ebs_snapshot_unencrypted': [`${plainDisk.snapshot}@${REGION}`],
      'exposure.ebs_snapshot_public_sharing_unblocked': [`ebs-snapshot-block-public-access@${REGION}`],
    });
    // Every list was read to its last page (PAGE items a page); DescribeDomains takes five domains a call.
    const inRegion = (service: string, operation: string) =>
      calls(service, operation).filter((r) => r.region === REGION);
    expect({
      dbSnapshots: inRegion('rds', 'DescribeDBSnapshots').length,
      dbClusters: inRegion('rds', 'DescribeDBClusters').length,
      redshift: inRegion('redshift', 'DescribeClusters').length,
      dms: inRegion('dms', 'DescribeReplicationInstances').length,
      kinesis: inRegion('kinesis', 'ListStreams').length,
      kafka: suite.front.requests.filter((r) => r.service === 'kafka' && r.region === REGION).length,
      snapshots: inRegion('ec2', 'DescribeSnapshots').length,
      // OpenSearch is a REST API: its operations have only a path.
      domains: suite.front.requests.filter((r) => r.region === REGION && r.path.endsWith('/opensearch/domain-info'))
        .length,
    }).toEqual({ dbSnapshots: 2, dbClusters: 2, redshift: 2, dms: 2, kinesis: 2, kafka: 2, snapshots: 2, domains: 2 });
    // Only manual snapshots can be shared: only theirs are asked who may restore them.
    expect([
      inRegion('rds', 'DescribeDBSnapshotAttributes').length,
      inRegion('rds', 'DescribeDBClusterSnapshotAttributes').length,
    ]).toEqual([2, 3]);
  });

  it('leaves unread what AWS refuses, a region or a resource, and reads the rest', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await instance(customer, 'orders-db', true);
    await snapshot(customer, 'orders-db', 'hidden-export', false);
    await snapshot(customer, 'orders-db', 'orders-before-upgrade', false);
    await redshift(customer).send(
      new CreateClusterParameterGroupCommand({
        ParameterGroupName: 'tls-only',
        ParameterGroupFamily: 'redshift-1.0',
        Description: 'TLS only',
      }),
    );
    await warehouse(customer, 'warehouse', true);
    await stream(customer, 'hidden-clicks', true);
    await stream(customer, 'clicks', false);
    await createSentinelRole({ customer, externalId: target.externalId });
    const refused = new Set(['dms', 'es', 'kafka', 'elasticache']);
    suite.front.answer = (request) => {
      if (request.operation === 'DescribeDBSnapshotAttributes' && request.body.includes('hidden-export'))
        return queryError({ service: 'rds', status: 403, code: 'AccessDenied', message: 'explicit deny' });
      if (request.operation === 'DescribeClusterParameters')
        return queryError({ service: 'redshift', status: 403, code: 'AccessDenied', message: 'explicit deny' });
      if (request.operation === 'DescribeStreamSummary' && request.body.includes('hidden-clicks'))
        return accessDenied(request);
      // ElastiCache speaks the query protocol: its refusal is an XML error.
      if (request.region === REGION && request.service === 'elasticache')
        return queryError({ service: 'elasticache', status: 403, code: 'AccessDenied', message: 'explicit deny' });
      if (request.region === REGION && refused.has(request.service)) return accessDenied(request);
      if (request.region === REGION && request.operation === 'GetSnapshotBlockPublicAccessState')
        return accessDenied(request);
      return motoGaps(request);
    };
    suite.front.rewrite = (request, answer) => awsFields(request, answer);

    const inventory = await collect(target);
    const account = customer.accountId;

    // A refused region is unread, the others read.
    for (const part of [
      inventory.dms,
      inventory.opensearchDomains,
      inventory.kafkaClusters,
      inventory.elasticacheReplicationGroups,
      inventory.ebsSnapshotBlockPublicAccess,
    ]) {
      expect(part.status).toBe('ok');
      expect(part.unread?.map((u) => `${u.kind}:${u.scope}`)).toEqual([`region:${REGION}`]);
      expect(part.unread?.[0]?.reason).toContain('denied');
    }
    // A refused resource is unread, never private, encrypted or TLS-only: the rest is judged.
    expect(unreadOf(inventory, 'exposure.rds_snapshot_public')).toEqual([
      `arn:aws:rds:${REGION}:${account}:snapshot:hidden-export`,
    ]);
    expect(outcomes(inventory, ['exposure.rds_snapshot_public'])).toEqual({ 'exposure.rds_snapshot_public': 'pass' });
    expect(unreadOf(inventory, 'exposure.redshift_ssl_not_required')).toEqual(['warehouse']);
    expect(unreadOf(inventory, 'exposure.kinesis_stream_unencrypted')).toEqual([
      `arn:aws:kinesis:${REGION}:${account}:stream/hidden-clicks`,
    ]);
    expect(outcomes(inventory, ['exposure.kinesis_stream_unencrypted', 'exposure.redshift_unencrypted'])).toEqual({
      'exposure.kinesis_stream_unencrypted': [`arn:aws:kinesis:${REGION}:${account}:stream/clicks@${REGION}`],
      'exposure.redshift_unencrypted': 'pass',
    });
    expect(
      ok(inventory.rdsSnapshots)
        .snapshots.filter((s) => s.type === 'manual')
        .map((s) => [s.id, s.public])
        .sort(),
    ).toEqual([
      ['hidden-export', null],
      ['orders-before-upgrade', false],
    ]);
  });
});
