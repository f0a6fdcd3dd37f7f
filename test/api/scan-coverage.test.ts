import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  EC2Client,
  RevokeSecurityGroupIngressCommand,
} from '@aws-sdk/client-ec2';
import { CreateUserCommand } from '@aws-sdk/client-iam';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CATALOG } from '../../domain/checks/catalog';
import {
  accessDenied,
  type AwsFront,
  customerAccount,
  type CustomerAccount,
  customerConfig,
  motoEndpoint,
  motoGaps,
  queryError,
  runAsCustomer,
  startAwsFront,
} from '../helpers/aws';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { allOpenSignals, scanResult } from '../helpers/scans';

// Scans through the real API, worker and AWS provider, against moto through a front that refuses, throttles and
// fails what a real AWS estate would: what could not be read is named, the rest is evaluated, and the score is
// never falsely clean.

const DENIED_REGION = 'eu-west-2';
const TOTAL = CATALOG.length;
/** The forwarder's checks of an account connected without event forwarding: nothing to judge, nothing missed. */
const WITHOUT_FORWARDER = Object.fromEntries(
  ['detection.event_forwarder_broken', 'detection.management_events_not_logged'].map((id) => [
    id,
    expect.stringMatching(/^The account was connected without event forwarding/),
  ]),
);

/** The organization's checks of an account outside any organization: not applicable, nothing missed. */
const OUTSIDE_ORGANIZATION = Object.fromEntries(
  CATALOG.filter((c) => c.id.match(/organization|delegated_admin|root_credentials_management/)).map((c) => [
    c.id,
    'Not applicable: the account is not in an AWS Organization.',
  ]),
);
/** What a scan through the front leaves not evaluated on a readable account: nothing there to judge, or no data. */
const NOTHING_TO_JUDGE = {
  ...WITHOUT_FORWARDER,
  ...OUTSIDE_ORGANIZATION,
  'billing.daily_spend_spike': 'No complete day of cost data.',
  'billing.cost_anomaly': expect.stringMatching(/^The account has no Cost Anomaly Detection monitor/),
  'threat.guardduty_high_severity_finding': expect.stringMatching(/^GuardDuty has no enabled detector in any region/),
  'suspension.health_abuse_event': 'AWS Health needs a Business or Enterprise support plan',
  'suspension.health_credentials_exposed': 'AWS Health needs a Business or Enterprise support plan',
};
/** The checks a full read of such an account evaluates. */
const READABLE = TOTAL - Object.keys(NOTHING_TO_JUDGE).length;

interface CheckEntry {
  check_id: string;
  status: 'passed' | 'failed' | 'not_evaluated';
  unread: string[];
  reason: string | null;
  failing_resources: number;
}

let front: AwsFront;
let ctx: TestContext;
let owner: TestUser;
beforeAll(async () => {
  front = await startAwsFront();
  // The customers' accounts have these regions enabled: each scan reads every regional part in each.
  front.enabledRegions = ['ap-south-1', DENIED_REGION, 'us-east-1'];
  ctx = await createTestContext({
    withWorker: true,
    config: { AWS_ENDPOINT_URL: front.endpoint, AWS_MAX_ATTEMPTS: '3' },
  });
  owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'enterprise' }).where('id', '=', owner.tenantId).execute();
});
beforeEach(() => {
  front.answer = motoGaps;
  front.requests.length = 0;
});
afterAll(async () => {
  await ctx.close();
  await front.close();
});

/** Connects the account through the API, runs the generated CLI script as the customer, verifies; returns the first scan's id. */
async function connect(customer: CustomerAccount, http = ctx.http): Promise<string> {
  const connected = await http
    .post('/accounts')
    .set(owner.auth)
    .send({ aws_account_id: customer.accountId, event_forwarding: false })
    .expect(201);
  await runAsCustomer({ script: connected.body.fallback_cli_script, customer });
  const verified = await http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(200);
  return verified.body.first_scan_execution_arn;
}

async function scanNow(awsAccountId: string, http = ctx.http, temporal = ctx.temporal) {
  const scan = await http.post(`/accounts/${awsAccountId}/scan`).set(owner.auth).expect(202);
  return scanResult(temporal, scan.body.execution_arn);
}

async function checks(
  awsAccountId: string,
  http = ctx.http,
): Promise<{ coverage: { evaluated: number; total: number }; checks: CheckEntry[] }> {
  return (await http.get(`/accounts/${awsAccountId}/checks`).set(owner.auth).expect(200)).body;
}

const openSignals = (awsAccountId: string) => allOpenSignals(ctx.http, owner.auth, awsAccountId);

