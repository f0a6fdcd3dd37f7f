import { BudgetsClient, CreateBudgetCommand } from '@aws-sdk/client-budgets';
import { CloudTrailClient, CreateTrailCommand, StartLoggingCommand } from '@aws-sdk/client-cloudtrail';
import { AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateDetectorCommand, GuardDutyClient } from '@aws-sdk/client-guardduty';
import {
  AddUserToGroupCommand, AttachGroupPolicyCommand, AttachRolePolicyCommand, AttachUserPolicyCommand, CreateAccessKeyCommand,
  CreateGroupCommand, CreateLoginProfileCommand, CreatePolicyCommand, CreateRoleCommand, CreateUserCommand,
  ListRolesCommand, PutRolePolicyCommand, PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { createAwsProvider } from '../../cloud/aws/provider';
import { type CloudProvider, type RoleTarget, RoleUnavailableError } from '../../cloud/types';
import { createLogger } from '../../config/logger';
import type { Inventory } from '../../domain/inventory';
import { ROLE_NAME, roleArn } from '../../domain/onboarding';
import {
  type AwsFront, createSentinelRole, customerAccount, type CustomerAccount, customerConfig, jsonError, MOTO_ACCOUNT_ID,
  motoEndpoint, motoGaps, queryError, queueCostAndUsage, randomExternalId, REGION, startAwsFront, TEST_CREDENTIALS,
} from '../helpers/aws';

// Each test seeds a fresh customer account through the SDK, creates Sentinel's role in it with the real CLI
// script, and collects through a front to moto (test/helpers/aws.ts) that fills moto's gaps and can refuse
// or fail calls the way AWS would.

const log = createLogger({ level: 'silent', name: 'test' });
const ADMINISTRATOR_ACCESS = 'arn:aws:iam::aws:policy/AdministratorAccess';
const EVERYTHING = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] });
const uniqueName = (prefix: string) => `${prefix}-${randomExternalId().toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12)}`;

function ok<T>(part: { status: 'ok'; value: T } | { status: 'not_evaluated'; reason: string }): T {
  if (part.status !== 'ok') throw new Error(`not evaluated: ${part.reason}`);
  return part.value;
}

