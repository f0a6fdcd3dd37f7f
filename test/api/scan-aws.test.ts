import { BudgetsClient, CreateBudgetCommand } from '@aws-sdk/client-budgets';
import { CloudTrailClient, CreateTrailCommand, StartLoggingCommand } from '@aws-sdk/client-cloudtrail';
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  EC2Client,
  RevokeSecurityGroupIngressCommand,
} from '@aws-sdk/client-ec2';
import {
  AttachUserPolicyCommand,
  CreateAccessKeyCommand,
  CreateLoginProfileCommand,
  CreateUserCommand,
} from '@aws-sdk/client-iam';
import { CreateBucketCommand, PutBucketAclCommand, S3Client } from '@aws-sdk/client-s3';
import { waitFor } from '../helpers/patience';
import {
  customerAccount,
  type CustomerAccount,
  customerConfig,
  queueCostAndUsage,
  runAsCustomer,
} from '../helpers/aws';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { computeSrs } from '../../domain/scoring/srs';
import { allOpenSignals, type OpenSignalEntry } from '../helpers/scans';

// A scan through the real API, worker and AWS provider, against moto accounts seeded through the AWS SDK.
let ctx: TestContext;
let owner: TestUser;
beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true });
  owner = await signupAndLogin(ctx);
  // Room for the two accounts of this suite.
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
});
afterAll(() => ctx.close());

const DAY = 86_400_000;

/** 14 days of flat spend with a spike on the last complete day, the day before yesterday (Cost Explorer's daily results). */
async function seedSpendSpike(accountId: string): Promise<void> {
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  const days = Array.from({ length: 14 }, (_, i) => {
    const start = new Date(today - (14 - i) * DAY).toISOString().slice(0, 10);
    const end = new Date(today - (13 - i) * DAY).toISOString().slice(0, 10);
    return {
      TimePeriod: { Start: start, End: end },
      Total: { UnblendedCost: { Amount: i === 12 ? '480' : '20', Unit: 'USD' } },
    };
  });
  await queueCostAndUsage({ accountId, results: [{ ResultsByTime: days }] });
}

/** What every moto account has in common and our clean account still gets right: a trail and a budget with an alert. */
async function seedHygiene(customer: CustomerAccount): Promise<void> {
  const config = customerConfig(customer);
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  const trailBucket = `trail-${customer.accountId}`;
  await s3.send(new CreateBucketCommand({ Bucket: trailBucket }));
  const cloudtrail = new CloudTrailClient(config);
  await cloudtrail.send(new CreateTrailCommand({ Name: 'org', S3BucketName: trailBucket, IsMultiRegionTrail: true }));
  await cloudtrail.send(new StartLoggingCommand({ Name: 'org' }));
  await new BudgetsClient(config).send(
    new CreateBudgetCommand({
      AccountId: customer.accountId,
      Budget: {
        BudgetName: 'monthly',
        BudgetType: 'COST',
        TimeUnit: 'MONTHLY',
        BudgetLimit: { Amount: '1000', Unit: 'USD' },
      },
      NotificationsWithSubscribers: [
        {
          Notification: {
            NotificationType: 'ACTUAL',
            ComparisonOperator: 'GREATER_THAN',
            Threshold: 80,
            ThresholdType: 'PERCENTAGE',
          },
          Subscribers: [{ SubscriptionType: 'EMAIL', Address: 'finance@example.com' }],
        },
      ],
    }),
  );
}

async function seedMisconfigurations(customer: CustomerAccount): Promise<{ groupId: string }> {
  const config = customerConfig(customer);
  const { IAMClient } = await import('@aws-sdk/client-iam');
  const iam = new IAMClient(config);
  await iam.send(new CreateUserCommand({ UserName: 'alice' }));
  await iam.send(new CreateLoginProfileCommand({ UserName: 'alice', Password: 'Passw0rd!Passw0rd!' }));
  await iam.send(
    new AttachUserPolicyCommand({ UserName: 'alice', PolicyArn: 'arn:aws:iam::aws:policy/AdministratorAccess' }),
  );
  await iam.send(new CreateAccessKeyCommand({ UserName: 'alice' }));
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: `public-${customer.accountId}` }));
  await s3.send(new PutBucketAclCommand({ Bucket: `public-${customer.accountId}`, ACL: 'public-read' }));
  const ec2 = new EC2Client(config);
  const { GroupId } = await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'bastion', Description: 'ssh' }));
  await ec2.send(
    new AuthorizeSecurityGroupIngressCommand({
      GroupId,
      IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
    }),
  );
  await seedSpendSpike(customer.accountId);
  return { groupId: GroupId as string };
}

/** Connects the account through the API, runs the generated CLI script as the customer, verifies, and waits for the scan. */
async function connectAndScan(customer: CustomerAccount): Promise<void> {
  const connected = await ctx.http
    .post('/accounts')
    .set(owner.auth)
    .send({ aws_account_id: customer.accountId, event_forwarding: false })
    .expect(201);
  await runAsCustomer({ script: connected.body.fallback_cli_script, customer });
  const verified = await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(200);
  await waitForScan(verified.body.first_scan_execution_arn);
}

async function waitForScan(executionArn: string): Promise<void> {
  const scanId = executionArn.split('/').pop() as string;
  await waitFor(async () => {
    const row = await ctx.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirst();
    return row?.status === 'succeeded';
  });
}

