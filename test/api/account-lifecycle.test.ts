import { accountWorkflowId } from '../../workflows/contracts';
import { accountLimitKey, VERIFIES_PER_ACCOUNT } from '../../domain/tenancy/limits';
import { getPlan } from '../../domain/tenancy/plans';
import { stateQuery } from '../../workflows/contracts';
import { customerAccount, runAsCustomer } from '../helpers/aws';
import { waitFor } from '../helpers/patience';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { scanResult } from '../helpers/scans';

// Connect, run the generated CLI script in the customer's (moto) account, verify through STS, scan,
// disconnect: the real API, the real worker on the Temporal dev server, the real AWS provider on moto.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true });
});
afterAll(() => ctx.close());

/** Connects without the event forwarder (its script is the forwarder suite's), unless told: the role is what these tests set up. */
async function connect(user: TestUser, awsAccountId: string, { eventForwarding = false } = {}) {
  const body = { aws_account_id: awsAccountId, event_forwarding: eventForwarding };
  return (await ctx.http.post('/accounts').set(user.auth).send(body).expect(201)).body as {
    external_id: string;
    sentinel_account_id: string;
    fallback_cli_script: string;
  };
}

const ARN = /^arn:sentinel:temporal:default:workflow\/(account:[^/]+)\/scan\/(scan_[0-9A-Z]{26})$/;

describe('POST /accounts/{account_id}/verify', () => {
  it('verifies through STS once the customer ran the CLI script, and starts the first scan at once', async () => {
    const owner = await signupAndLogin(ctx);
    const customer = await customerAccount();
    // The script as a connect answers it by default, with the event forwarder.
    const connected = await connect(owner, customer.accountId, { eventForwarding: true });
    expect(connected.sentinel_account_id).toBe('123456789012'); // moto's own account, from GetCallerIdentity
    await runAsCustomer({ script: connected.fallback_cli_script, customer });

    const res = await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(200);
    expect(res.body).toEqual({
      aws_account_id: customer.accountId,
      cloud_account_id: customer.accountId,
      status: 'ACTIVE',
      first_scan_execution_arn: expect.stringMatching(ARN),
    });
    const [, workflowId, scanId] = ARN.exec(res.body.first_scan_execution_arn)!;
    expect(workflowId).toBe(accountWorkflowId(owner.tenantId, customer.accountId));
    expect(await scanResult(ctx.temporal, res.body.first_scan_execution_arn)).toMatchObject({ status: 'succeeded' });
    // The execution ARN leads to the scan: in the account workflow's history, the runScan activity with the scan's id.
    const { events } = await ctx.temporal.workflow.getHandle(workflowId!).fetchHistory();
    const scheduled = (events ?? [])
      .flatMap((e) => e.activityTaskScheduledEventAttributes ?? [])
      .map((a) => [a.activityId, a.activityType?.name]);
    expect(scheduled).toEqual(expect.arrayContaining([[scanId, 'runScan']]));

    // The account workflow is findable by tenant and account id, and its status attribute follows the lifecycle.
    const lifecycle = await ctx.temporal.workflow.getHandle(workflowId!).describe();
    expect(lifecycle.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
      expect.arrayContaining([
        ['SentinelAwsAccountId', customer.accountId],
        ['SentinelTenantId', owner.tenantId],
        ['SentinelAccountStatus', 'ACTIVE'],
      ]),
    );
    // Its tasks are dispatched fairly across tenants: the tenant is its fairness key, weighted by the (solo) plan.
    expect(lifecycle.priority).toMatchObject({
      fairnessKey: owner.tenantId,
      fairnessWeight: getPlan('solo').fairness_weight,
    });

    const account = await ctx.http.get(`/accounts/${customer.accountId}`).set(owner.auth).expect(200);
    expect(account.body).toMatchObject({
      status: 'ACTIVE',
      connected_at: expect.any(String),
      last_successful_scan_at: expect.any(String),
    });

    // Verifying an ACTIVE account again is idempotent: the same first scan.
    const again = await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(200);
    expect(again.body).toEqual(res.body);
  }); // the whole script, event forwarder included, is some thirty AWS CLI commands against moto

  it('answers 422 with an actionable reason while the role is missing, keeps PENDING, and verifies later', async () => {
    const owner = await signupAndLogin(ctx);
    const customer = await customerAccount();
    const connected = await connect(owner, customer.accountId);

    const res = await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(422);
    expect(res.body.code).toBe('role_assumption_failed');
    expect(res.body.error).toMatch(/SentinelReadOnly/);
    expect((await ctx.http.get(`/accounts/${customer.accountId}`).set(owner.auth).expect(200)).body.status).toBe(
      'PENDING',
    );

    await runAsCustomer({ script: connected.fallback_cli_script, customer });
    await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(200);
  });

  it('answers 422 when the role was set up for another ExternalId', async () => {
    const owner = await signupAndLogin(ctx);
    const customer = await customerAccount();
    const connected = await connect(owner, customer.accountId);
    const tampered = connected.fallback_cli_script.replaceAll(connected.external_id, 'a'.repeat(32));
    await runAsCustomer({ script: tampered, customer });
    const res = await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(422);
    expect(res.body.error).toMatch(/ExternalId/);
  });

  it("answers 404 for another tenant's account and 409 for a disconnected one", async () => {
    const owner = await signupAndLogin(ctx);
    const intruder = await signupAndLogin(ctx);
    const customer = await customerAccount();
    await connect(owner, customer.accountId);
    await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(intruder.auth).expect(404);
    await ctx.http.delete(`/accounts/${customer.accountId}`).set(owner.auth).expect(200);
    const res = await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(409);
    expect(res.body.code).toBe('invalid_state');
  });
});

