import { BudgetsClient, CreateBudgetCommand, type NotificationWithSubscribers } from '@aws-sdk/client-budgets';
import { CloudTrailClient, CreateTrailCommand, StartLoggingCommand } from '@aws-sdk/client-cloudtrail';
import { EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { CreateDetectorCommand, GuardDutyClient } from '@aws-sdk/client-guardduty';
import { CreateDBInstanceCommand, RDSClient } from '@aws-sdk/client-rds';
import { CreateBucketCommand, DeleteBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { checkById } from '../../domain/checks/catalog';
import type { CheckResult } from '../../domain/checks/types';
import type { Inventory } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  jsonError,
  motoDifferences,
  motoGaps,
  queryError,
  REGION,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// Empty is not clean: an answer that says nothing (no GuardDuty detector, no anomaly monitor, a trail whose logs do
// not arrive, an instance or a database whose setting AWS did not report, a budget that alerts nobody) never makes
// a check pass. Each account is seeded in moto through the SDK, connected with the real CLI script, and collected
// through the front (test/helpers/aws.ts), which answers what moto lacks as AWS documents it and refuses calls as
// an SCP would; the checks then run on what was collected.

const OTHER_REGION = 'eu-west-1';
const HOUR_S = 3600;
const CHECKS = [
  'threat.guardduty_high_severity_finding',
  'detection.guardduty_disabled',
  'billing.cost_anomaly',
  'billing.no_cost_anomaly_monitor',
  'detection.no_multi_region_trail',
  'detection.trail_not_logging',
  'detection.s3_write_events_not_logged',
  'exposure.imdsv1_allowed',
  'exposure.rds_public',
  'billing.no_budget',
] as const;
type CheckId = (typeof CHECKS)[number];

const evaluate = (inventory: Inventory, id: CheckId): CheckResult =>
  checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });

/** Each check's outcome: 'pass', 'not_evaluated', or its failing resources as `resource@region`. */
function outcomes(inventory: Inventory): Record<CheckId, string | string[]> {
  return Object.fromEntries(
    CHECKS.map((id) => {
      const result = evaluate(inventory, id);
      return [
        id,
        result.status === 'fail'
          ? result.resources.map((r) => `${r.resource}@${r.region ?? 'global'}`).sort()
          : result.status,
      ];
    }),
  ) as Record<CheckId, string | string[]>;
}

/** The scopes a check names as unread. */
const unreadBy = (inventory: Inventory, id: CheckId) =>
  (evaluate(inventory, id).unread ?? []).map((u) => u.scope).sort();

/** A high-severity GuardDuty finding about `accountId`, as GetFindings answers it. */
const guardDutyFinding = (accountId: string, region: string) => ({
  id: 'f-mining',
  type: 'CryptoCurrency:EC2/BitcoinTool.B!DNS',
  severity: 8,
  title: 'EC2 instance is querying a domain name associated with Bitcoin activity',
  accountId,
  region,
  arn: `arn:aws:guardduty:${region}:${accountId}:detector/d/finding/f-mining`,
  schemaVersion: '2.0',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  resource: {},
});

/** GuardDuty ListFindings and GetFindings (which moto lacks) answering `finding` for every detector. */
function guardDutyFindings(
  request: AwsRequest,
  finding: ReturnType<typeof guardDutyFinding>,
): CannedAnswer | undefined {
  if (request.service !== 'guardduty' || request.method !== 'POST') return undefined;
  if (request.path.endsWith('/findings'))
    return { status: 200, contentType: 'application/json', body: JSON.stringify({ findingIds: [finding.id] }) };
  if (request.path.endsWith('/findings/get'))
    return { status: 200, contentType: 'application/json', body: JSON.stringify({ findings: [finding] }) };
  return undefined;
}

