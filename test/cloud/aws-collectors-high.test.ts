import { BackupClient, CreateBackupPlanCommand } from '@aws-sdk/client-backup';
import {
  CreateDBClusterCommand,
  CreateDBClusterParameterGroupCommand,
  CreateDBInstanceCommand,
  CreateDBParameterGroupCommand,
  DescribeDBInstancesCommand,
  ModifyDBClusterParameterGroupCommand,
  ModifyDBParameterGroupCommand,
  RDSClient,
} from '@aws-sdk/client-rds';
import {
  AuthorizeSecurityGroupEgressCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  CreateSnapshotCommand,
  CreateVolumeCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import {
  type AwsRequest,
  accessDenied,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoGaps,
  queryError,
  REGION,
} from '../helpers/aws';
import { inTwoPages, ok, useCollectorSuite } from '../helpers/collector-suite';

// The Prowler HIGH checks that extend parts already read, against moto: RDS's parameter groups, engine versions and
// AWS Backup's plans. Each test seeds a customer account through the SDK, connects it with the real CLI script and
// collects through the front (test/helpers/aws.ts). moto has no DescribeDBEngineVersions and no backup selections:
// the front answers them in AWS's documented shape (motoGaps, and the selections each test assigns).

const OTHER_REGION = 'eu-west-1';
const RDS_CHECKS = [
  'exposure.rds_transport_unencrypted',
  'exposure.rds_engine_version_deprecated',
  'exposure.rds_instance_no_backup_plan',
  'exposure.rds_cluster_no_backup_plan',
];

/** Each check's outcome: 'pass', 'not_evaluated', or its failing resources as `resource@region`. */
function outcomes(inventory: Inventory, ids: readonly string[]): Record<string, string | string[]> {
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

/** The resources a check names unread. */
const unreadOf = (inventory: Inventory, id: string) =>
  (checkById(id)!.evaluate(inventory, { now: inventory.collectedAt }).unread ?? []).map((u) => u.scope).sort();

const json = (body: unknown): CannedAnswer => ({
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** A backup plan's selections as AWS Backup lists and describes them: one selection per plan, of these resources. */
function answerSelections(
  resourcesByPlan: Map<string, string[]>,
  otherwise: (request: AwsRequest) => CannedAnswer | undefined = motoGaps,
) {
  return (request: AwsRequest): CannedAnswer | undefined => {
    const listed = /^\/backup\/plans\/([^/]+)\/selections\/?$/.exec(request.path);
    const got = /^\/backup\/plans\/([^/]+)\/selections\/([^/]+)$/.exec(request.path);
    if (request.service === 'backup' && listed) {
      const planId = listed[1] as string;
      return json({
        BackupSelectionsList: resourcesByPlan.has(planId)
          ? [{ SelectionId: `sel-${planId}`, SelectionName: 'databases', BackupPlanId: planId }]
          : [],
      });
    }
    if (request.service === 'backup' && got) {
      const planId = got[1] as string;
      return json({
        BackupPlanId: planId,
        SelectionId: got[2],
        BackupSelection: {
          SelectionName: 'databases',
          IamRoleArn: 'arn:aws:iam::123456789012:role/service-role/AWSBackupDefaultServiceRole',
          Resources: resourcesByPlan.get(planId) ?? [],
        },
      });
    }
    return otherwise(request);
  };
}

/** The first page of a DB parameter group's parameters, with one unrelated parameter: the TLS one is on the next. */
const FIRST_PARAMETER_PAGE: CannedAnswer = {
  status: 200,
  contentType: 'text/xml',
  body:
    '<DescribeDBParametersResponse xmlns="http://rds.amazonaws.com/doc/2014-10-31/"><DescribeDBParametersResult>' +
    '<Marker>front-parameters-2</Marker><Parameters><Parameter><ParameterName>max_connections</ParameterName>' +
    '<ParameterValue>100</ParameterValue><Source>user</Source></Parameter></Parameters></DescribeDBParametersResult>' +
    '<ResponseMetadata><RequestId>front</RequestId></ResponseMetadata></DescribeDBParametersResponse>',
};

describe('AWS collection of the RDS parameter groups, engine versions and backup plans against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;
  const rds = (customer: CustomerAccount, region = REGION) => client(new RDSClient(customerConfig(customer, region)));

  async function parameterGroup(
    customer: CustomerAccount,
    region: string,
    name: string,
    family: string,
    parameter: string,
  ) {
    await rds(customer, region).send(
      new CreateDBParameterGroupCommand({
        DBParameterGroupName: name,
        DBParameterGroupFamily: family,
        Description: name,
      }),
    );
    await rds(customer, region).send(
      new ModifyDBParameterGroupCommand({
        DBParameterGroupName: name,
        Parameters: [{ ParameterName: parameter, ParameterValue: '1', ApplyMethod: 'immediate' }],
      }),
    );
  }

  const database = (
    customer: CustomerAccount,
    region: string,
    id: string,
    { engine, version, group }: { engine: string; version: string; group?: string },
  ) =>
    rds(customer, region).send(
      new CreateDBInstanceCommand({
        DBInstanceIdentifier: id,
        DBInstanceClass: 'db.t3.micro',
        Engine: engine,
        EngineVersion: version,
        DBParameterGroupName: group,
        AllocatedStorage: 20,
        MasterUsername: 'app',
        MasterUserPassword: 'Correct-Horse-9',
      }),
    );

  async function auroraCluster(customer: CustomerAccount, id: string, forceSsl: boolean) {
    const group = `${id}-params`;
    await rds(customer).send(
      new CreateDBClusterParameterGroupCommand({
        DBClusterParameterGroupName: group,
        DBParameterGroupFamily: 'aurora-postgresql16',
        Description: group,
      }),
    );
    await rds(customer).send(
      new ModifyDBClusterParameterGroupCommand({
        DBClusterParameterGroupName: group,
        Parameters: [
          { ParameterName: 'rds.force_ssl', ParameterValue: forceSsl ? '1' : '0', ApplyMethod: 'immediate' },
        ],
      }),
    );
    const { DBCluster } = await rds(customer).send(
      new CreateDBClusterCommand({
        DBClusterIdentifier: id,
        Engine: 'aurora-postgresql',
        EngineVersion: '16.4',
        DBClusterParameterGroupName: group,
        MasterUsername: 'app',
        MasterUserPassword: 'Correct-Horse-9',
      }),
    );
    return DBCluster?.DBClusterArn as string;
  }

  async function backupPlan(customer: CustomerAccount, region: string, name: string): Promise<string> {
    const { BackupPlanId } = await client(new BackupClient(customerConfig(customer, region))).send(
      new CreateBackupPlanCommand({
        BackupPlan: {
          BackupPlanName: name,
          Rules: [{ RuleName: 'daily', TargetBackupVaultName: 'Default', ScheduleExpression: 'cron(0 5 * * ? *)' }],
        },
      }),
    );
    return BackupPlanId as string;
  }

  it('fails databases without TLS, on a retired version or in no backup plan, passes the others, and reads every page', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await parameterGroup(customer, REGION, 'tls-only', 'postgres16', 'rds.force_ssl');
    await parameterGroup(customer, OTHER_REGION, 'secure-transport', 'mysql8.0', 'require_secure_transport');
    // Default parameter group (rds.force_ssl off), a version RDS no longer offers, in no plan.
    await database(customer, REGION, 'legacy-db', { engine: 'postgres', version: '10.21' });
    await database(customer, REGION, 'orders-db', { engine: 'postgres', version: '16.4', group: 'tls-only' });
    await database(customer, OTHER_REGION, 'reporting-db', {
      engine: 'mysql',
      version: '8.0.39',
      group: 'secure-transport',
    });
    const openCluster = await auroraCluster(customer, 'analytics-aurora', false);
    const tlsCluster = await auroraCluster(customer, 'orders-aurora', true);
    const home = await backupPlan(customer, REGION, 'daily');
    const spare = await backupPlan(customer, REGION, 'weekly');
    const europe = await backupPlan(customer, OTHER_REGION, 'daily-eu');
    const { DBInstances = [] } = await rds(customer).send(
      new DescribeDBInstancesCommand({ DBInstanceIdentifier: 'orders-db' }),
    );
    const ordersArn = DBInstances[0]?.DBInstanceArn as string;
    // Two backup plans a region on two pages, and each custom parameter group's TLS parameter on its second page.
    inTwoPages(suite, {
      is: (r) => r.service === 'backup' && r.method === 'GET' && /^\/backup\/plans\/?$/.test(r.path),
      items: 'BackupPlansList',
      token: 'NextToken',
    });
    const pagedPlans = suite.front.answer;
    suite.front.answer = (request) => {
      const body = new URLSearchParams(request.body);
      if (
        request.operation === 'DescribeDBParameters' &&
        body.get('DBParameterGroupName') !== 'default.postgres10' &&
        !body.get('Marker')
      )
        return FIRST_PARAMETER_PAGE;
      // By ARN in us-east-1, and every database of eu-west-1 through RDS's wildcard pattern.
      return answerSelections(
        new Map([
          [home, [ordersArn, tlsCluster]],
          [europe, ['arn:aws:rds:*:*:db:*']],
        ]),
        pagedPlans,
      )(request);
    };
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(
      ok(inventory.rdsInstances)
        .instances.map((db) => [db.id, db.engineVersion, db.tlsEnforced, db.engineVersionOffered])
        .sort(),
    ).toEqual([
      ['legacy-db', '10.21', false, false],
      ['orders-db', '16.4', true, true],
      ['reporting-db', '8.0.39', true, true],
    ]);
    expect(
      ok(inventory.rdsClusters)
        .clusters.map((c) => [c.id, c.tlsEnforced])
        .sort(),
    ).toEqual([
      ['analytics-aurora', false],
      ['orders-aurora', true],
    ]);
    expect(
      ok(inventory.backupSelections)
        .selections.map((s) => [s.region, s.planName, s.resources])
        .sort(),
    ).toEqual([
      [OTHER_REGION, 'daily-eu', ['arn:aws:rds:*:*:db:*']],
      [REGION, 'daily', [ordersArn, tlsCluster]],
    ]);
    expect(outcomes(inventory, RDS_CHECKS)).toEqual({
      'exposure.rds_transport_unencrypted': [`${openCluster}@${REGION}`, `legacy-db@${REGION}`].sort(),
      'exposure.rds_engine_version_deprecated': [`legacy-db@${REGION}`],
      'exposure.rds_instance_no_backup_plan': [`legacy-db@${REGION}`],
      'exposure.rds_cluster_no_backup_plan': [`${openCluster}@${REGION}`],
    });
    // One engine-version question per engine and version in use, and the plan left without selections was listed.
    const calls = (operation: string) => suite.front.requests.filter((r) => r.operation === operation).length;
    expect(calls('DescribeDBEngineVersions')).toBe(3);
    expect(
      suite.front.requests.filter((r) => r.service === 'backup' && r.path.includes(`/backup/plans/${spare}/selections`))
        .length,
    ).toBe(1);
    expect(
      suite.front.requests.filter((r) => r.operation === 'DescribeDBParameters' && r.body.includes('Marker')).length,
    ).toBe(2);
  });

  it('leaves unread the databases whose parameter group or engine versions are refused, and the plans whose selections are', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await database(customer, REGION, 'hidden-db', { engine: 'postgres', version: '16.4' });
    const plan = await backupPlan(customer, REGION, 'daily');
    suite.front.answer = (request) => {
      if (request.role && ['DescribeDBParameters', 'DescribeDBEngineVersions'].includes(request.operation ?? ''))
        return queryError({ service: 'rds', status: 403, code: 'AccessDenied', message: 'explicit deny in an SCP' });
      if (request.role && request.service === 'backup' && request.path.includes('/selections'))
        return accessDenied(request);
      return motoGaps(request);
    };
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.rdsInstances).instances.map((db) => [db.id, db.tlsEnforced, db.engineVersionOffered])).toEqual([
      ['hidden-db', null, null],
    ]);
    expect(outcomes(inventory, RDS_CHECKS)).toEqual({
      'exposure.rds_transport_unencrypted': 'pass',
      'exposure.rds_engine_version_deprecated': 'pass',
      // The plan that could not be read may assign it: unread, neither failing nor passing.
      'exposure.rds_instance_no_backup_plan': 'pass',
      'exposure.rds_cluster_no_backup_plan': 'pass',
    });
    expect(unreadOf(inventory, 'exposure.rds_transport_unencrypted')).toEqual(['hidden-db']);
    expect(unreadOf(inventory, 'exposure.rds_engine_version_deprecated')).toEqual(['hidden-db']);
    expect(unreadOf(inventory, 'exposure.rds_instance_no_backup_plan')).toEqual([
      expect.stringContaining(plan),
      'hidden-db',
    ]);
    expect(ok(inventory.backupSelections).selections).toEqual([]);
    expect((inventory.backupSelections.unread ?? []).map((u) => u.scope)).toEqual([expect.stringContaining(plan)]);
  });
});