describe('a scan of an account AWS only partly lets Sentinel read', () => {
  let customer: CustomerAccount;
  let guarded: string;

  it('evaluates everything else, names exactly the region and bucket it could not read, and completes despite throttling', async () => {
    customer = await customerAccount();
    guarded = `guarded-${customer.accountId}`;
    const s3 = new S3Client({ ...customerConfig(customer), forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: guarded }));
    await s3.send(new CreateBucketCommand({ Bucket: `open-${customer.accountId}`, ACL: 'public-read' }));
    await customer.iam.send(new CreateUserCommand({ UserName: 'carol' }));
    let throttled = 0;
    front.answer = (request) => {
      if ((request.service === 'ec2' || request.service === 'guardduty') && request.region === DENIED_REGION)
        return accessDenied(request);
      if (request.service === 's3' && request.path.startsWith(`/${guarded}`)) return accessDenied(request);
      if (request.service === 'iam' && request.accessKeyId.startsWith('ASIA') && throttled < 5) {
        throttled += 1;
        return queryError({ service: 'iam', status: 400, code: 'Throttling', message: 'Rate exceeded' });
      }
      return motoGaps(request);
    };

    const outcome = await scanResult(ctx.temporal, await connect(customer));

    expect(outcome.status).toBe('succeeded');
    expect(throttled).toBe(5);
    const { coverage, checks: entries } = await checks(customer.accountId);
    const unread = Object.fromEntries(entries.filter((c) => c.unread.length > 0).map((c) => [c.check_id, c.unread]));
    // Only the denied region and the guarded bucket are ever named, each once; among the checks naming them, at least
    // these (every check that reads the region's EC2 or GuardDuty, or the bucket, does).
    for (const scopes of Object.values(unread)) {
      expect(new Set(scopes).size).toBe(scopes.length);
      for (const scope of scopes) expect([DENIED_REGION, guarded]).toContain(scope);
    }
    expect(unread).toMatchObject({
      'exposure.s3_bucket_public': [guarded],
      'exposure.s3_bucket_allows_http': [guarded],
      'exposure.s3_bucket_public_access_block_off': [guarded],
      'exposure.sg_ssh_open': [DENIED_REGION],
      'exposure.sg_rdp_open': [DENIED_REGION],
      'exposure.sg_all_ports_open': [DENIED_REGION],
      'exposure.ebs_snapshot_public': [DENIED_REGION],
      'exposure.ami_public': [DENIED_REGION],
      'detection.guardduty_disabled': [DENIED_REGION],
      'threat.guardduty_high_severity_finding': [DENIED_REGION],
      'threat.gpu_instance_running': [DENIED_REGION],
      'threat.instance_in_unused_region': [DENIED_REGION],
      'exposure.ebs_default_encryption_off': [DENIED_REGION],
      'exposure.sg_cifs_open': [DENIED_REGION],
      'exposure.nacl_admin_ports_open': [DENIED_REGION],
      'exposure.default_sg_allows_traffic': [DENIED_REGION],
      'exposure.imdsv1_allowed': [DENIED_REGION],
      'iam.instance_without_role': [DENIED_REGION],
      'detection.vpc_flow_logs_off': [DENIED_REGION],
      'exposure.instance_user_data_secrets': [DENIED_REGION],
      'exposure.launch_template_secrets': [DENIED_REGION],
      'exposure.launch_template_imdsv1_allowed': [DENIED_REGION],
      'exposure.launch_template_public_ip': [DENIED_REGION],
    });
    expect(entries.find((c) => c.check_id === 'exposure.sg_ssh_open')?.reason).toMatch(
      /^Not read: eu-west-2: AWS denied Sentinel's role EC2/,
    );
    // Not evaluated at all: AWS Health (no Business support on this account), the spend spike (no cost data yet), and
    // what nothing looks for here: GuardDuty's findings (no detector in any region it read), cost anomalies (no
    // Cost Anomaly Detection monitor) and the event forwarder (connected without one). Empty answers, never a pass.
    expect(
      Object.fromEntries(entries.filter((c) => c.status === 'not_evaluated').map((c) => [c.check_id, c.reason])),
    ).toEqual(NOTHING_TO_JUDGE);
    expect(coverage).toEqual({ evaluated: READABLE, total: TOTAL });
    expect(entries.find((c) => c.check_id === 'exposure.s3_bucket_public')).toMatchObject({
      status: 'failed',
      failing_resources: 1,
    });
    expect(entries.find((c) => c.check_id === 'exposure.s3_account_public_access_block_off')).toMatchObject({
      status: 'failed',
      unread: [],
    });

    const account = (await ctx.http.get(`/accounts/${customer.accountId}`).set(owner.auth).expect(200)).body;
    expect(account).toMatchObject({
      coverage: { evaluated: READABLE, total: TOTAL },
      score_complete: false,
      current_srs: expect.any(Number),
    });
    // Compliance says so too: no security group of the account allows SSH or RDP where it could read, but the region
    // it could not read leaves CIS 6.3 partial, not passed, naming the region and why.
    const compliance = (
      await ctx.http
        .get(`/accounts/${customer.accountId}/compliance`)
        .query({ framework: 'cis-aws-7.0' })
        .set(owner.auth)
        .expect(200)
    ).body;
    const adminPorts = compliance.controls.find((c: { id: string }) => c.id === '6.3');
    expect(adminPorts).toMatchObject({ status: 'partial', failing_resources: [] });
    expect(adminPorts.unread).toEqual(
      adminPorts.check_ids.map((checkId: string) => ({
        check_id: checkId,
        kind: 'region',
        scope: DENIED_REGION,
        reason: expect.stringMatching(/^AWS denied Sentinel's role EC2/),
      })),
    );
    expect(compliance.summary.partial).toBeGreaterThan(0);
    const listed = (await ctx.http.get('/accounts').set(owner.auth).expect(200)).body.accounts;
    expect(listed.find((a: { aws_account_id: string }) => a.aws_account_id === customer.accountId)).toMatchObject({
      coverage,
      score_complete: false,
    });
  });

  it('keeps open a finding in the region it cannot read, and resolves the same finding where it can', async () => {
    // An SSH-open group in the denied region and one in a readable one, both seen while the region was readable.
    const groups = await Promise.all(
      [DENIED_REGION, 'us-east-1'].map(async (region) => {
        const ec2 = new EC2Client(customerConfig(customer, region));
        const { GroupId } = await ec2.send(
          new CreateSecurityGroupCommand({ GroupName: `bastion-${region}`, Description: 'ssh' }),
        );
        await ec2.send(
          new AuthorizeSecurityGroupIngressCommand({
            GroupId,
            IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
          }),
        );
        return { ec2, GroupId: GroupId as string };
      }),
    );
    await scanNow(customer.accountId);
    expect(
      (await openSignals(customer.accountId))
        .filter((s) => s.check_id === 'exposure.sg_ssh_open')
        .map((s) => s.region)
        .sort(),
    ).toEqual([DENIED_REGION, 'us-east-1']);

    // Both are fixed; then the SCP denies the region again.
    for (const { ec2, GroupId } of groups) {
      await ec2.send(
        new RevokeSecurityGroupIngressCommand({
          GroupId,
          IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
        }),
      );
    }
    front.answer = (request) =>
      (request.service === 'ec2' || request.service === 'guardduty') && request.region === DENIED_REGION
        ? accessDenied(request)
        : motoGaps(request);
    await scanNow(customer.accountId);

    expect(
      (await openSignals(customer.accountId)).filter((s) => s.check_id === 'exposure.sg_ssh_open').map((s) => s.region),
    ).toEqual([DENIED_REGION]);
  });

  it('reuses the Cost Explorer parts its first scan read: three more scans ask Cost Explorer nothing', async () => {
    const ce: string[] = [];
    front.answer = (request) => {
      if (request.service === 'ce') ce.push(String(request.operation));
      return motoGaps(request);
    };
    for (let i = 0; i < 3; i += 1) await scanNow(customer.accountId);
    expect(ce).toEqual([]);
    const reads = await ctx.db
      .selectFrom('cost_explorer_reads')
      .select(['part', 'read_at'])
      .innerJoin('accounts', 'accounts.id', 'cost_explorer_reads.account_id')
      .where('accounts.aws_account_id', '=', customer.accountId)
      .orderBy('part')
      .execute();
    expect(reads.map((r) => r.part)).toEqual(['anomalies', 'anomalyMonitors', 'costs']);
  });
});