async function openCheckIds(awsAccountId: string): Promise<string[]> {
  return [...new Set((await allOpenSignals(ctx.http, owner.auth, awsAccountId)).map((s) => s.check_id))].sort();
}

// Each is caused by exactly one seeded misconfiguration (the user and key are also new, hence "recently"; its
// administrator policy is attached to it directly, not through a group).
const SEEDED = [
  // The administrator has an active key and no MFA: whoever leaks the key holds the account.
  'attack_path.user_key_without_mfa_admin',
  'billing.daily_spend_spike',
  'exposure.s3_bucket_public',
  // The public-read ACL lets everyone list the bucket too.
  'exposure.s3_bucket_public_list_acl',
  'exposure.sg_ssh_open',
  // SSH is not a port the web needs open to the internet.
  'exposure.sg_unauthorized_port_open',
  // The administrator signs in without MFA.
  'iam.admin_without_mfa',
  'iam.console_user_without_mfa',
  'iam.full_admin_policy_attached',
  'iam.user_admin_access',
  'iam.user_direct_policies',
  'threat.access_key_created_recently',
  'threat.iam_user_created_recently',
];

describe('a scan of an AWS account (moto)', () => {
  let clean: string[];
  let seededCustomer: CustomerAccount;
  let groupId: string;

  it('finds none of the seeded misconfigurations in a clean account', async () => {
    const customer = await customerAccount();
    await seedHygiene(customer);
    await connectAndScan(customer);
    clean = await openCheckIds(customer.accountId);
    expect(clean.filter((id) => SEEDED.includes(id))).toEqual([]);
    expect(clean).not.toContain('detection.no_multi_region_trail');
    expect(clean).not.toContain('billing.no_budget');
  });

  it('finds exactly the expected checks in a misconfigured account', async () => {
    seededCustomer = await customerAccount();
    ({ groupId } = await seedMisconfigurations(seededCustomer));
    await connectAndScan(seededCustomer);
    // No trail and no budget in this one, on top of the seeded misconfigurations: nor the clean account's findings
    // about its trail's settings.
    const trailSettings = [
      'detection.trail_bucket_logging_off',
      'detection.trail_log_validation_off',
      'detection.trail_not_kms_encrypted',
    ];
    const expected = [
      ...new Set([
        ...clean.filter((id) => !trailSettings.includes(id)),
        ...SEEDED,
        'detection.no_multi_region_trail',
        'billing.no_budget',
      ]),
    ].sort();
    expect(await openCheckIds(seededCustomer.accountId)).toEqual(expected);
  });

  it('resolves a fixed misconfiguration on the next scan, and the SRS rises', async () => {
    const before = (await ctx.http.get(`/accounts/${seededCustomer.accountId}`).set(owner.auth).expect(200)).body
      .current_srs as number;
    const openBefore = await allOpenSignals(ctx.http, owner.auth, seededCustomer.accountId);
    await new EC2Client(customerConfig(seededCustomer)).send(
      new RevokeSecurityGroupIngressCommand({
        GroupId: groupId,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
      }),
    );
    // And the public bucket: two findings fixed.
    await new S3Client({ ...customerConfig(seededCustomer), forcePathStyle: true }).send(
      new PutBucketAclCommand({ Bucket: `public-${seededCustomer.accountId}`, ACL: 'private' }),
    );
    const scan = await ctx.http.post(`/accounts/${seededCustomer.accountId}/scan`).set(owner.auth).expect(202);
    await waitForScan(scan.body.execution_arn);

    expect(await openCheckIds(seededCustomer.accountId)).not.toContain('exposure.sg_ssh_open');
    const resolved = await ctx.http
      .get(`/accounts/${seededCustomer.accountId}/signals`)
      .query({ status: 'resolved' })
      .set(owner.auth)
      .expect(200);
    expect(resolved.body.signals.map((s: { check_id: string }) => s.check_id).sort()).toEqual([
      'exposure.s3_bucket_public',
      'exposure.s3_bucket_public_list_acl',
      'exposure.sg_ssh_open',
      'exposure.sg_unauthorized_port_open',
    ]);
    const account = (await ctx.http.get(`/accounts/${seededCustomer.accountId}`).set(owner.auth).expect(200)).body;
    const after = account.current_srs as number;
    // Each score is the model's over the open signals. This account fails many checks on many resources (every
    // region), so with the resource extent its score sits near the floor (2), where rounding can hide the SSH
    // factor's going: it rises, or at that depth stays.
    const scored = (signals: OpenSignalEntry[]) =>
      computeSrs(signals.map((s) => ({ checkId: s.check_id, severity: s.severity, scenario: s.scenario })));
    expect(before).toBe(scored(openBefore));
    expect(after).toBe(scored(await allOpenSignals(ctx.http, owner.auth, seededCustomer.accountId)));
    expect(after).toBeGreaterThanOrEqual(before);
    // Without AWS Health (no Business support) or a day of cost data, which are optional sources: complete.
    expect(account.score_complete).toBe(true);
    const history = await ctx.http
      .get(`/accounts/${seededCustomer.accountId}/score-history`)
      .set(owner.auth)
      .expect(200);
    expect(history.body.history).toEqual([{ date: new Date().toISOString().slice(0, 10), srs: after, complete: true }]);
  });
});