async function connectedCustomer(): Promise<{ customer: CustomerAccount; target: RoleTarget }> {
  const customer = await customerAccount();
  const target = { tenantId: 'tnt_test', awsAccountId: customer.accountId, roleName: ROLE_NAME, externalId: randomExternalId() };
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

  beforeAll(async () => {
    front = await startAwsFront();
    provider = createAwsProvider({
      region: REGION, endpointUrl: front.endpoint, sentinelAccountId: MOTO_ACCOUNT_ID, credentials: TEST_CREDENTIALS, log,
    });
  });
  beforeEach(() => {
    front.answer = motoGaps;
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
    const { GroupId } = await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'ssh-open', Description: 'ssh from anywhere' }));
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({
      GroupId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
    }));
    createSentinelRole({ customer, externalId: target.externalId });
    const progress: string[] = [];

    const inventory = await provider.collectInventory(target, { onProgress: (step) => progress.push(step) });

    expect(ok(inventory.iam)).toMatchObject({
      rootMfaEnabled: false,
      rootAccessKeysPresent: false,
      rootLastUsedAt: null,
      passwordPolicy: null,
      users: [{
        name: 'alice',
        arn: `arn:aws:iam::${customer.accountId}:user/alice`,
        hasConsolePassword: true,
        mfaEnabled: false,
        adminAccess: true,
        accessKeys: [{ id: AccessKey?.AccessKeyId, status: 'Active', lastUsedAt: null }],
      }],
      roles: [],
    });
    expect(ok(inventory.s3)).toEqual({
      accountBlockPublicAccess: null,
      buckets: [{ name: bucket, region: 'us-east-1', publicViaAcl: true, publicViaPolicy: false, blockPublicAccess: null }],
    });
    expect(ok(inventory.ec2)).toEqual({
      securityGroups: [{
        id: GroupId, name: 'ssh-open', region: 'us-east-1', openIngress: [{ protocol: 'tcp', fromPort: 22, toPort: 22, cidr: '0.0.0.0/0' }],
      }],
      instances: [],
      publicSnapshots: [],
      publicImages: [],
    });
    expect(ok(inventory.cloudtrail)).toEqual({ trails: [] });
    expect(ok(inventory.budgets)).toEqual({ budgets: [] });
    expect(ok(inventory.guardduty).regions.filter((r) => r.detectorEnabled)).toEqual([]);
    expect(ok(inventory.alternateContacts)).toEqual({ security: false, billing: false, operations: false });
    expect(inventory.health).toEqual({ status: 'not_evaluated', reason: 'AWS Health needs a Business or Enterprise support plan' });
    expect(inventory.regions.enabled).toContain('us-east-1');
    expect(inventory.regions.inUse).toEqual(['us-east-1']);
    expect([...progress].sort()).toEqual(['account', 'billing', 'cloudtrail', 'ec2', 'guardduty', 'health', 'iam', 'regions', 's3']);
  });

  it('finds none of them in a clean account with a logging trail and a budget', async () => {
    const { customer, target } = await connectedCustomer();
    const logs = uniqueName('trail-logs');
    await client(new S3Client({ ...customerConfig(customer), forcePathStyle: true })).send(new CreateBucketCommand({ Bucket: logs }));
    const cloudtrail = client(new CloudTrailClient(customerConfig(customer)));
    await cloudtrail.send(new CreateTrailCommand({ Name: 'everywhere', S3BucketName: logs, IsMultiRegionTrail: true }));
    await cloudtrail.send(new StartLoggingCommand({ Name: 'everywhere' }));
    await client(new BudgetsClient(customerConfig(customer))).send(new CreateBudgetCommand({
      AccountId: customer.accountId,
      Budget: { BudgetName: 'monthly', BudgetType: 'COST', TimeUnit: 'MONTHLY', BudgetLimit: { Amount: '100', Unit: 'USD' } },
    }));
    createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await provider.collectInventory(target);

    expect(ok(inventory.iam)).toMatchObject({ users: [], roles: [] });
    expect(ok(inventory.s3).buckets).toEqual([
      { name: logs, region: 'us-east-1', publicViaAcl: false, publicViaPolicy: false, blockPublicAccess: null },
    ]);
    expect(ok(inventory.ec2).securityGroups).toEqual([]);
    expect(ok(inventory.cloudtrail)).toEqual({ trails: [{ name: 'everywhere', homeRegion: 'us-east-1', multiRegion: true, logging: true }] });
    expect(ok(inventory.budgets)).toEqual({ budgets: [{ name: 'monthly', limitUsd: 100, actualSpendUsd: expect.any(Number), forecastedSpendUsd: expect.anything() }] });
    expect(inventory.regions.inUse).toEqual(['us-east-1']);
  });

  it('tells administrators by group, inline and customer managed policies, and leaves out Sentinel\'s role', async () => {
    const { customer, target } = await connectedCustomer();
    const iam = customer.iam;
    const { Policy } = await iam.send(new CreatePolicyCommand({ PolicyName: 'everything', PolicyDocument: EVERYTHING }));
    await iam.send(new CreateGroupCommand({ GroupName: 'admins' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'admins', PolicyArn: ADMINISTRATOR_ACCESS }));
    for (const name of ['via-group', 'via-inline', 'via-managed', 'reader']) await iam.send(new CreateUserCommand({ UserName: name }));
    await iam.send(new AddUserToGroupCommand({ GroupName: 'admins', UserName: 'via-group' }));
    await iam.send(new PutUserPolicyCommand({ UserName: 'via-inline', PolicyName: 'all', PolicyDocument: EVERYTHING }));
    await iam.send(new AttachUserPolicyCommand({ UserName: 'via-managed', PolicyArn: Policy?.Arn }));
    await iam.send(new AttachUserPolicyCommand({ UserName: 'reader', PolicyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' }));
    const trust = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] });
    await iam.send(new CreateRoleCommand({ RoleName: 'deployer', AssumeRolePolicyDocument: trust }));
    await iam.send(new PutRolePolicyCommand({ RoleName: 'deployer', PolicyName: 'all', PolicyDocument: EVERYTHING }));
    await iam.send(new CreateRoleCommand({ RoleName: 'auditor', AssumeRolePolicyDocument: trust }));
    await iam.send(new AttachRolePolicyCommand({ RoleName: 'auditor', PolicyArn: 'arn:aws:iam::aws:policy/SecurityAudit' }));
    await iam.send(new CreateRoleCommand({ RoleName: 'AWSServiceRoleForSupport', Path: '/aws-service-role/support.amazonaws.com/', AssumeRolePolicyDocument: trust }));
    createSentinelRole({ customer, externalId: target.externalId });

    const { users, roles } = ok((await provider.collectInventory(target)).iam);

    expect(Object.fromEntries(users.map((u) => [u.name, u.adminAccess]))).toEqual({
      'via-group': true, 'via-inline': true, 'via-managed': true, reader: false,
    });
    expect(roles.map((r) => [r.name, r.adminAccess]).sort()).toEqual([['auditor', false], ['deployer', true]]);
  });

  it('collects every page of a paginated list', async () => {
    const { customer, target } = await connectedCustomer();
    const trust = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }] });
    const names = Array.from({ length: 120 }, (_, i) => `app-${String(i).padStart(3, '0')}`);
    for (const name of names) await customer.iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: trust }));
    createSentinelRole({ customer, externalId: target.externalId });
    // moto pages ListRoles by 100 (it ignores MaxItems on ListUsers and DescribeSecurityGroups): two pages here.
    const firstPage = await customer.iam.send(new ListRolesCommand({}));
    expect(firstPage).toMatchObject({ IsTruncated: true, Roles: expect.any(Array) });
    expect(firstPage.Roles).toHaveLength(100);

    const { roles } = ok((await provider.collectInventory(target)).iam);

    expect(roles.map((r) => r.name).sort()).toEqual(names);
  });

  it('reads the daily costs queued in moto\'s Cost Explorer', async () => {
    const { customer, target } = await connectedCustomer();
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const amounts = [12, 11, 13, 12, 12, 11, 12, 13, 12, 12, 11, 12, 12, 480]; // a spike on the last full day
    await queueCostAndUsage({
      accountId: customer.accountId,
      results: [{
        ResultsByTime: amounts.map((amount, i) => ({
          TimePeriod: { Start: day(14 - i), End: day(13 - i) },
          Total: { UnblendedCost: { Amount: String(amount), Unit: 'USD' } },
          Groups: [],
          Estimated: false,
        })),
        DimensionValueAttributes: [],
      }],
    });
    createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await provider.collectInventory(target);

    expect(ok(inventory.costs).daily).toEqual(amounts.map((amountUsd, i) => ({ date: day(14 - i), amountUsd })));
  });

  it('maps GuardDuty findings and cost anomalies', async () => {
    const { customer, target } = await connectedCustomer();
    await client(new GuardDutyClient(customerConfig(customer, 'eu-west-1'))).send(new CreateDetectorCommand({ Enable: true }));
    createSentinelRole({ customer, externalId: target.externalId });
    const finding = { id: 'f-1', type: 'UnauthorizedAccess:EC2/SSHBruteForce', severity: 8, title: 'SSH brute force against i-0abc' };
    front.answer = (request) => {
      if (request.service === 'guardduty' && request.path.endsWith('/findings')) {
        return { status: 200, contentType: 'application/json', body: JSON.stringify({ findingIds: [finding.id] }) };
      }
      if (request.service === 'guardduty' && request.path.endsWith('/findings/get')) {
        return {
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ findings: [{ ...finding, accountId: customer.accountId, region: 'eu-west-1', arn: 'arn:f-1', schemaVersion: '2.0', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', resource: {} }] }),
        };
      }
      if (request.service === 'ce' && request.operation === 'GetAnomalies') {
        return {
          status: 200,
          contentType: 'application/x-amz-json-1.1',
          body: JSON.stringify({ Anomalies: [{
            AnomalyId: 'a-1', AnomalyStartDate: '2026-01-10', DimensionValue: 'Amazon EC2', MonitorArn: 'arn:m',
            Impact: { MaxImpact: 300, TotalImpact: 450 }, AnomalyScore: { MaxScore: 1, CurrentScore: 1 },
            RootCauses: [{ Service: 'Amazon Elastic Compute Cloud - Compute', Region: 'us-east-1' }],
          }] }),
        };
      }
      return motoGaps(request);
    };

    const inventory = await provider.collectInventory(target);

    const regions = ok(inventory.guardduty).regions;
    expect(regions.find((r) => r.region === 'eu-west-1')).toEqual({ region: 'eu-west-1', detectorEnabled: true, highSeverityFindings: [finding] });
    expect(regions.filter((r) => r.detectorEnabled)).toHaveLength(1);
    expect(ok(inventory.anomalies)).toEqual({
      anomalies: [{ id: 'a-1', impactUsd: 450, startDate: '2026-01-10', service: 'Amazon Elastic Compute Cloud - Compute' }],
    });
  });

  it('makes a refused part "not evaluated", with the call and region, and still reads the others', async () => {
    const { customer, target } = await connectedCustomer();
    const bucket = uniqueName('guarded');
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    createSentinelRole({ customer, externalId: target.externalId });
    // What a bucket policy denying everyone else, an SCP or a missing permission make AWS answer (moto enforces none).
    front.answer = (request) => {
      if (request.service === 'ec2' && request.operation === 'DescribeSnapshots') {
        return queryError({ service: 'ec2', status: 403, code: 'UnauthorizedOperation', message: 'You are not authorized to perform this operation.' });
      }
      if (request.service === 'budgets') return jsonError(400, 'AccessDeniedException', 'not authorized to perform: budgets:ViewBudget');
      if (request.service === 's3' && request.method === 'GET' && request.path.startsWith(`/${bucket}`)) {
        return { status: 403, contentType: 'application/xml', body: '<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>' };
      }
      return motoGaps(request);
    };

    const inventory = await provider.collectInventory(target);

    expect(inventory.ec2).toEqual({ status: 'not_evaluated', reason: expect.stringMatching(/^AWS denied Sentinel's role EC2 DescribeSnapshots in [a-z0-9-]+ \(UnauthorizedOperation\)/) });
    expect(inventory.budgets).toEqual({ status: 'not_evaluated', reason: expect.stringContaining('Budgets DescribeBudgets (AccessDenied)') });
    expect(inventory.s3).toEqual({ status: 'not_evaluated', reason: expect.stringContaining(`on bucket ${bucket}`) });
    expect(inventory.iam.status).toBe('ok');
    expect(inventory.guardduty.status).toBe('ok');
    expect(inventory.costs.status).toBe('ok');
  });

  it('throws RoleUnavailableError, with what to fix, when the role cannot be assumed', async () => {
    const { target } = await connectedCustomer();
    front.answer = (request) => (request.service === 'sts' && request.operation === 'AssumeRole'
      ? queryError({ service: 'sts', status: 403, code: 'AccessDenied', message: 'not authorized to perform: sts:AssumeRole' })
      : motoGaps(request));

    const collecting = provider.collectInventory(target);

    await expect(collecting).rejects.toBeInstanceOf(RoleUnavailableError);
    await expect(collecting).rejects.toThrow(roleArn(target.awsAccountId));
  });

  it('throws a transient failure as it is, to be retried', async () => {
    const { customer, target } = await connectedCustomer();
    createSentinelRole({ customer, externalId: target.externalId });
    front.answer = (request) => (request.service === 'ec2' && request.operation === 'DescribeInstances'
      ? queryError({ service: 'ec2', status: 503, code: 'Unavailable', message: 'The service is unavailable.' })
      : motoGaps(request));

    const collecting = provider.collectInventory(target);

    await expect(collecting).rejects.toMatchObject({ name: 'Unavailable', $metadata: { httpStatusCode: 503 } });
  });

  it('does not take moto\'s unimplemented APIs for "not evaluated"', async () => {
    const { customer, target } = await connectedCustomer();
    createSentinelRole({ customer, externalId: target.externalId });
    const direct = createAwsProvider({
      region: REGION, endpointUrl: motoEndpoint(), sentinelAccountId: MOTO_ACCOUNT_ID, credentials: TEST_CREDENTIALS, log,
    });

    const collecting: Promise<Inventory> = direct.collectInventory(target);

    // moto answers AWS Health and Cost Explorer GetAnomalies with an HTML 500 page: an error, not a refusal.
    await expect(collecting).rejects.toMatchObject({ $metadata: { httpStatusCode: 500 } });
  });
});