describe('a scan of a fresh account', () => {
  it('reads Cost Explorer on its first scan, then reuses it', async () => {
    const customer = await customerAccount();
    // Counted as they arrive: four scans make more requests than the front keeps.
    const ce: string[] = [];
    front.answer = (request) => {
      if (request.service === 'ce') ce.push(String(request.operation));
      return motoGaps(request);
    };
    await scanResult(ctx.temporal, await connect(customer));
    for (let i = 0; i < 3; i += 1) await scanNow(customer.accountId);
    expect(ce.sort()).toEqual(['GetAnomalies', 'GetAnomalyMonitors', 'GetCostAndUsage']);
  });
});

describe('a role that is denied everything', () => {
  const denyAll = () => {
    front.answer = (request) => (request.service === 'sts' ? undefined : accessDenied(request));
  };

  it('records no score of 100 on a first scan: no score at all, and the coverage finding', async () => {
    const customer = await customerAccount();
    const connected = await ctx.http
      .post('/accounts')
      .set(owner.auth)
      .send({ aws_account_id: customer.accountId, event_forwarding: false })
      .expect(201);
    await runAsCustomer({ script: connected.body.fallback_cli_script, customer });
    denyAll();
    const verified = await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(200);
    const outcome = await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);

    expect(outcome).toMatchObject({ status: 'failed' });
    const account = (await ctx.http.get(`/accounts/${customer.accountId}`).set(owner.auth).expect(200)).body;
    expect(account).toMatchObject({
      current_srs: null,
      score_complete: false,
      coverage: { evaluated: 2, total: TOTAL },
      last_successful_scan_at: null,
    });
    expect((await openSignals(customer.accountId)).map((s) => s.check_id)).toEqual(['connectivity.coverage_lost']);
    const history = await ctx.http.get(`/accounts/${customer.accountId}/score-history`).set(owner.auth).expect(200);
    expect(history.body.history).toEqual([]);
  });

  it('keeps the last score and every open finding, opens the coverage finding, and closes it when coverage returns', async () => {
    const customer = await customerAccount();
    await customer.iam.send(new CreateUserCommand({ UserName: 'dave' }));
    await scanResult(ctx.temporal, await connect(customer));
    const before = (await ctx.http.get(`/accounts/${customer.accountId}`).set(owner.auth).expect(200)).body;
    const openBefore = (await openSignals(customer.accountId)).map((s) => s.signal_id).sort();
    expect(openBefore.length).toBeGreaterThan(0);

    denyAll();
    await scanNow(customer.accountId);

    const after = (await ctx.http.get(`/accounts/${customer.accountId}`).set(owner.auth).expect(200)).body;
    expect(after.current_srs).toBe(before.current_srs);
    expect(after.last_successful_scan_at).toBe(before.last_successful_scan_at);
    // The role's check, the coverage check, and the anomaly monitors Cost Explorer answered on the first scan (none:
    // reused for 12 hours, which the denials do not change).
    expect(after.coverage).toEqual({ evaluated: 3, total: TOTAL });
    const open = await openSignals(customer.accountId);
    expect(open.map((s) => s.signal_id)).toEqual(expect.arrayContaining(openBefore));
    expect(open.filter((s) => !openBefore.includes(s.signal_id)).map((s) => s.check_id)).toEqual([
      'connectivity.coverage_lost',
    ]);
    const { checks: entries } = await checks(customer.accountId);
    expect(entries.find((c) => c.check_id === 'iam.user_admin_access')).toMatchObject({
      status: 'not_evaluated',
      reason: expect.stringMatching(/^AWS denied Sentinel's role IAM GetAccountAuthorizationDetails \(AccessDenied\)/),
    });

    front.answer = motoGaps;
    await scanNow(customer.accountId);
    expect((await openSignals(customer.accountId)).map((s) => s.check_id)).not.toContain('connectivity.coverage_lost');
    expect((await checks(customer.accountId)).coverage).toEqual({ evaluated: READABLE, total: TOTAL });
  });
});

