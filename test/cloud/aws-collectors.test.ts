import { BudgetsClient, CreateBudgetCommand } from '@aws-sdk/client-budgets';
import { CloudTrailClient, CreateTrailCommand, StartLoggingCommand } from '@aws-sdk/client-cloudtrail';
import { AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateDetectorCommand, GuardDutyClient } from '@aws-sdk/client-guardduty';
import { CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import {
  AddUserToGroupCommand,
  AttachGroupPolicyCommand,
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  CreateAccessKeyCommand,
  CreateGroupCommand,
  CreateLoginProfileCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  CreateUserCommand,
  PutRolePolicyCommand,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { READERS } from '../../cloud/aws/collectors';
import { createAwsProvider } from '../../cloud/aws/provider';
import { type CloudProvider, IncompleteCollectionError, RoleUnavailableError } from '../../cloud/types';
import { createLogger } from '../../config/logger';
import type { Collected, Inventory, PartName } from '../../domain/scans/inventory';
import { ROLE_NAME, type RoleTarget, roleArn } from '../../domain/onboarding/role';
import type { Checkpoint, ReadOutcome } from '../../domain/scans/scan-progress';
import {
  accessDenied,
  type AwsFront,
  type AwsRequest,
  createSentinelRole,
  customerAccount,
  type CustomerAccount,
  customerConfig,
  jsonError,
  MOTO_ACCOUNT_ID,
  motoDifferences,
  motoEndpoint,
  motoGaps,
  queryError,
  queueCostAndUsage,
  randomExternalId,
  REGION,
  startAwsFront,
  TEST_CREDENTIALS,
} from '../helpers/aws';
import { SUITE_REGIONS, uniqueName } from '../helpers/collector-suite';
import { outcome } from '../helpers/inventory';

// Each test seeds a fresh customer account through the SDK, creates Sentinel's role in it with the real CLI
// script, and collects through a front to moto (test/helpers/aws.ts) that fills moto's gaps and can refuse,
// throttle or fail calls the way AWS would, and counts them.

const log = createLogger({ level: 'silent', name: 'test' });
const ADMINISTRATOR_ACCESS = 'arn:aws:iam::aws:policy/AdministratorAccess';
const statement = (extra: Record<string, unknown>) =>
  JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Resource: '*', ...extra }] });
const EVERYTHING = statement({ Action: '*' });
const REGIONAL_PARTS = [
  'securityGroups',
  'instances',
  'publicSnapshots',
  'publicImages',
  'cloudtrail',
  'guardduty',
  'metricAlarms',
  'configRecorders',
  'securityHub',
  'accessAnalyzers',
  'ebsEncryptionByDefault',
  'networkAcls',
  'vpcFlowLogs',
  'rdsInstances',
  'efsFileSystems',
  'kmsKeys',
] as const;

function ok<T>(part: Collected<T>): T {
  if (part.status !== 'ok') throw new Error(`not evaluated: ${part.reason}`);
  return part.value;
}

/** The parts of an inventory that are not fully read: not evaluated, or with unread regions or resources. */
function incomplete(inventory: Inventory): Record<string, string> {
  return Object.fromEntries(
    Object.entries(inventory).flatMap(([name, part]: [string, unknown]) => {
      if (typeof part !== 'object' || part === null || !('status' in part)) return [];
      const collected = part as Collected<unknown>;
      if (collected.status === 'not_evaluated') return [[name, 'not_evaluated']];
      return collected.unread?.length ? [[name, collected.unread.map((u) => u.scope).join(',')]] : [];
    }),
  );
}

async function connectedCustomer(): Promise<{ customer: CustomerAccount; target: RoleTarget }> {
  const customer = await customerAccount();
  const target = {
    tenantId: 'tnt_test',
    awsAccountId: customer.accountId,
    roleName: ROLE_NAME,
    externalId: randomExternalId(),
  };
  return { customer, target };
}