/** Cost Explorer GetAnomalyMonitors (which moto lacks) as AWS answers it for an account with its services monitor. */
function withServicesMonitor(request: AwsRequest, accountId: string): CannedAnswer | undefined {
  if (request.service !== 'ce' || request.operation !== 'GetAnomalyMonitors') return undefined;
  return {
    status: 200,
    contentType: 'application/x-amz-json-1.1',
    body: JSON.stringify({
      AnomalyMonitors: [
        {
          MonitorArn: `arn:aws:ce::${accountId}:anomalymonitor/6c4a8d2e-1f3b-4a5c-9d7e-0b1a2c3d4e5f`,
          MonitorName: 'Default-Services-Monitor',
          CreationDate: '2026-01-05',
          LastUpdatedDate: '2026-01-05',
          LastEvaluatedDate: '2026-03-14',
          MonitorType: 'DIMENSIONAL',
          MonitorDimension: 'SERVICE',
          DimensionalValueCount: 14,
        },
      ],
    }),
  };
}

/** A trail's status (GetTrailStatus, JSON with epoch seconds) with some fields set as AWS reports them. */
function trailStatus(answer: CannedAnswer, fields: Record<string, unknown>): CannedAnswer {
  return { ...answer, body: JSON.stringify({ ...JSON.parse(answer.body), ...fields }) };
}

const isOperation = (request: AwsRequest, service: string, operation: string) =>
  request.service === service && request.operation === operation;

/** A budget alert on actual spend over 80%, e-mailed: one notification with its subscriber. */
const ALERT: NotificationWithSubscribers = {
  Notification: {
    NotificationType: 'ACTUAL',
    ComparisonOperator: 'GREATER_THAN',
    Threshold: 80,
    ThresholdType: 'PERCENTAGE',
  },
  Subscribers: [{ SubscriptionType: 'EMAIL', Address: 'finance@example.com' }],
};