describe('AWS collection of wide public ranges and unsnapshotted volumes against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;
  const ec2 = (customer: CustomerAccount, region = REGION) => client(new EC2Client(customerConfig(customer, region)));
  const EC2_CHECKS = ['exposure.security_group_wide_public_range', 'exposure.ebs_volume_without_snapshot'];

  async function group(
    customer: CustomerAccount,
    name: string,
    rules: { ingress?: string; egress?: string },
  ): Promise<string> {
    const { GroupId } = await ec2(customer).send(
      new CreateSecurityGroupCommand({ GroupName: name, Description: name }),
    );
    const permissions = (cidr: string) => [
      { IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: cidr }] },
    ];
    if (rules.ingress)
      await ec2(customer).send(
        new AuthorizeSecurityGroupIngressCommand({ GroupId, IpPermissions: permissions(rules.ingress) }),
      );
    if (rules.egress)
      await ec2(customer).send(
        new AuthorizeSecurityGroupEgressCommand({ GroupId, IpPermissions: permissions(rules.egress) }),
      );
    return GroupId as string;
  }

  async function volume(customer: CustomerAccount, region: string, snapshotted: boolean): Promise<string> {
    const { VolumeId } = await ec2(customer, region).send(
      new CreateVolumeCommand({ AvailabilityZone: `${region}a`, Size: 8 }),
    );
    if (snapshotted) await ec2(customer, region).send(new CreateSnapshotCommand({ VolumeId }));
    return VolumeId as string;
  }

  it('fails groups open to a wide public range and volumes never snapshotted, and passes the others', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const wideIn = await group(customer, 'partner-wide', { ingress: '52.94.0.0/16' });
    const wideOut = await group(customer, 'egress-wide', { egress: '3.0.0.0/8' });
    // A /24, a private range and the whole internet (checked by the open-port checks) are not wide public ranges.
    const office = await group(customer, 'office', { ingress: '8.8.8.0/24' });
    await group(customer, 'vpc-only', { ingress: '10.0.0.0/8' });
    await group(customer, 'ssh-open', { ingress: '0.0.0.0/0' });
    const forgotten = await volume(customer, REGION, false);
    const kept = await volume(customer, REGION, true);
    await volume(customer, OTHER_REGION, true);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    const groups = ok(inventory.securityGroups).groups;
    expect(groups.find((g) => g.id === wideIn)?.wideRanges).toEqual([{ direction: 'inbound', cidr: '52.94.0.0/16' }]);
    expect(groups.find((g) => g.id === wideOut)?.wideRanges).toEqual([{ direction: 'outbound', cidr: '3.0.0.0/8' }]);
    // Neither open to the internet nor to a wide range: not kept.
    expect(groups.some((g) => g.id === office)).toBe(false);
    expect(ok(inventory.ebsSnapshots).snapshottedVolumes).toContainEqual({ id: kept, region: REGION });
    expect(outcomes(inventory, EC2_CHECKS)).toEqual({
      'exposure.security_group_wide_public_range': [`${wideIn}@${REGION}`, `${wideOut}@${REGION}`].sort(),
      'exposure.ebs_volume_without_snapshot': [`${forgotten}@${REGION}`],
    });
  });

  it('leaves unread the volumes of a region whose snapshots are refused', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const hidden = await volume(customer, OTHER_REGION, false);
    const forgotten = await volume(customer, REGION, false);
    suite.front.answer = (request) =>
      request.role && request.operation === 'DescribeSnapshots' && request.region === OTHER_REGION
        ? accessDenied(request)
        : motoGaps(request);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(outcomes(inventory, ['exposure.ebs_volume_without_snapshot'])).toEqual({
      'exposure.ebs_volume_without_snapshot': [`${forgotten}@${REGION}`],
    });
    expect(unreadOf(inventory, 'exposure.ebs_volume_without_snapshot')).toEqual([OTHER_REGION, hidden].sort());
  });
});