describe("a read that fails past the SDK's retries", () => {
  it("is read again by the activity's next attempt, and only it", async () => {
    const customer = await customerAccount();
    let failures = 0;
    front.answer = (request) => {
      if (
        request.service === 'ec2' &&
        request.operation === 'DescribeInstances' &&
        request.region === 'ap-south-1' &&
        // The one listing the instances part and the user data part share.
        failures < 3
      ) {
        failures += 1;
        return queryError({ service: 'ec2', status: 503, code: 'Unavailable', message: 'The service is unavailable.' });
      }
      return motoGaps(request);
    };

    const outcome = await scanResult(ctx.temporal, await connect(customer));

    expect(outcome.status).toBe('succeeded');
    expect(failures).toBe(3); // the SDK's three attempts, all in the first attempt of the activity
    const described = (operation: string, region: string) =>
      front.requests.filter((r) => r.operation === operation && r.region === region && r.accessKeyId.startsWith('ASIA'))
        .length;
    expect(described('DescribeInstances', 'ap-south-1')).toBe(4); // one listing serves the user data part too
    expect(described('DescribeSecurityGroups', 'ap-south-1')).toBe(1);
    expect(front.requests.filter((r) => r.operation === 'GetAccountAuthorizationDetails')).toHaveLength(1);
    const { checks: entries } = await checks(customer.accountId);
    expect(entries.filter((c) => c.unread.length > 0)).toEqual([]);
  });
});