describe('empty answers are not clean ones, collected against moto', () => {
  const suite = useCollectorSuite();
  const { client, connectedCustomer } = suite;

  const detector = (customer: CustomerAccount, region: string) =>
    client(new GuardDutyClient(customerConfig(customer, region))).send(new CreateDetectorCommand({ Enable: true }));

  /** A bucket and a multi-region trail that delivers to it, logging. */
  async function trail(customer: CustomerAccount, name: string): Promise<{ bucket: string; s3: S3Client }> {
    const bucket = uniqueName(`${name}-logs`);
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const cloudtrail = client(new CloudTrailClient(customerConfig(customer)));
    await cloudtrail.send(new CreateTrailCommand({ Name: name, S3BucketName: bucket, IsMultiRegionTrail: true }));
    await cloudtrail.send(new StartLoggingCommand({ Name: name }));
    return { bucket, s3 };
  }

  const instance = (customer: CustomerAccount, region: string, httpTokens: 'optional' | 'required') =>
    client(new EC2Client(customerConfig(customer, region)))
      .send(
        new RunInstancesCommand({
          ImageId: 'ami-12c6146b',
          InstanceType: 't3.micro',
          MinCount: 1,
          MaxCount: 1,
          MetadataOptions: { HttpTokens: httpTokens, HttpEndpoint: 'enabled' },
        }),
      )
      .then(({ Instances = [] }) => Instances[0]?.InstanceId as string);

  const database = (customer: CustomerAccount, region: string, id: string, publiclyAccessible: boolean) =>
    client(new RDSClient(customerConfig(customer, region))).send(
      new CreateDBInstanceCommand({
        DBInstanceIdentifier: id,
        DBInstanceClass: 'db.t3.micro',
        Engine: 'postgres',
        AllocatedStorage: 20,
        MasterUsername: 'app',
        MasterUserPassword: 'Correct-Horse-9',
        StorageEncrypted: true,
        AutoMinorVersionUpgrade: true,
        PubliclyAccessible: publiclyAccessible,
      }),
    );

  const budget = (customer: CustomerAccount, name: string, alerts: NotificationWithSubscribers[]) =>
    client(new BudgetsClient(customerConfig(customer))).send(
      new CreateBudgetCommand({
        AccountId: customer.accountId,
        Budget: {
          BudgetName: name,
          BudgetType: 'COST',
          TimeUnit: 'MONTHLY',
          BudgetLimit: { Amount: '500', Unit: 'USD' },
        },
        NotificationsWithSubscribers: alerts,
      }),
    );

  it('finds nothing to pass in an empty account: no detector, no monitor, no trail, no budget', async () => {
    const { customer, target } = await connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.guardduty).regions.filter((r) => r.detectorEnabled)).toEqual([]);
    expect(ok(inventory.anomalyMonitors)).toEqual({ monitors: [] });
    expect(ok(inventory.anomalies)).toEqual({ anomalies: [] });
    const results = outcomes(inventory);
    expect(results).toMatchObject({
      // No detector anywhere: no finding to read, which is no sign of safety.
      'threat.guardduty_high_severity_finding': 'not_evaluated',
      'billing.cost_anomaly': 'not_evaluated',
      'billing.no_cost_anomaly_monitor': ['cost-anomaly-detection@global'],
      'detection.no_multi_region_trail': ['cloudtrail@global'],
      'billing.no_budget': ['budgets@global'],
    });
    expect(evaluate(inventory, 'threat.guardduty_high_severity_finding')).toMatchObject({
      reason: expect.stringContaining('GuardDuty has no enabled detector in any region'),
    });
    expect(evaluate(inventory, 'billing.cost_anomaly')).toMatchObject({
      reason: expect.stringMatching(/^The account has no Cost Anomaly Detection monitor/),
    });
  });

  it('fails what says nothing: findings of the one watched region, trails that do not deliver, unreported settings, a silent budget', async () => {
    const { customer, target } = await connectedCustomer();
    await detector(customer, OTHER_REGION);
    // Three multi-region trails, logging: one whose bucket policy CloudTrail can no longer write through, one that
    // has delivered nothing for two days, one whose bucket was deleted.
    await trail(customer, 'refused');
    await trail(customer, 'stale');
    const orphan = await trail(customer, 'orphan');
    await orphan.s3.send(new DeleteBucketCommand({ Bucket: orphan.bucket }));
    const imdsV1 = await instance(customer, REGION, 'optional');
    const unreported = await instance(customer, OTHER_REGION, 'required');
    await database(customer, REGION, 'public-db', true);
    await database(customer, OTHER_REGION, 'unreported-db', false);
    await budget(customer, 'silent', []);
    await createSentinelRole({ customer, externalId: target.externalId });
    const finding = guardDutyFinding(customer.accountId, OTHER_REGION);
    const now = Math.floor(Date.now() / 1000);
    suite.front.answer = (request) => guardDutyFindings(request, finding) ?? motoGaps(request);
    suite.front.rewrite = (request, answer) => {
      if (isOperation(request, 'cloudtrail', 'GetTrailStatus') && answer.status === 200) {
        // What AWS reports of these trails (moto reports every logging trail as delivering just now).
        const body = JSON.parse(request.body) as { Name: string };
        if (body.Name.endsWith(':trail/refused')) return trailStatus(answer, { LatestDeliveryError: 'AccessDenied' });
        if (body.Name.endsWith(':trail/stale')) {
          return trailStatus(answer, {
            LatestDeliveryTime: now - 48 * HOUR_S,
            StartLoggingTime: now - 30 * 24 * HOUR_S,
          });
        }
      }
      // An instance and a database whose answers lack the setting (AWS always reports both; a proxy or an
      // emulator may not).
      if (isOperation(request, 'ec2', 'DescribeInstances') && request.region === OTHER_REGION)
        return { ...answer, body: answer.body.replace(/<metadataOptions>.*?<\/metadataOptions>/gs, '') };
      if (isOperation(request, 'rds', 'DescribeDBInstances') && request.region === OTHER_REGION)
        return { ...answer, body: answer.body.replace(/<PubliclyAccessible>[^<]*<\/PubliclyAccessible>/g, '') };
      return motoDifferences(request, answer);
    };

    const inventory = await suite.provider.collectInventory(target);

    const trails = Object.fromEntries(ok(inventory.cloudtrail).trails.map((t) => [t.name, t]));
    expect(trails.refused?.delivery).toMatchObject({ error: 'AccessDenied', bucketMissing: false });
    expect(trails.stale?.delivery).toMatchObject({
      error: null,
      lastDeliveredAt: new Date((now - 48 * HOUR_S) * 1000).toISOString(),
    });
    expect(trails.orphan?.delivery).toMatchObject({ error: null, bucketMissing: true });
    expect(trails.orphan?.logging).toBe(true);
    expect(ok(inventory.instances).instances.find((i) => i.id === unreported)?.metadata).toBeNull();
    expect(ok(inventory.rdsInstances).instances.find((db) => db.id === 'unreported-db')?.publiclyAccessible).toBeNull();
    expect(ok(inventory.budgets).budgets).toEqual([
      expect.objectContaining({ name: 'silent', alerts: { read: true, notifies: false } }),
    ]);

    expect(outcomes(inventory)).toEqual({
      'threat.guardduty_high_severity_finding': [`f-mining@${OTHER_REGION}`],
      'detection.guardduty_disabled': expect.arrayContaining([`guardduty@${REGION}`]),
      'billing.cost_anomaly': 'not_evaluated',
      'billing.no_cost_anomaly_monitor': ['cost-anomaly-detection@global'],
      'detection.no_multi_region_trail': ['cloudtrail@global'],
      'detection.trail_not_logging': [`orphan@${REGION}`, `refused@${REGION}`, `stale@${REGION}`],
      'detection.s3_write_events_not_logged': ['cloudtrail@global'],
      'exposure.imdsv1_allowed': [`${imdsV1}@${REGION}`],
      'exposure.rds_public': [`public-db@${REGION}`],
      'billing.no_budget': ['budgets@global'],
    });
    // The regions without a detector are unread for the findings, never "no findings".
    expect(unreadBy(inventory, 'threat.guardduty_high_severity_finding')).toEqual(
      inventory.regions.enabled.filter((r) => r !== OTHER_REGION).sort(),
    );
    expect(unreadBy(inventory, 'exposure.imdsv1_allowed')).toEqual([unreported]);
    expect(unreadBy(inventory, 'exposure.rds_public')).toEqual(['unreported-db']);
    const notLogging = evaluate(inventory, 'detection.trail_not_logging');
    expect(notLogging.status === 'fail' && notLogging.resources.map((r) => r.detail)).toEqual([
      `Trail orphan (${REGION}) is logging, but its bucket ${orphan.bucket} does not exist (S3 answered NoSuchBucket).`,
      expect.stringMatching(
        /^Trail refused \(us-east-1\) is logging, but its latest delivery of log files to .* failed \(AccessDenied\)\.$/,
      ),
      expect.stringMatching(
        /^Trail stale \(us-east-1\) is logging, but it has delivered nothing to .* more than 24 hours ago\.$/,
      ),
    ]);
  });

  it('passes what is watched, delivered and reported: detectors everywhere, a monitor, a delivering trail, an alerting budget', async () => {
    const { customer, target, regions } = await connectedCustomer();
    await Promise.all(regions.map((region) => detector(customer, region)));
    await trail(customer, 'everywhere');
    await instance(customer, REGION, 'required');
    await database(customer, REGION, 'private-db', false);
    await budget(customer, 'silent', []);
    await budget(customer, 'alerting', [ALERT]);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => withServicesMonitor(request, customer.accountId) ?? motoGaps(request);

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.anomalyMonitors).monitors).toEqual([
      {
        arn: expect.stringMatching(/^arn:aws:ce::\d{12}:anomalymonitor\//),
        name: 'Default-Services-Monitor',
        type: 'DIMENSIONAL',
      },
    ]);
    expect(ok(inventory.cloudtrail).trails[0]?.delivery).toEqual({
      error: null,
      lastDeliveredAt: expect.any(String),
      lastDigestDeliveredAt: null,
      loggingStartedAt: expect.any(String),
      bucketMissing: false,
      cloudWatchLogsError: null,
    });
    expect(Object.fromEntries(ok(inventory.budgets).budgets.map((b) => [b.name, b.alerts]))).toEqual({
      silent: { read: true, notifies: false },
      alerting: { read: true, notifies: true },
    });
    const results = outcomes(inventory);
    expect(results).toMatchObject({
      'threat.guardduty_high_severity_finding': 'pass',
      'detection.guardduty_disabled': 'pass',
      'billing.cost_anomaly': 'pass',
      'billing.no_cost_anomaly_monitor': 'pass',
      'detection.no_multi_region_trail': 'pass',
      'detection.trail_not_logging': 'pass',
      'exposure.imdsv1_allowed': 'pass',
      'exposure.rds_public': 'pass',
      'billing.no_budget': 'pass',
    });
    for (const id of CHECKS) expect([id, unreadBy(inventory, id)]).toEqual([id, []]);
  });

  it('never passes on a refused call: each of those reads denied, with something to find behind it', async () => {
    const { customer, target } = await connectedCustomer();
    await detector(customer, OTHER_REGION);
    await trail(customer, 'everywhere');
    await instance(customer, REGION, 'optional');
    await database(customer, REGION, 'public-db', true);
    await budget(customer, 'alerting', [ALERT]);
    await createSentinelRole({ customer, externalId: target.externalId });
    const finding = guardDutyFinding(customer.accountId, OTHER_REGION);
    // What an SCP denying these calls makes AWS answer (moto enforces none): GuardDuty's ListFindings (a REST path),
    // Cost Explorer GetAnomalyMonitors, CloudTrail GetTrailStatus, EC2 DescribeInstances, RDS DescribeDBInstances (an
    // XML error: RDS speaks the query protocol) and Budgets DescribeNotificationsForBudget.
    suite.front.answer = (request) => {
      if (request.service === 'guardduty' && request.method === 'POST' && request.path.endsWith('/findings'))
        return accessDenied(request);
      if (
        isOperation(request, 'ce', 'GetAnomalyMonitors') ||
        isOperation(request, 'cloudtrail', 'GetTrailStatus') ||
        isOperation(request, 'ec2', 'DescribeInstances')
      )
        return accessDenied(request);
      if (isOperation(request, 'rds', 'DescribeDBInstances'))
        return queryError({ service: 'rds', status: 403, code: 'AccessDenied', message: 'explicit deny in an SCP' });
      if (isOperation(request, 'budgets', 'DescribeNotificationsForBudget'))
        return jsonError(400, 'AccessDeniedException', 'not authorized to perform: budgets:ViewBudget');
      return guardDutyFindings(request, finding) ?? motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.budgets).budgets).toEqual([
      expect.objectContaining({
        name: 'alerting',
        alerts: {
          read: false,
          reason: expect.stringContaining('Budgets DescribeNotificationsForBudget (AccessDenied)'),
        },
      }),
    ]);
    const results = outcomes(inventory);
    expect(results).toEqual({
      'threat.guardduty_high_severity_finding': 'not_evaluated',
      // The regions it read have no detector; the one that has is unread.
      'detection.guardduty_disabled': expect.arrayContaining([`guardduty@${REGION}`]),
      'billing.cost_anomaly': 'not_evaluated',
      'billing.no_cost_anomaly_monitor': 'not_evaluated',
      'detection.no_multi_region_trail': 'not_evaluated',
      // Its status unknown, the trail is neither logging nor stopped: its home region is named as unread.
      'detection.trail_not_logging': 'pass',
      'detection.s3_write_events_not_logged': 'not_evaluated',
      'exposure.imdsv1_allowed': 'not_evaluated',
      'exposure.rds_public': 'not_evaluated',
      'billing.no_budget': 'not_evaluated',
    });
    expect(results['detection.guardduty_disabled']).not.toContain(`guardduty@${OTHER_REGION}`);
    expect(unreadBy(inventory, 'threat.guardduty_high_severity_finding')).toContain(OTHER_REGION);
    expect(unreadBy(inventory, 'detection.trail_not_logging')).toEqual([REGION]);
    expect(evaluate(inventory, 'billing.cost_anomaly')).toMatchObject({
      reason: expect.stringMatching(
        /^Whether a Cost Anomaly Detection monitor looks for anomalies is unknown: AWS denied Sentinel's role Cost Explorer GetAnomalyMonitors/,
      ),
    });
  });
});