describe('POST /accounts/{account_id}/scan', () => {
  let owner: TestUser;
  let awsAccountId: string;
  beforeAll(async () => {
    owner = await signupAndLogin(ctx);
    const customer = await customerAccount();
    awsAccountId = customer.accountId;
    await runAsCustomer({ script: (await connect(owner, awsAccountId)).fallback_cli_script, customer });
    await ctx.http.post(`/accounts/${awsAccountId}/verify`).set(owner.auth).expect(200);
  });

  it('starts a scan and returns its execution ARN', async () => {
    const res = await ctx.http.post(`/accounts/${awsAccountId}/scan`).set(owner.auth).expect(202);
    expect(res.body).toEqual({ message: expect.any(String), execution_arn: expect.stringMatching(ARN) });
    const scanId = ARN.exec(res.body.execution_arn)![2]!;
    // Behind the first scan, each a full read of the moto account: on a loaded machine a minute or more.
    await waitFor(async () => {
      const row = await ctx.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirst();
      return row?.status === 'succeeded';
    });
    const row = await ctx.db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirstOrThrow();
    expect(row.trigger).toBe('manual');
  });

  it('rate limits manual scans per the plan with 429 and Retry-After', async () => {
    // The solo plan allows a few manual scans an hour per account; the first test used one.
    const allowed = getPlan('solo').manual_scans_per_hour;
    for (let i = 1; i < allowed; i++) await ctx.http.post(`/accounts/${awsAccountId}/scan`).set(owner.auth).expect(202);
    const limited = await ctx.http.post(`/accounts/${awsAccountId}/scan`).set(owner.auth).expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('rate limits manual scans per tenant too, whatever the account, and verify attempts per account', async () => {
    const solo = getPlan('solo');
    const fill = (key: string, count: number) =>
      ctx.db
        .insertInto('rate_limits')
        .values({ key, window_start: new Date(), count })
        .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: new Date(), count }))
        .execute();
    await fill(`scan:manual:${owner.tenantId}`, solo.manual_scans_per_hour * solo.account_limit);
    await ctx.db
      .deleteFrom('rate_limits')
      .where('key', '=', accountLimitKey('scan:manual', owner.tenantId, awsAccountId))
      .execute();
    const limited = await ctx.http.post(`/accounts/${awsAccountId}/scan`).set(owner.auth).expect(429);
    expect(limited.body).toEqual({
      error: `The Solo plan allows ${solo.manual_scans_per_hour * solo.account_limit} manual scans per tenant per hour`,
      code: 'rate_limited',
    });

    const tenant = await signupAndLogin(ctx);
    await connect(tenant, '123123123124');
    await fill(accountLimitKey('verify', tenant.tenantId, '123123123124'), VERIFIES_PER_ACCOUNT);
    const refused = await ctx.http.post('/accounts/123123123124/verify').set(tenant.auth).expect(429);
    expect(refused.body).toEqual({
      error: `At most ${VERIFIES_PER_ACCOUNT} verify attempts per account per hour`,
      code: 'rate_limited',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses to scan a PENDING account with 409', async () => {
    const tenant = await signupAndLogin(ctx);
    await connect(tenant, '123123123123');
    const res = await ctx.http.post('/accounts/123123123123/scan').set(tenant.auth).expect(409);
    expect(res.body).toMatchObject({ code: 'invalid_state', error: expect.stringContaining('verify') });
  });

  it("answers 404 for another tenant's account", async () => {
    const intruder = await signupAndLogin(ctx);
    await ctx.http.post(`/accounts/${awsAccountId}/scan`).set(intruder.auth).expect(404);
  });

  it('is refused to a viewer', async () => {
    const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
    await ctx.http.post(`/accounts/${awsAccountId}/scan`).set(viewer.auth).expect(403);
  });
});

describe('DELETE /accounts/{account_id} of an ACTIVE account', () => {
  it('stops the scan loop and refuses later scans', async () => {
    const owner = await signupAndLogin(ctx);
    const customer = await customerAccount();
    await runAsCustomer({ script: (await connect(owner, customer.accountId)).fallback_cli_script, customer });
    await ctx.http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(200);
    await ctx.http.delete(`/accounts/${customer.accountId}`).set(owner.auth).expect(200);

    const handle = ctx.temporal.workflow.getHandle(accountWorkflowId(owner.tenantId, customer.accountId));
    await handle.result();
    expect((await handle.query(stateQuery)).status).toBe('DISCONNECTED');
    await ctx.http.post(`/accounts/${customer.accountId}/scan`).set(owner.auth).expect(409);
    // Nothing in the customer's account was touched: the role is still there.
    const { GetRoleCommand } = await import('@aws-sdk/client-iam');
    await expect(customer.iam.send(new GetRoleCommand({ RoleName: 'SentinelReadOnly' }))).resolves.toBeDefined();
  });
});