describe('a scan against moto itself, with no front', () => {
  let direct: TestContext;
  beforeAll(async () => {
    direct = await createTestContext({
      withWorker: true,
      config: { AWS_ENDPOINT_URL: motoEndpoint(), AWS_MAX_ATTEMPTS: '1' },
    });
  });
  afterAll(() => direct.close());

  it('completes: the APIs moto lacks are not evaluated with the error as the reason, every other check is evaluated', async () => {
    const customer = await customerAccount();
    const user = await signupAndLogin(direct.http);
    const connected = await direct.http
      .post('/accounts')
      .set(user.auth)
      .send({ aws_account_id: customer.accountId, event_forwarding: false })
      .expect(201);
    await runAsCustomer({ script: connected.body.fallback_cli_script, customer });
    const verified = await direct.http.post(`/accounts/${customer.accountId}/verify`).set(user.auth).expect(200);

    const outcome = await scanResult(direct.temporal, verified.body.first_scan_execution_arn);

    expect(outcome.status).toBe('succeeded');
    const body = (await direct.http.get(`/accounts/${customer.accountId}/checks`).set(user.auth).expect(200)).body;
    const notEvaluated = Object.fromEntries(
      (body.checks as CheckEntry[]).filter((c) => c.status === 'not_evaluated').map((c) => [c.check_id, c.reason]),
    );
    const lacking = (what: string) => `${what} failed (HTTP 500) after retries: an answer that is not in AWS's format`;
    const expected = {
      ...WITHOUT_FORWARDER,
      ...OUTSIDE_ORGANIZATION,
      // What moto does not implement: each named by the call that failed.
      'exposure.bedrock_guardrail_no_grounding_filter': lacking('Bedrock ListGuardrails'),
      'exposure.bedrock_guardrail_no_prompt_attack_filter': lacking('Bedrock ListGuardrails'),
      'exposure.bedrock_guardrail_no_sensitive_info_filter': lacking('Bedrock ListGuardrails'),
      'exposure.codeartifact_package_upstream_allowed': lacking('CodeArtifact ListRepositories'),
      'exposure.lightsail_database_public': lacking('Lightsail GetRelationalDatabases'),
      'exposure.lightsail_instance_public': lacking('Lightsail GetInstances'),
      'iam.bedrock_api_key_admin_user': lacking('IAM ListServiceSpecificCredentials'),
      'exposure.ebs_snapshot_public_sharing_unblocked': lacking('EC2 GetSnapshotBlockPublicAccessState'),
      'exposure.imds_default_allows_v1': lacking('EC2 GetInstanceMetadataDefaults'),
      'iam.bedrock_long_term_api_key': lacking('IAM ListServiceSpecificCredentials'),
      'threat.cloudtrail_enumeration': lacking('CloudTrail LookupEvents'),
      'threat.cloudtrail_llm_jacking': lacking('CloudTrail LookupEvents'),
      'threat.cloudtrail_privilege_escalation': lacking('CloudTrail LookupEvents'),
      'billing.cost_anomaly':
        "Cost Explorer GetAnomalies failed (HTTP 500) after retries: an answer that is not in AWS's format",
      'billing.no_cost_anomaly_monitor':
        "Cost Explorer GetAnomalyMonitors failed (HTTP 500) after retries: an answer that is not in AWS's format",
      'threat.guardduty_high_severity_finding': expect.stringMatching(
        /^GuardDuty has no enabled detector in any region/,
      ),
      'suspension.health_abuse_event':
        "AWS Health DescribeEvents failed (HTTP 500) after retries: an answer that is not in AWS's format",
      'suspension.health_credentials_exposed':
        "AWS Health DescribeEvents failed (HTTP 500) after retries: an answer that is not in AWS's format",
      'iam.access_analyzer_off':
        "IAM Access Analyzer ListAnalyzers failed (HTTP 500) after retries: an answer that is not in AWS's format",
      // moto's credential report has no row for the root user (AWS's always has), and its Cost Explorer no costs.
      'iam.root_recently_used': 'The credential report has no row for the root user.',
      'billing.daily_spend_spike': 'No complete day of cost data.',
    };
    expect(notEvaluated).toEqual(expected);
    expect(body.coverage).toEqual({ evaluated: TOTAL - Object.keys(expected).length, total: TOTAL });
  });
});