describe('AWS inventory collection against moto', () => {
  let front: AwsFront;
  let provider: CloudProvider;
  const clients: { destroy(): void }[] = [];
  const client = <C extends { destroy(): void }>(c: C): C => {
    clients.push(c);
    return c;
  };
  const providerWith = (options: { maxAttempts?: number; renewBeforeMs?: number; endpointUrl?: string } = {}) =>
    createAwsProvider({
      region: REGION,
      endpointUrl: front.endpoint,
      sentinelAccountId: MOTO_ACCOUNT_ID,
      credentials: TEST_CREDENTIALS,
      log,
      maxAttempts: 2,
      ...options,
    });
  /** Requests made with the customer role's credentials (everything but Sentinel's own STS calls). */
  const calls = (match: (r: AwsRequest) => boolean) => front.requests.filter(match).length;

  beforeAll(async () => {
    front = await startAwsFront();
    // The customers have a few regions enabled (one more than the collector suites', for the failing read's test);
    // the read of moto's every region is the last test's, with no front.
    front.enabledRegions = [...SUITE_REGIONS, 'us-west-1'];
    provider = providerWith();
  });
  beforeEach(() => {
    front.answer = motoGaps;
    front.rewrite = motoDifferences;
    front.delay = () => 0;
    front.requests.length = 0;
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await front.close();
  });

  it('collects the misconfigurations of an account, and only those', async () => {
    const { customer, target } = await connectedCustomer();
    const iam = customer.iam;
    await iam.send(new CreateUserCommand({ UserName: 'alice' }));
    await iam.send(new CreateLoginProfileCommand({ UserName: 'alice', Password: 'Correct-Horse-9' }));
    await iam.send(new AttachUserPolicyCommand({ UserName: 'alice', PolicyArn: ADMINISTRATOR_ACCESS }));
    const { AccessKey } = await iam.send(new CreateAccessKeyCommand({ UserName: 'alice' }));
    const bucket = uniqueName('public');
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    await s3.send(new CreateBucketCommand({ Bucket: bucket, ACL: 'public-read' }));
    const ec2 = client(new EC2Client(customerConfig(customer)));
    const { GroupId } = await ec2.send(
      new CreateSecurityGroupCommand({ GroupName: 'ssh-open', Description: 'ssh from anywhere' }),
    );
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });
    const progress: string[] = [];

    const inventory = await provider.collectInventory(target, { onProgress: ({ last }) => progress.push(last) });

    const aliceArn = `arn:aws:iam::${customer.accountId}:user/alice`;
    expect(ok(inventory.iamSummary)).toEqual({
      rootMfaEnabled: false,
      rootAccessKeysPresent: false,
      rootPasswordPresent: null,
    });
    expect(ok(inventory.passwordPolicy)).toEqual({ policy: null });
    expect(ok(inventory.iamPrincipals)).toMatchObject({
      users: [
        {
          name: 'alice',
          arn: aliceArn,
          adminAccess: true,
          managedPolicies: ['AdministratorAccess'],
          accessKeys: [{ id: AccessKey?.AccessKeyId, status: 'Active' }],
        },
      ],
      roles: [],
    });
    const report = ok(inventory.credentialReport);
    expect(report.users).toEqual([
      {
        arn: aliceArn,
        passwordEnabled: true,
        // moto dates the password from the user's creation and records no sign-in.
        passwordLastUsedAt: null,
        passwordLastChangedAt: expect.any(String),
        mfaActive: false,
        keys: [{ active: true, lastRotatedAt: expect.any(String), lastUsedAt: null }],
      },
    ]);
    expect(report.root).toEqual({ lastUsedAt: '2020-06-01T00:00:00.000Z' });
    expect(ok(inventory.s3AccountBlockPublicAccess)).toEqual({ settings: null });
    expect(ok(inventory.s3Buckets)).toEqual({
      buckets: [
        {
          name: bucket,
          region: 'us-east-1',
          publicViaAcl: true,
          publicViaPolicy: false,
          blockPublicAccess: null,
          deniesInsecureTransport: false,
          publicAclPermissions: ['READ'],
          publicWriteStatements: [],
          crossAccountPrincipals: [],
        },
      ],
    });
    expect(ok(inventory.securityGroups).groups).toEqual([
      {
        id: GroupId,
        name: 'ssh-open',
        region: 'us-east-1',
        openIngress: [{ protocol: 'tcp', fromPort: 22, toPort: 22, cidr: '0.0.0.0/0' }],
        wideRanges: [],
      },
    ]);
    expect(ok(inventory.instances)).toEqual({ instances: [] });
    expect(ok(inventory.publicSnapshots)).toEqual({ snapshots: [] });
    expect(ok(inventory.publicImages)).toEqual({ images: [] });
    expect(ok(inventory.cloudtrail)).toEqual({ trails: [] });
    expect(ok(inventory.budgets)).toEqual({ budgets: [] });
    expect(
      ok(inventory.guardduty)
        .regions.map((r) => r.region)
        .sort(),
    ).toEqual(inventory.regions.enabled);
    expect(ok(inventory.guardduty).regions.filter((r) => r.detectorEnabled)).toEqual([]);
    expect(ok(inventory.alternateContacts)).toEqual({ security: false, billing: false, operations: false });
    expect(inventory.health).toEqual({
      status: 'not_evaluated',
      reason: 'AWS Health needs a Business or Enterprise support plan',
    });
    expect(inventory.regions.enabled).toContain('us-east-1');
    expect(incomplete(inventory)).toEqual({ health: 'not_evaluated' });
    // One read per global part, one per regional part and region, and the region list.
    const regionalParts = READERS.filter((r) => r.scope === 'regional').length;
    expect(progress).toHaveLength(
      1 + (READERS.length - regionalParts) + regionalParts * inventory.regions.enabled.length,
    );
    // No per-user calls but ListAccessKeys: password, MFA and key use come from the credential report. One
    // GetPolicyVersion per attached AWS managed policy (alice's AdministratorAccess, and Sentinel's own role's
    // SecurityAudit and ViewOnlyAccess).
    const iamOperations = new Set(front.requests.filter((r) => r.service === 'iam').map((r) => r.operation));
    expect([...iamOperations].sort()).toEqual([
      'GenerateCredentialReport',
      'GetAccountAuthorizationDetails',
      'GetAccountPasswordPolicy',
      'GetAccountSummary',
      'GetCredentialReport',
      'GetPolicyVersion',
      'ListAccessKeys',
      'ListInstanceProfiles',
      'ListPolicies',
      'ListServerCertificates',
      'ListServiceSpecificCredentials',
      'ListVirtualMFADevices',
    ]);
  });

  it('finds none of them in a clean account with a logging trail and a budget', async () => {
    const { customer, target } = await connectedCustomer();
    const logs = uniqueName('trail-logs');
    await client(new S3Client({ ...customerConfig(customer), forcePathStyle: true })).send(
      new CreateBucketCommand({ Bucket: logs }),
    );
    const cloudtrail = client(new CloudTrailClient(customerConfig(customer)));
    await cloudtrail.send(new CreateTrailCommand({ Name: 'everywhere', S3BucketName: logs, IsMultiRegionTrail: true }));
    await cloudtrail.send(new StartLoggingCommand({ Name: 'everywhere' }));
    await client(new BudgetsClient(customerConfig(customer))).send(
      new CreateBudgetCommand({
        AccountId: customer.accountId,
        Budget: {
          BudgetName: 'monthly',
          BudgetType: 'COST',
          TimeUnit: 'MONTHLY',
          BudgetLimit: { Amount: '100', Unit: 'USD' },
        },
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await provider.collectInventory(target);

    expect(ok(inventory.iamPrincipals)).toMatchObject({ users: [], roles: [] });
    expect(ok(inventory.s3Buckets).buckets).toEqual([
      {
        name: logs,
        region: 'us-east-1',
        publicViaAcl: false,
        publicViaPolicy: false,
        blockPublicAccess: null,
        deniesInsecureTransport: false,
        publicAclPermissions: [],
        publicWriteStatements: [],
        crossAccountPrincipals: [],
      },
    ]);
    expect(ok(inventory.securityGroups).groups).toEqual([]);
    // Seen from every region (a multi-region trail shows in each), listed once, its status asked of its home region.
    expect(ok(inventory.cloudtrail)).toEqual({
      trails: [
        expect.objectContaining({
          name: 'everywhere',
          homeRegion: 'us-east-1',
          multiRegion: true,
          logging: true,
          cloudWatchLogsLogGroupArn: null,
        }),
      ],
    });
    expect(calls((r) => r.service === 'cloudtrail' && r.operation?.endsWith('GetTrailStatus') === true)).toBe(1);
    expect(ok(inventory.budgets)).toEqual({
      budgets: [
        {
          name: 'monthly',
          limitUsd: 100,
          actualSpendUsd: expect.any(Number),
          forecastedSpendUsd: expect.anything(),
          // A budget without alerts: test/cloud/aws-collectors-empty-answers.test.ts has one that alerts.
          alerts: { read: true, notifies: false },
        },
      ],
    });
  });

  it('tells administrators by *, iam:* and a NotAction that leaves IAM in, through groups, inline and customer policies', async () => {
    const { customer, target } = await connectedCustomer();
    const iam = customer.iam;
    const { Policy } = await iam.send(
      new CreatePolicyCommand({ PolicyName: 'everything', PolicyDocument: EVERYTHING }),
    );
    await iam.send(new CreateGroupCommand({ GroupName: 'admins' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'admins', PolicyArn: ADMINISTRATOR_ACCESS }));
    const users = [
      'via-group',
      'via-inline',
      'via-managed',
      'iam-star',
      'not-action',
      'power-user',
      'iam-full',
      'reader',
    ];
    for (const name of users) await iam.send(new CreateUserCommand({ UserName: name }));
    await iam.send(new AddUserToGroupCommand({ GroupName: 'admins', UserName: 'via-group' }));
    await iam.send(new PutUserPolicyCommand({ UserName: 'via-inline', PolicyName: 'all', PolicyDocument: EVERYTHING }));
    await iam.send(new AttachUserPolicyCommand({ UserName: 'via-managed', PolicyArn: Policy?.Arn }));
    await iam.send(
      new PutUserPolicyCommand({
        UserName: 'iam-star',
        PolicyName: 'iam',
        PolicyDocument: statement({ Action: ['s3:GetObject', 'IAM:*'] }),
      }),
    );
    await iam.send(
      new PutUserPolicyCommand({
        UserName: 'not-action',
        PolicyName: 'most',
        PolicyDocument: statement({ NotAction: ['s3:DeleteBucket'] }),
      }),
    );
    await iam.send(
      new AttachUserPolicyCommand({ UserName: 'power-user', PolicyArn: 'arn:aws:iam::aws:policy/PowerUserAccess' }),
    );
    await iam.send(
      new AttachUserPolicyCommand({ UserName: 'iam-full', PolicyArn: 'arn:aws:iam::aws:policy/IAMFullAccess' }),
    );
    await iam.send(
      new AttachUserPolicyCommand({ UserName: 'reader', PolicyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' }),
    );
    await iam.send(
      new AttachUserPolicyCommand({
        UserName: 'reader',
        PolicyArn: 'arn:aws:iam::aws:policy/AWSCompromisedKeyQuarantineV3',
      }),
    );
    const trust = JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    });
    await iam.send(new CreateRoleCommand({ RoleName: 'deployer', AssumeRolePolicyDocument: trust }));
    await iam.send(new PutRolePolicyCommand({ RoleName: 'deployer', PolicyName: 'all', PolicyDocument: EVERYTHING }));
    await iam.send(new CreateRoleCommand({ RoleName: 'auditor', AssumeRolePolicyDocument: trust }));
    await iam.send(
      new AttachRolePolicyCommand({ RoleName: 'auditor', PolicyArn: 'arn:aws:iam::aws:policy/SecurityAudit' }),
    );
    await iam.send(
      new CreateRoleCommand({
        RoleName: 'AWSServiceRoleForSupport',
        Path: '/aws-service-role/support.amazonaws.com/',
        AssumeRolePolicyDocument: trust,
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });

    const principals = ok((await provider.collectInventory(target)).iamPrincipals);

    expect(Object.fromEntries(principals.users.map((u) => [u.name, u.adminAccess]))).toEqual({
      'via-group': true,
      'via-inline': true,
      'via-managed': true,
      'iam-star': true,
      'not-action': true,
      'iam-full': true,
      'power-user': false,
      reader: false,
    });
    expect(principals.users.find((u) => u.name === 'reader')?.managedPolicies.sort()).toEqual([
      'AWSCompromisedKeyQuarantineV3',
      'ReadOnlyAccess',
    ]);
    expect(principals.roles.map((r) => [r.name, r.adminAccess]).sort()).toEqual([
      ['auditor', false],
      ['deployer', true],
    ]);
  });

  it("reads the usage-only daily costs queued in moto's Cost Explorer", async () => {
    const { customer, target } = await connectedCustomer();
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const amounts = [12, 11, 13, 12, 12, 11, 12, 13, 12, 12, 11, 12, 12, 480];
    await queueCostAndUsage({
      accountId: customer.accountId,
      results: [
        {
          ResultsByTime: amounts.map((amount, i) => ({
            TimePeriod: { Start: day(14 - i), End: day(13 - i) },
            Total: { UnblendedCost: { Amount: String(amount), Unit: 'USD' } },
            Groups: [],
            Estimated: false,
          })),
          DimensionValueAttributes: [],
        },
      ],
    });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await provider.collectInventory(target);

    expect(ok(inventory.costs).daily).toEqual(amounts.map((amountUsd, i) => ({ date: day(14 - i), amountUsd })));
    const [request] = front.requests.filter((r) => r.service === 'ce' && r.operation === 'GetCostAndUsage');
    expect(JSON.parse(request!.body).Filter).toEqual({ Dimensions: { Key: 'RECORD_TYPE', Values: ['Usage'] } });
  });

  it("keeps only this account's GuardDuty findings (a delegated administrator sees its members'), and maps anomalies", async () => {
    const { customer, target } = await connectedCustomer();
    await client(new GuardDutyClient(customerConfig(customer, 'eu-west-1'))).send(
      new CreateDetectorCommand({ Enable: true }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });
    const finding = {
      id: 'f-1',
      type: 'UnauthorizedAccess:EC2/SSHBruteForce',
      severity: 8,
      title: 'SSH brute force against i-0abc',
    };
    const gdFinding = (id: string, accountId: string) => ({
      ...finding,
      id,
      accountId,
      region: 'eu-west-1',
      arn: `arn:${id}`,
      schemaVersion: '2.0',
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      resource: {},
    });
    front.answer = (request) => {
      if (request.service === 'guardduty' && request.path.endsWith('/findings')) {
        return {
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ findingIds: ['f-1', 'f-member'] }),
        };
      }
      if (request.service === 'guardduty' && request.path.endsWith('/findings/get')) {
        return {
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({
            findings: [gdFinding('f-1', customer.accountId), gdFinding('f-member', '999988887777')],
          }),
        };
      }
      if (request.service === 'ce' && request.operation === 'GetAnomalies') {
        return {
          status: 200,
          contentType: 'application/x-amz-json-1.1',
          body: JSON.stringify({
            Anomalies: [
              {
                AnomalyId: 'a-1',
                AnomalyStartDate: '2026-01-10',
                DimensionValue: 'Amazon EC2',
                MonitorArn: 'arn:m',
                Impact: { MaxImpact: 300, TotalImpact: 450 },
                AnomalyScore: { MaxScore: 1, CurrentScore: 1 },
                RootCauses: [{ Service: 'Amazon Elastic Compute Cloud - Compute', Region: 'us-east-1' }],
              },
            ],
          }),
        };
      }
      return motoGaps(request);
    };

    const inventory = await provider.collectInventory(target);

    const regions = ok(inventory.guardduty).regions;
    expect(regions.find((r) => r.region === 'eu-west-1')).toEqual({
      region: 'eu-west-1',
      detectorEnabled: true,
      highSeverityFindings: [finding],
      features: {},
    });
    expect(regions.filter((r) => r.detectorEnabled)).toHaveLength(1);
    const [listFindings] = front.requests.filter((r) => r.service === 'guardduty' && r.path.endsWith('/findings'));
    expect(JSON.parse(listFindings!.body).findingCriteria.criterion.accountId).toEqual({
      equals: [customer.accountId],
    });
    expect(ok(inventory.anomalies)).toEqual({
      anomalies: [
        { id: 'a-1', impactUsd: 450, startDate: '2026-01-10', service: 'Amazon Elastic Compute Cloud - Compute' },
      ],
    });
  });

  it("reads AWS Health's open events on a Business support plan, page by page; the checks judge them by category", async () => {
    const { customer, target } = await connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    const started = Date.UTC(2026, 2, 15, 10, 40) / 1000;
    const healthEvent = (service: string, code: string, category: string, region: string, statusCode = 'open') => ({
      arn: `arn:aws:health:${region}::event/${service}/${code}/${code}_1`,
      service,
      eventTypeCode: code,
      eventTypeCategory: category,
      region,
      startTime: started,
      statusCode,
      eventScopeCode: 'ACCOUNT_SPECIFIC',
    });
    const pages: Record<string, unknown> = {
      '': {
        events: [
          healthEvent('RISK', 'AWS_RISK_CREDENTIALS_COMPROMISED', 'issue', 'global'),
          healthEvent(
            'EC2',
            'AWS_EC2_INSTANCE_REBOOT_MAINTENANCE_SCHEDULED',
            'scheduledChange',
            'eu-west-1',
            'upcoming',
          ),
        ],
        nextToken: 'page-2',
      },
      'page-2': { events: [healthEvent('ABUSE', 'AWS_ABUSE_DOS_REPORT', 'issue', 'global')] },
    };
    front.answer = (request) =>
      request.service === 'health' && request.operation === 'DescribeEvents'
        ? {
            status: 200,
            contentType: 'application/x-amz-json-1.1',
            body: JSON.stringify(pages[(JSON.parse(request.body) as { nextToken?: string }).nextToken ?? '']),
          }
        : motoGaps(request);

    const inventory = await provider.collectInventory(target);

    const startTime = new Date(started * 1000).toISOString();
    expect(ok(inventory.health).events).toEqual([
      {
        arn: 'arn:aws:health:global::event/RISK/AWS_RISK_CREDENTIALS_COMPROMISED/AWS_RISK_CREDENTIALS_COMPROMISED_1',
        eventTypeCode: 'AWS_RISK_CREDENTIALS_COMPROMISED',
        service: 'RISK',
        region: 'global',
        startTime,
        statusCode: 'open',
      },
      expect.objectContaining({ service: 'EC2', statusCode: 'upcoming' }),
      expect.objectContaining({ service: 'ABUSE', eventTypeCode: 'AWS_ABUSE_DOS_REPORT' }),
    ]);
    // Open and upcoming events only: closed ones are history.
    const asked = front.requests.filter((r) => r.service === 'health').map((r) => JSON.parse(r.body));
    expect(asked).toEqual([
      { filter: { eventStatusCodes: ['open', 'upcoming'] } },
      { filter: { eventStatusCodes: ['open', 'upcoming'] }, nextToken: 'page-2' },
    ]);
    // The checks read the service category: the compromised key (whose code never says EXPOSED) is a risk, the
    // abuse report is abuse, the EC2 maintenance is neither.
    expect(outcome('suspension.health_credentials_exposed', inventory)).toEqual([
      'arn:aws:health:global::event/RISK/AWS_RISK_CREDENTIALS_COMPROMISED/AWS_RISK_CREDENTIALS_COMPROMISED_1@global',
    ]);
    expect(outcome('suspension.health_abuse_event', inventory)).toEqual([
      'arn:aws:health:global::event/ABUSE/AWS_ABUSE_DOS_REPORT/AWS_ABUSE_DOS_REPORT_1@global',
    ]);
  });

  it("reads a planned budget's amount for the current period, and no amount for a budget without one", async () => {
    const { customer, target } = await connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    const monthStart = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) / 1000;
    const budget = (name: string, limits: Record<string, unknown>) => ({
      BudgetName: name,
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      ...limits,
      CalculatedSpend: { ActualSpend: { Amount: '900', Unit: 'USD' } },
    });
    front.answer = (request) =>
      request.service === 'budgets' && request.operation === 'DescribeNotificationsForBudget'
        ? { status: 200, contentType: 'application/x-amz-json-1.1', body: JSON.stringify({ Notifications: [] }) }
        : request.service === 'budgets'
          ? {
              status: 200,
              contentType: 'application/x-amz-json-1.1',
              body: JSON.stringify({
                Budgets: [
                  budget('planned', {
                    PlannedBudgetLimits: {
                      [String(monthStart - 31 * 86_400)]: { Amount: '100', Unit: 'USD' },
                      [String(monthStart)]: { Amount: '500', Unit: 'USD' },
                      [String(monthStart + 40 * 86_400)]: { Amount: '5000', Unit: 'USD' },
                    },
                  }),
                  budget('tracking-only', {}),
                ],
              }),
            }
          : motoGaps(request);

    const inventory = await provider.collectInventory(target);

    expect(ok(inventory.budgets).budgets.map((b) => [b.name, b.limitUsd])).toEqual([
      ['planned', 500],
      ['tracking-only', null],
    ]);
  });

  it('leaves unread only what AWS refused: one region of EC2 and GuardDuty, one bucket', async () => {
    const { customer, target } = await connectedCustomer();
    const [readable, guarded] = [uniqueName('readable'), uniqueName('guarded')];
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    await s3.send(new CreateBucketCommand({ Bucket: readable, ACL: 'public-read' }));
    await s3.send(new CreateBucketCommand({ Bucket: guarded }));
    const ec2 = client(new EC2Client(customerConfig(customer, 'eu-west-2')));
    const { GroupId } = await ec2.send(
      new CreateSecurityGroupCommand({ GroupName: 'hidden', Description: 'in a denied region' }),
    );
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });
    // What a region-deny SCP and a bucket policy that denies everyone else make AWS answer (moto enforces neither).
    front.answer = (request) => {
      if ((request.service === 'ec2' || request.service === 'guardduty') && request.region === 'eu-west-2')
        return accessDenied(request);
      if (request.service === 's3' && request.path.startsWith(`/${guarded}`)) return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await provider.collectInventory(target);

    const notEc2OrGuardDuty = [
      'cloudtrail',
      'metricAlarms',
      'configRecorders',
      'securityHub',
      'accessAnalyzers',
      'rdsInstances',
      'efsFileSystems',
      'kmsKeys',
    ];
    const refused = REGIONAL_PARTS.filter((p) => !notEc2OrGuardDuty.includes(p));
    const expected = Object.fromEntries([
      ...refused.map((p) => [p, 'eu-west-2']),
      ['instanceUserData', 'eu-west-2'],
      ['launchTemplates', 'eu-west-2'],
      // The network topology of the attack-path analysis reads the region's subnets, routes and ACLs.
      ['networkTopology', 'eu-west-2'],
      // EC2's other reads: the instance metadata defaults, subnets, transit gateways, endpoints, volumes, snapshots
      // and Elastic IPs.
      ...[
        'instanceMetadataDefaults',
        'publicIpSubnets',
        'transitGateways',
        'vpcEndpoints',
        'ebsVolumes',
        'ebsSnapshots',
        'ebsSnapshotBlockPublicAccess',
        'elasticIps',
      ].map((p) => [p, 'eu-west-2']),
      ['s3Buckets', guarded],
      ['health', 'not_evaluated'],
    ]);
    expect(incomplete(inventory)).toEqual(expected);
    expect(inventory.securityGroups.unread).toEqual([
      {
        kind: 'region',
        scope: 'eu-west-2',
        reason: expect.stringMatching(
          /^AWS denied Sentinel's role EC2 DescribeSecurityGroups \(UnauthorizedOperation\)/,
        ),
      },
    ]);
    expect(inventory.s3Buckets.unread).toEqual([
      { kind: 'resource', scope: guarded, reason: expect.stringContaining("AWS denied Sentinel's role S3") },
    ]);
    expect(ok(inventory.s3Buckets).buckets.map((b) => [b.name, b.publicViaAcl])).toEqual([[readable, true]]);
    expect(ok(inventory.s3AccountBlockPublicAccess)).toEqual({ settings: null });
    expect(ok(inventory.guardduty).regions.map((r) => r.region)).not.toContain('eu-west-2');
    expect(ok(inventory.guardduty).regions).toHaveLength(inventory.regions.enabled.length - 1);
  });

  it('makes a part refused everywhere "not evaluated", with the call, and still reads the others', async () => {
    const { customer, target } = await connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    front.answer = (request) => {
      if (request.service === 'ec2' && request.operation === 'DescribeSnapshots') return accessDenied(request);
      if (request.service === 'budgets')
        return jsonError(400, 'AccessDeniedException', 'not authorized to perform: budgets:ViewBudget');
      return motoGaps(request);
    };

    const inventory = await provider.collectInventory(target);

    expect(inventory.publicSnapshots).toEqual({
      status: 'not_evaluated',
      reason: expect.stringMatching(/^AWS denied Sentinel's role EC2 DescribeSnapshots \(UnauthorizedOperation\)/),
      unread: inventory.regions.enabled.map((region) => ({
        kind: 'region',
        scope: region,
        reason: expect.any(String),
      })),
    });
    expect(inventory.budgets).toEqual({
      status: 'not_evaluated',
      reason: expect.stringContaining('Budgets DescribeBudgets (AccessDenied)'),
    });
    expect(incomplete(inventory)).toEqual({
      publicSnapshots: 'not_evaluated',
      // The same DescribeSnapshots call lists the account's own snapshots for their encryption.
      ebsSnapshots: 'not_evaluated',
      budgets: 'not_evaluated',
      health: 'not_evaluated',
    });
  });

  it('absorbs throttling: the first IAM calls answered Throttling, and every part is read', async () => {
    const { customer, target } = await connectedCustomer();
    await customer.iam.send(new CreateUserCommand({ UserName: 'bob' }));
    await createSentinelRole({ customer, externalId: target.externalId });
    let throttled = 0;
    front.answer = (request) => {
      if (request.service === 'iam' && throttled < 6) {
        throttled += 1;
        return queryError({ service: 'iam', status: 400, code: 'Throttling', message: 'Rate exceeded' });
      }
      return motoGaps(request);
    };

    const inventory = await providerWith({ maxAttempts: 8 }).collectInventory(target);

    expect(throttled).toBe(6);
    expect(incomplete(inventory)).toEqual({ health: 'not_evaluated' });
    expect(ok(inventory.iamPrincipals).users.map((u) => u.name)).toEqual(['bob']);
  });

  it('stops when its attempt is given up: no call starts after the abort, and the next attempt reads only the rest', async () => {
    const { customer, target } = await connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    const checkpoint: Checkpoint = {};
    const controller = new AbortController();
    const first = provider.collectInventory(target, {
      finalAttempt: false,
      signal: controller.signal,
      onRead: (key, outcome) => {
        checkpoint[key] = outcome;
        if (Object.keys(checkpoint).length === 5) controller.abort();
      },
    });
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    const firstKeys = Object.keys(checkpoint);
    const callsWhenStopped = front.requests.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(front.requests.length).toBe(callsWhenStopped); // nothing goes on reading in the background

    const rest: string[] = [];
    await provider.collectInventory(target, { checkpoint, finalAttempt: false, onRead: (key) => rest.push(key) });
    expect(rest.filter((key) => firstKeys.includes(key))).toEqual([]);
    const whole: string[] = [];
    await provider.collectInventory(target, { finalAttempt: false, onRead: (key) => whole.push(key) });
    expect([...firstKeys, ...rest].sort()).toEqual(whole.sort());
  });

  describe("a read that fails past the SDK's retries", () => {
    let target: RoleTarget;
    let failing: boolean;
    const FAILING_REGION = 'us-west-1';
    beforeEach(async () => {
      const connected = await connectedCustomer();
      await createSentinelRole({ customer: connected.customer, externalId: connected.target.externalId });
      target = connected.target;
      failing = true;
      front.answer = (request) =>
        failing &&
        request.service === 'ec2' &&
        request.operation === 'DescribeInstances' &&
        request.region === FAILING_REGION
          ? queryError({ service: 'ec2', status: 503, code: 'Unavailable', message: 'The service is unavailable.' })
          : motoGaps(request);
    });

    it('fails the attempt once every other read settled; the next attempt reads only that one', async () => {
      const checkpoint: Checkpoint = {};
      const first = provider.collectInventory(target, {
        finalAttempt: false,
        onRead: (key, outcome) => {
          checkpoint[key] = outcome;
        },
      });

      await expect(first).rejects.toBeInstanceOf(IncompleteCollectionError);
      // One listing serves the instances' part, their user data's and the network topology's: all three wait on
      // it, and all three fail with it.
      await expect(first).rejects.toMatchObject({
        failed: [
          { key: `instances@${FAILING_REGION}`, reason: expect.stringContaining('Unavailable') },
          { key: `instanceUserData@${FAILING_REGION}`, reason: expect.stringContaining('Unavailable') },
          { key: `networkTopology@${FAILING_REGION}`, reason: expect.stringContaining('Unavailable') },
        ],
      });
      // Kept under the format of today's reads (v7:), so that a worker of another version reads them again.
      const settled = Object.keys(checkpoint);
      expect(settled).not.toContain(`v7:instances@${FAILING_REGION}`);
      expect(settled).not.toContain(`v7:instanceUserData@${FAILING_REGION}`);
      expect(settled).toEqual(
        expect.arrayContaining([
          'v7:regions',
          'v7:iamPrincipals',
          `v7:securityGroups@${FAILING_REGION}`,
          `v7:instances@${REGION}`,
        ]),
      );
      expect(calls((r) => r.operation === 'DescribeInstances' && r.region === FAILING_REGION)).toBe(2); // the SDK's 2 attempts

      failing = false;
      front.requests.length = 0;
      const retried: string[] = [];
      const inventory = await provider.collectInventory(target, {
        checkpoint,
        finalAttempt: false,
        onRead: (key) => retried.push(key),
      });

      expect(retried.sort()).toEqual([
        `v7:instanceUserData@${FAILING_REGION}`,
        `v7:instances@${FAILING_REGION}`,
        `v7:networkTopology@${FAILING_REGION}`,
      ]);
      // The region has no instance: one listing again, for all three; the topology reads its region's network again,
      // and nothing of another region is read twice.
      const customerCalls = front.requests.filter((r) => r.service !== 'sts').map((r) => `${r.operation}@${r.region}`);
      expect(customerCalls.filter((c) => c.startsWith('DescribeInstances@'))).toEqual([
        `DescribeInstances@${FAILING_REGION}`,
      ]);
      expect(customerCalls.filter((c) => !c.endsWith(`@${FAILING_REGION}`))).toEqual([]);
      expect(incomplete(inventory)).toEqual({ health: 'not_evaluated' });
    });

    it('reads again what a checkpoint from an older worker holds (reads of another shape), and only that', async () => {
      failing = false;
      const checkpoint: Checkpoint = {};
      await provider.collectInventory(target, {
        onRead: (key, outcome) => {
          checkpoint[key] = outcome;
        },
      });
      // The same reads as a worker of the older format keyed them (v6: functions without their event source
      // mappings, the IAM documents without the resource control policies).
      const older: Checkpoint = Object.fromEntries(
        Object.entries(checkpoint).map(([key, outcome]) => [key.replace(/^v7:/, 'v6:'), outcome]),
      );
      front.requests.length = 0;

      const retried: string[] = [];
      await provider.collectInventory(target, {
        checkpoint: { ...older, 'v7:regions': checkpoint['v7:regions'] as ReadOutcome },
        onRead: (key) => retried.push(key),
      });

      expect(retried).not.toContain('v7:regions');
      expect(retried).toEqual(expect.arrayContaining([`v7:instances@${REGION}`, 'v7:iamPrincipals']));
      expect(retried).toHaveLength(Object.keys(checkpoint).length - 1);
      expect(calls((r) => r.operation === 'DescribeRegions')).toBe(0);
    });

    it('on the last attempt leaves it unread, with the error as the reason, and reads the rest', async () => {
      const inventory = await provider.collectInventory(target, { finalAttempt: true });

      expect(incomplete(inventory)).toEqual({
        instances: FAILING_REGION,
        instanceUserData: FAILING_REGION,
        networkTopology: FAILING_REGION,
        health: 'not_evaluated',
      });
      expect(inventory.instances.unread).toEqual([
        {
          kind: 'region',
          scope: FAILING_REGION,
          reason: 'EC2 DescribeInstances failed (Unavailable) after retries: The service is unavailable.',
        },
      ]);
    });
  });

  it('retries one of two parts that share a listing: it lists and describes again on its own', async () => {
    const connected = await connectedCustomer();
    await createSentinelRole({ customer: connected.customer, externalId: connected.target.externalId });
    const { KeyMetadata } = await client(new KMSClient(customerConfig(connected.customer))).send(
      new CreateKeyCommand({}),
    );
    let failing = true;
    front.answer = (request) =>
      failing && request.service === 'kms' && request.operation === 'GetKeyPolicy'
        ? jsonError(503, 'KMSInternalException', 'The service is unavailable.')
        : motoGaps(request);
    const parts: PartName[] = ['kmsKeys', 'kmsKeyPolicies'];
    const checkpoint: Checkpoint = {};
    const first = provider.collectInventory(connected.target, {
      parts,
      finalAttempt: false,
      onRead: (key, outcome) => {
        checkpoint[key] = outcome;
      },
    });
    await expect(first).rejects.toMatchObject({ failed: [{ key: `kmsKeyPolicies@${REGION}` }] });
    expect(Object.keys(checkpoint)).toContain(`v7:kmsKeys@${REGION}`);

    failing = false;
    front.requests.length = 0;
    const retried: string[] = [];
    const inventory = await provider.collectInventory(connected.target, {
      parts,
      checkpoint,
      finalAttempt: false,
      onRead: (key) => retried.push(key),
    });

    expect(retried).toEqual([`v7:kmsKeyPolicies@${REGION}`]);
    const customerCalls = front.requests.filter((r) => r.service === 'kms').map((r) => r.operation);
    expect(customerCalls).toEqual(['ListKeys', 'DescribeKey', 'GetKeyPolicy']);
    expect(inventory.kmsKeyPolicies).toMatchObject({
      status: 'ok',
      value: { keys: [expect.objectContaining({ id: KeyMetadata?.KeyId, region: REGION })] },
    });
  });

  it("renews the role's credentials before they expire, in the middle of a collection", async () => {
    const { customer, target } = await connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    // Sessions of 1.5 s (AWS's shortest is 15 minutes: the front shortens them); a call signed with an expired
    // session is refused. Every call takes a second, so the collection's later calls (every part after the region
    // list, a trail's status after the trail list, the credential report after its generation...) come after the
    // first session expired. Renewing 600 ms ahead leaves a loaded machine time between signing a call and the
    // front receiving it.
    const expiries = new Map<string, number>();
    let refused = 0;
    front.rewrite = (request, answer) => {
      if (request.service !== 'sts' || request.operation !== 'AssumeRole' || answer.status !== 200)
        return motoDifferences(request, answer);
      const key = /<AccessKeyId>([^<]+)<\/AccessKeyId>/.exec(answer.body)?.[1] as string;
      const expiry = Date.now() + 1500;
      expiries.set(key, expiry);
      return {
        ...answer,
        body: answer.body.replace(
          /<Expiration>[^<]+<\/Expiration>/,
          `<Expiration>${new Date(expiry).toISOString()}</Expiration>`,
        ),
      };
    };
    front.answer = (request) => {
      const expiry = expiries.get(request.accessKeyId);
      if (expiry !== undefined && request.at > expiry) {
        refused += 1;
        return request.service === 'ec2'
          ? queryError({ service: 'ec2', status: 400, code: 'RequestExpired', message: 'Request has expired.' })
          : queryError({
              service: request.service,
              status: 400,
              code: 'ExpiredToken',
              message: 'The security token included in the request is expired',
            });
      }
      return motoGaps(request);
    };
    front.delay = (request) => (request.service === 'sts' ? 0 : 1000);

    // The parts whose reads chain (a list, then each item's settings), not the whole catalogue: with every service
    // in every region the machine, not the renewal, would decide when a signed call reaches the front.
    const parts: PartName[] = [
      'iamSummary',
      'credentialReport',
      'iamPrincipals',
      'cloudtrail',
      'securityGroups',
      'instances',
      's3Buckets',
    ];
    const inventory = await providerWith({ renewBeforeMs: 600 }).collectInventory(target, { parts });

    // Calls went on after the first session expired (how many depends on how the machine schedules the parallel
    // reads), each signed with a session still valid when it arrived: none was refused.
    const firstExpiry = Math.min(...expiries.values());
    const afterFirstExpiry = front.requests.filter((r) => r.service !== 'sts' && r.at > firstExpiry);
    expect(afterFirstExpiry.length).toBeGreaterThan(0);
    expect(afterFirstExpiry.filter((r) => (expiries.get(r.accessKeyId) ?? 0) < r.at)).toEqual([]);
    expect(refused).toBe(0);
    expect(Object.keys(incomplete(inventory)).filter((name) => parts.includes(name as PartName))).toEqual([]);
    expect(expiries.size).toBeGreaterThanOrEqual(3);
    const signers = new Set(front.requests.filter((r) => r.service !== 'sts').map((r) => r.accessKeyId));
    expect(signers.size).toBeGreaterThanOrEqual(3);
  });

  it('throws RoleUnavailableError, with what to fix, when the role cannot be assumed', async () => {
    const { target } = await connectedCustomer();
    front.answer = (request) =>
      request.service === 'sts' && request.operation === 'AssumeRole'
        ? queryError({
            service: 'sts',
            status: 403,
            code: 'AccessDenied',
            message: 'not authorized to perform: sts:AssumeRole',
          })
        : motoGaps(request);

    const collecting = provider.collectInventory(target);

    await expect(collecting).rejects.toBeInstanceOf(RoleUnavailableError);
    await expect(collecting).rejects.toThrow(roleArn(target.awsAccountId));
  });

  it('against moto itself, with its unimplemented APIs: retried, then not evaluated with the error; all else read', async () => {
    const { customer, target } = await connectedCustomer();
    await client(new GuardDutyClient(customerConfig(customer, 'eu-west-1'))).send(
      new CreateDetectorCommand({ Enable: true }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });
    const direct = providerWith({ endpointUrl: motoEndpoint() });
    const checkpoint: Record<string, ReadOutcome> = {};

    // moto answers AWS Health, IAM Access Analyzer, Cost Explorer GetAnomalies and GetAnomalyMonitors and EC2
    // GetInstanceMetadataDefaults with an HTML 500 page (a server error: retried), and GuardDuty's findings with an
    // HTML 404 (an answer no retry changes).
    const first = direct.collectInventory(target, {
      finalAttempt: false,
      onRead: (key, outcome) => {
        checkpoint[key] = outcome;
      },
    });
    await expect(first).rejects.toBeInstanceOf(IncompleteCollectionError);
    const failed = await first.then(
      () => [],
      (err: IncompleteCollectionError) => err.failed.map((f) => f.key),
    );
    const inventory = await direct.collectInventory(target, { checkpoint, finalAttempt: true });

    expect(failed.sort()).toEqual(
      [
        'anomalies',
        'anomalyMonitors',
        'health',
        ...inventory.regions.enabled.map((region) => `accessAnalyzers@${region}`),
        ...inventory.regions.enabled.map((region) => `instanceMetadataDefaults@${region}`),
        // moto lists the China regions but serves no SES there.
        'sesIdentities@cn-north-1',
        'sesIdentities@cn-northwest-1',
        // moto has no CloudTrail LookupEvents.
        ...inventory.regions.enabled.map((region) => `cloudtrailActivity@${region}`),
        // Nor Bedrock's guardrails, EBS snapshots' block public access, IAM's service-specific credentials list for
        // Bedrock, nor Bedrock at all in the China regions it lists.
        ...inventory.regions.enabled.map((region) => `bedrockGuardrails@${region}`),
        ...inventory.regions.enabled.map((region) => `ebsSnapshotBlockPublicAccess@${region}`),
        'bedrockApiKeys',
        ...['bedrockAgents', 'bedrockCustomModels', 'bedrockInvocationLogging'].flatMap((part) => [
          `${part}@cn-north-1`,
          `${part}@cn-northwest-1`,
        ]),
        // Nor CodeArtifact at all.
        ...inventory.regions.enabled.map((region) => `codeartifactPackages@${region}`),
        // Nor Lightsail at all.
        ...['lightsailInstances', 'lightsailDatabases'].flatMap((part) =>
          inventory.regions.enabled.map((region) => `${part}@${region}`),
        ),
      ].sort(),
    );
    expect(incomplete(inventory)).toEqual({
      anomalies: 'not_evaluated',
      anomalyMonitors: 'not_evaluated',
      health: 'not_evaluated',
      accessAnalyzers: 'not_evaluated',
      cloudtrailActivity: 'not_evaluated',
      guardduty: 'eu-west-1',
      instanceMetadataDefaults: 'not_evaluated',
      sesIdentities: 'cn-north-1,cn-northwest-1',
      bedrockGuardrails: 'not_evaluated',
      ebsSnapshotBlockPublicAccess: 'not_evaluated',
      bedrockApiKeys: 'not_evaluated',
      bedrockAgents: 'cn-north-1,cn-northwest-1',
      bedrockCustomModels: 'cn-north-1,cn-northwest-1',
      bedrockInvocationLogging: 'cn-north-1,cn-northwest-1',
      codeartifactPackages: 'not_evaluated',
      lightsailInstances: 'not_evaluated',
      lightsailDatabases: 'not_evaluated',
    });
    expect(inventory.accessAnalyzers).toMatchObject({
      status: 'not_evaluated',
      reason:
        "IAM Access Analyzer ListAnalyzers failed (HTTP 500) after retries: an answer that is not in AWS's format",
    });
    expect(inventory.anomalies).toEqual({
      status: 'not_evaluated',
      reason: "Cost Explorer GetAnomalies failed (HTTP 500) after retries: an answer that is not in AWS's format",
    });
    expect(inventory.health).toEqual({
      status: 'not_evaluated',
      reason: "AWS Health DescribeEvents failed (HTTP 500) after retries: an answer that is not in AWS's format",
    });
    expect(inventory.guardduty.unread).toEqual([
      { kind: 'region', scope: 'eu-west-1', reason: expect.stringMatching(/^GuardDuty ListFindings failed/) },
    ]);
  });
});
