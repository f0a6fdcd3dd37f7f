import { CloudTrailClient, CreateTrailCommand, StartLoggingCommand } from '@aws-sdk/client-cloudtrail';
import { CloudWatchClient, PutMetricAlarmCommand } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient, CreateLogGroupCommand, PutMetricFilterCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  AttachGroupPolicyCommand,
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  CreateGroupCommand,
  CreateRoleCommand,
  CreateUserCommand,
  CreateVirtualMFADeviceCommand,
  EnableMFADeviceCommand,
  PutUserPolicyCommand,
  UploadServerCertificateCommand,
} from '@aws-sdk/client-iam';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { checkById } from '../../domain/checks/catalog';
import { MONITORED_ACTIVITIES } from '../../domain/checks/cis-metric-filters';
import type { Inventory } from '../../domain/scans/inventory';
import { ROLE_NAME } from '../../domain/onboarding/role';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  customerAccount,
  type CustomerAccount,
  customerConfig,
  motoDifferences,
  motoGaps,
  randomExternalId,
  REGION,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The identity-governance and CIS 5.x monitoring reads against moto: each test seeds a customer account through
// the SDK, creates Sentinel's role with the real CLI script and collects through the front (test/helpers/aws.ts),
// then runs the checks on what was collected.

const DAY_MS = 86_400_000;
const TRUST = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});
const INLINE = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: 's3:PutObject', Resource: '*' }],
});
const AWS_POLICY = (name: string) => `arn:aws:iam::aws:policy/${name}`;
// moto stores a certificate's body without reading it: any PEM-shaped text does.
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIBfake\n-----END PRIVATE KEY-----';
const LOG_GROUP = 'cloudtrail-management';

/** A check's outcome on the collected inventory: 'pass', 'not_evaluated' or its failing resources. */
function outcome(checkId: string, inventory: Inventory): string | string[] {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  return result.status === 'fail' ? result.resources.map((r) => r.resource).sort() : result.status;
}

/**
 * moto answers every server certificate as expiring on 2012-05-08, whatever its body says; AWS answers the
 * certificate's own expiration. The test answers with the expirations its certificates stand for.
 */
function withExpirations(expirations: Record<string, Date>) {
  return (request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined => {
    if (request.service !== 'iam' || request.operation !== 'ListServerCertificates')
      return motoDifferences(request, answer);
    const body = answer.body.replace(/<member>([\s\S]*?)<\/member>/g, (member: string) => {
      const name = /<ServerCertificateName>([^<]*)</.exec(member)?.[1] ?? '';
      const at = expirations[name];
      return at ? member.replace(/<Expiration>[^<]*</, `<Expiration>${at.toISOString()}<`) : member;
    });
    return { ...answer, body };
  };
}

/** What AWS lists for an account whose root user has a virtual MFA device (moto cannot assign one to root). */
function withRootVirtualMfa(accountId: string, rewrite: ReturnType<typeof withExpirations>) {
  return (request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined => {
    if (request.service !== 'iam' || request.operation !== 'ListVirtualMFADevices') return rewrite(request, answer);
    const root =
      `<member><SerialNumber>arn:aws:iam::${accountId}:mfa/root-account-mfa-device</SerialNumber>` +
      `<User><Arn>arn:aws:iam::${accountId}:root</Arn><UserId>${accountId}</UserId><CreateDate>2020-01-01T00:00:00Z</CreateDate></User>` +
      '<EnableDate>2020-01-01T00:00:00Z</EnableDate></member>';
    const body = answer.body.includes('<VirtualMFADevices/>')
      ? answer.body.replace('<VirtualMFADevices/>', `<VirtualMFADevices>${root}</VirtualMFADevices>`)
      : answer.body.replace('<VirtualMFADevices>', `<VirtualMFADevices>${root}`);
    return { ...answer, body };
  };
}

describe('identity governance and CIS 5.x monitoring reads against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  async function connected(): Promise<{
    customer: CustomerAccount;
    target: { tenantId: string; awsAccountId: string; roleName: string; externalId: string };
  }> {
    const customer = await customerAccount();
    return {
      customer,
      target: {
        tenantId: 'tnt_test',
        awsAccountId: customer.accountId,
        roleName: ROLE_NAME,
        externalId: randomExternalId(),
      },
    };
  }

  /** A multi-region trail, logging, that delivers to LOG_GROUP in us-east-1. */
  async function trailToCloudWatch(customer: CustomerAccount): Promise<void> {
    const bucket = uniqueName('trail-logs');
    await client(new S3Client({ ...customerConfig(customer), forcePathStyle: true })).send(
      new CreateBucketCommand({ Bucket: bucket }),
    );
    await client(new CloudWatchLogsClient(customerConfig(customer))).send(
      new CreateLogGroupCommand({ logGroupName: LOG_GROUP }),
    );
    const cloudtrail = client(new CloudTrailClient(customerConfig(customer)));
    await cloudtrail.send(
      new CreateTrailCommand({
        Name: 'management',
        S3BucketName: bucket,
        IsMultiRegionTrail: true,
        CloudWatchLogsLogGroupArn: `arn:aws:logs:${REGION}:${customer.accountId}:log-group:${LOG_GROUP}:*`,
        CloudWatchLogsRoleArn: `arn:aws:iam::${customer.accountId}:role/cloudtrail-to-logs`,
      }),
    );
    await cloudtrail.send(new StartLoggingCommand({ Name: 'management' }));
  }

  /** A metric filter for a CIS 5.x activity on LOG_GROUP, and an alarm on its metric (with or without an action). */
  async function alarmFor(
    customer: CustomerAccount,
    control: string,
    { actions }: { actions: boolean },
  ): Promise<void> {
    const activity = MONITORED_ACTIVITIES.find((a) => a.control === control)!;
    await client(new CloudWatchLogsClient(customerConfig(customer))).send(
      new PutMetricFilterCommand({
        logGroupName: LOG_GROUP,
        filterName: activity.resource,
        filterPattern: activity.recommended,
        metricTransformations: [{ metricName: activity.resource, metricNamespace: 'CISBenchmark', metricValue: '1' }],
      }),
    );
    await client(new CloudWatchClient(customerConfig(customer))).send(
      new PutMetricAlarmCommand({
        AlarmName: activity.resource,
        MetricName: activity.resource,
        Namespace: 'CISBenchmark',
        Statistic: 'Sum',
        Period: 300,
        EvaluationPeriods: 1,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmActions: actions ? [`arn:aws:sns:${REGION}:${customer.accountId}:security-alerts`] : [],
      }),
    );
  }

  it("finds policies of users' own, no support role, CloudShell access, an expired certificate, root's virtual MFA and unwatched activity", async () => {
    const { customer, target } = await connected();
    const { iam, accountId } = customer;
    await iam.send(new CreateUserCommand({ UserName: 'alice' }));
    await iam.send(new PutUserPolicyCommand({ UserName: 'alice', PolicyName: 'uploads', PolicyDocument: INLINE }));
    await iam.send(new CreateUserCommand({ UserName: 'bob' }));
    await iam.send(new AttachUserPolicyCommand({ UserName: 'bob', PolicyArn: AWS_POLICY('ReadOnlyAccess') }));
    await iam.send(new CreateGroupCommand({ GroupName: 'developers' }));
    await iam.send(
      new AttachGroupPolicyCommand({ GroupName: 'developers', PolicyArn: AWS_POLICY('AWSCloudShellFullAccess') }),
    );
    // A virtual MFA device of an IAM user is not the root user's.
    const { VirtualMFADevice } = await iam.send(new CreateVirtualMFADeviceCommand({ VirtualMFADeviceName: 'alice' }));
    await iam.send(
      new EnableMFADeviceCommand({
        UserName: 'alice',
        SerialNumber: VirtualMFADevice?.SerialNumber,
        AuthenticationCode1: '123456',
        AuthenticationCode2: '654321',
      }),
    );
    for (const name of ['expired-elb', 'current-elb']) {
      await iam.send(
        new UploadServerCertificateCommand({ ServerCertificateName: name, CertificateBody: PEM, PrivateKey: KEY }),
      );
    }
    await trailToCloudWatch(customer);
    await alarmFor(customer, '5.3', { actions: true });
    await alarmFor(customer, '5.4', { actions: false });
    // A billing alarm whose actions were switched off: it lists a topic and tells it nothing.
    await client(new CloudWatchClient(customerConfig(customer))).send(
      new PutMetricAlarmCommand({
        AlarmName: 'billing-over-budget',
        MetricName: 'EstimatedCharges',
        Namespace: 'AWS/Billing',
        Statistic: 'Maximum',
        Period: 21_600,
        EvaluationPeriods: 1,
        Threshold: 500,
        ComparisonOperator: 'GreaterThanThreshold',
        ActionsEnabled: false,
        AlarmActions: [`arn:aws:sns:${REGION}:${accountId}:billing`],
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });
    const now = Date.now();
    suite.front.rewrite = withRootVirtualMfa(
      accountId,
      withExpirations({
        'expired-elb': new Date(now - 10 * DAY_MS),
        'current-elb': new Date(now + 200 * DAY_MS),
      }),
    );

    const inventory = await suite.provider.collectInventory(target);

    const principals = ok(inventory.iamPrincipals);
    expect(principals.users.map((u) => [u.name, u.directPolicies])).toEqual([
      ['alice', ['uploads']],
      ['bob', ['ReadOnlyAccess']],
    ]);
    expect(principals.groups).toEqual([
      {
        name: 'developers',
        arn: `arn:aws:iam::${accountId}:group/developers`,
        managedPolicies: ['AWSCloudShellFullAccess'],
        fullAdminPolicies: [],
      },
    ]);
    expect(
      ok(inventory.serverCertificates)
        .certificates.map((c) => c.name)
        .sort(),
    ).toEqual(['current-elb', 'expired-elb']);
    expect(ok(inventory.rootVirtualMfa)).toEqual({
      serialNumber: `arn:aws:iam::${accountId}:mfa/root-account-mfa-device`,
      userArns: [`arn:aws:iam::${accountId}:user/alice`],
    });
    expect(ok(inventory.cloudtrail).trails).toEqual([
      expect.objectContaining({
        name: 'management',
        homeRegion: REGION,
        multiRegion: true,
        logging: true,
        cloudWatchLogsLogGroupArn: `arn:aws:logs:${REGION}:${accountId}:log-group:${LOG_GROUP}:*`,
      }),
    ]);
    const { filters, alarmedMetrics, silentAlarms } = ok(inventory.metricAlarms);
    expect(filters.map((f) => [f.region, f.logGroup, f.name]).sort()).toEqual([
      [REGION, LOG_GROUP, 'cis-5.3-root-usage'],
      [REGION, LOG_GROUP, 'cis-5.4-iam-policy-changes'],
    ]);
    // The 5.4 alarm notifies nobody: only the 5.3 metric counts as alarmed.
    expect(alarmedMetrics).toEqual([{ region: REGION, name: 'cis-5.3-root-usage', namespace: 'CISBenchmark' }]);
    const alarmArn = (name: string) => `arn:aws:cloudwatch:${REGION}:${accountId}:alarm:${name}`;
    expect(silentAlarms.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      {
        name: 'billing-over-budget',
        arn: alarmArn('billing-over-budget'),
        region: REGION,
        actionsEnabled: false,
        alarmActions: 1,
      },
      {
        name: 'cis-5.4-iam-policy-changes',
        arn: alarmArn('cis-5.4-iam-policy-changes'),
        region: REGION,
        actionsEnabled: true,
        alarmActions: 0,
      },
    ]);
    expect(outcome('detection.cloudwatch_alarm_actions_disabled', inventory)).toEqual([
      alarmArn('billing-over-budget'),
    ]);
    expect(outcome('detection.cloudwatch_alarm_without_alarm_actions', inventory)).toEqual([
      alarmArn('cis-5.4-iam-policy-changes'),
    ]);

    expect(outcome('iam.user_direct_policies', inventory)).toEqual([
      `arn:aws:iam::${accountId}:user/alice`,
      `arn:aws:iam::${accountId}:user/bob`,
    ]);
    expect(outcome('iam.no_support_role', inventory)).toEqual(['support-role']);
    expect(outcome('iam.cloudshell_full_access', inventory)).toEqual([`arn:aws:iam::${accountId}:group/developers`]);
    expect(outcome('iam.expired_server_certificates', inventory)).toEqual([
      `arn:aws:iam::${accountId}:server-certificate/expired-elb`,
    ]);
    expect(outcome('detection.cis_metric_alarms_missing', inventory)).toEqual(
      MONITORED_ACTIVITIES.filter((a) => a.control !== '5.3')
        .map((a) => a.resource)
        .sort(),
    );
    const iamOperations = new Set(suite.front.requests.filter((r) => r.service === 'iam').map((r) => r.operation));
    expect([...iamOperations]).toEqual(expect.arrayContaining(['ListServerCertificates', 'ListVirtualMFADevices']));
  });

  it('passes a clean account: permissions through groups, a support role, every CIS 5.x activity alarmed', async () => {
    const { customer, target } = await connected();
    const { iam } = customer;
    await iam.send(new CreateGroupCommand({ GroupName: 'readers' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'readers', PolicyArn: AWS_POLICY('ReadOnlyAccess') }));
    await iam.send(new CreateUserCommand({ UserName: 'carol' }));
    await iam.send(new CreateRoleCommand({ RoleName: 'incident-support', AssumeRolePolicyDocument: TRUST }));
    await iam.send(
      new AttachRolePolicyCommand({ RoleName: 'incident-support', PolicyArn: AWS_POLICY('AWSSupportAccess') }),
    );
    await iam.send(
      new UploadServerCertificateCommand({
        ServerCertificateName: 'current-elb',
        CertificateBody: PEM,
        PrivateKey: KEY,
      }),
    );
    await trailToCloudWatch(customer);
    for (const { control } of MONITORED_ACTIVITIES) await alarmFor(customer, control, { actions: true });
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.rewrite = withExpirations({ 'current-elb': new Date(Date.now() + 200 * DAY_MS) });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.rootVirtualMfa)).toEqual({ serialNumber: null, userArns: [] });
    expect(ok(inventory.metricAlarms).alarmedMetrics).toHaveLength(MONITORED_ACTIVITIES.length);
    for (const id of [
      'iam.user_direct_policies',
      'iam.no_support_role',
      'iam.cloudshell_full_access',
      'iam.expired_server_certificates',
      'detection.cis_metric_alarms_missing',
      'detection.cloudwatch_alarm_actions_disabled',
      'detection.cloudwatch_alarm_without_alarm_actions',
    ])
      expect([id, outcome(id, inventory)]).toEqual([id, 'pass']);
  });

  it('leaves the controls whose log group lives in a refused region unknown, not failed', async () => {
    const { customer, target } = await connected();
    await trailToCloudWatch(customer);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) =>
      (request.service === 'logs' || request.service === 'monitoring') && request.region === REGION
        ? accessDenied(request)
        : motoGaps(request);

    const inventory = await suite.provider.collectInventory(target);

    expect(inventory.metricAlarms.unread).toEqual([
      {
        kind: 'region',
        scope: REGION,
        reason: expect.stringMatching(
          /^AWS denied Sentinel's role CloudWatch( Logs)? Describe(MetricFilters|Alarms) \(AccessDenied\)/,
        ),
      },
    ]);
    const result = checkById('detection.cis_metric_alarms_missing')!.evaluate(inventory, {
      now: inventory.collectedAt,
    });
    expect(result).toMatchObject({
      status: 'not_evaluated',
      reason: expect.stringContaining(`${LOG_GROUP} (${REGION})`),
    });
  });
});
