import { sql } from 'kysely';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { scanResult } from '../helpers/scans';
import { seedFleet } from '../helpers/fleet';
import { callerFor, failure } from './caller';

// The tRPC procedures through createCaller, against the real database, Temporal dev server and worker with the
// sandbox cloud: each calls the same service as its REST route, with the same schemas and the same errors.

const AWS_ID = '210987654321';
const EMAIL_CHANNEL = { type: 'email' as const, to: ['ops@example.com'] };

let ctx: TestContext;
let owner: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({
    withWorker: true,
    config: { CLOUD_PROVIDER: 'sandbox', TEMPORAL_UI_URL: 'http://temporal-ui.test:8233' },
  });
  owner = await signupAndLogin(ctx, 'Procedure Owner');
});
afterAll(() => ctx.close());

describe('auth', () => {
  it('signs up, logs in, refreshes (rotating the token) and logs out', async () => {
    const anonymous = callerFor(ctx, null);
    const email = `trpc-${Date.now()}@example.com`;
    const signup = await anonymous.auth.signup({ email, password: 'a-long-password', name: 'Via tRPC' });
    expect(signup).toMatchObject({ tenant_id: expect.any(String), user_id: expect.any(String) });
    const tokens = await anonymous.auth.login({ email, password: 'a-long-password' });
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, id_token: expect.any(String) });
    const me = await callerFor(ctx, { idToken: tokens.id_token } as TestUser).me.get();
    expect(me.user).toMatchObject({ email, role: 'owner' });

    const refreshed = await anonymous.auth.refresh({ refresh_token: tokens.refresh_token });
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // Single-use: the old refresh token is refused with the REST code.
    expect(await failure(anonymous.auth.refresh({ refresh_token: tokens.refresh_token }))).toMatchObject({
      trpc: 'UNAUTHORIZED',
      code: 'invalid_refresh_token',
    });
    await expect(anonymous.auth.logout({ refresh_token: refreshed.refresh_token })).resolves.toEqual({ ok: true });
  });

  it('answers a wrong password like REST: 401 invalid_credentials, same message', async () => {
    const got = await failure(callerFor(ctx, null).auth.login({ email: owner.email, password: 'not-the-password' }));
    const rest = await ctx.http
      .post('/auth/login')
      .send({ email: owner.email, password: 'not-the-password' })
      .expect(401);
    expect(got).toEqual({ trpc: 'UNAUTHORIZED', code: 'invalid_credentials', message: rest.body.error });
  });

  it('answers bad input with the same 400 validation_failed message and details as REST', async () => {
    const input = { email: 'not-an-email', password: 'short', name: '' };
    const got = await failure(callerFor(ctx, null).auth.signup(input));
    const rest = await ctx.http.post('/auth/signup').send(input).expect(400);
    expect(got.trpc).toBe('BAD_REQUEST');
    expect(got.code).toBe('validation_failed');
    expect(got.details).toEqual(rest.body.details);
    expect(got.message).toBe(rest.body.error.replace('Invalid request body', 'Invalid input'));
  });

  it('refuses a missing or forged bearer token with 401 unauthorized', async () => {
    expect(await failure(callerFor(ctx, null).me.get())).toMatchObject({ trpc: 'UNAUTHORIZED', code: 'unauthorized' });
    const forged = { ...owner, idToken: `${owner.idToken.slice(0, -4)}AAAA` };
    expect(await failure(callerFor(ctx, forged).accounts.list())).toMatchObject({
      trpc: 'UNAUTHORIZED',
      code: 'unauthorized',
    });
  });
});

describe('the fleet views', () => {
  it('answer the overview, a search across accounts and a page of accounts as REST does, with the same errors', async () => {
    const fleet = await signupAndLogin(ctx, 'Fleet Owner');
    const base = Date.now() - 3_600_000;
    await seedFleet(ctx.db, fleet.tenantId, {
      accounts: [0, 1, 2].map((i) => ({
        id: `acc_trpcfleet${i}`,
        awsAccountId: `61000000000${i}`,
        displayName: `Fleet ${i}`,
        tags: i === 0 ? ['prod'] : ['dev'],
        status: 'ACTIVE' as const,
        currentSrs: 90 - i * 30,
        coverage: { evaluated: 67, total: 67 },
        scoreComplete: true,
        createdAt: new Date(base + i),
      })),
      signals: Array.from({ length: 9 }, (_, i) => ({
        id: `sig_trpcfleet${i}`,
        accountId: `acc_trpcfleet${i % 3}`,
        severity: 'HIGH' as const,
        scenario: 'iam' as const,
        checkId: 'iam.user_admin_access',
        detectedAt: new Date(base + i * 1000),
        resolvedAt: null,
      })),
    });
    const api = callerFor(ctx, fleet);
    const rest = (path: string, query: object = {}) =>
      ctx.http
        .get(path)
        .query(query)
        .set(fleet.auth)
        .expect(200)
        .then((r) => r.body);

    const { generated_at: _at, ...overview } = await api.overview.get();
    const { generated_at: _restAt, ...restOverview } = await rest('/overview');
    expect(overview).toEqual(restOverview);
    expect(overview.open_signals.total).toBe(9);

    expect(await api.signals.search()).toEqual(await rest('/signals'));
    const prod = await api.signals.search({ tag: 'prod', limit: 2 });
    expect(prod).toEqual(await rest('/signals', { tag: 'prod', limit: 2 }));
    expect(prod.signals.map((s) => s.aws_account_id)).toEqual(['610000000000', '610000000000']);
    expect(await api.signals.search({ tag: 'prod', limit: 2, next_token: prod.next_token! })).toEqual(
      await rest('/signals', { tag: 'prod', limit: 2, next_token: prod.next_token }),
    );

    const worst = await api.accounts.list({ sort: 'srs', limit: 2 });
    expect(worst).toEqual(await rest('/accounts', { sort: 'srs', limit: 2 }));
    expect(worst.accounts.map((a) => a.current_srs)).toEqual([30, 60]);
    expect(await api.accounts.list()).toEqual(await rest('/accounts'));

    expect(await failure(api.signals.search({ next_token: 'garbage' }))).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'invalid_cursor',
    });
    expect(await failure(api.accounts.list({ sort: 'srs', next_token: worst.next_token!.slice(1) }))).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'invalid_cursor',
    });
    expect(await failure(api.accounts.list({ limit: 251 }))).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'validation_failed',
    });
  });
});

describe('an account from connect to first scan', () => {
  it('connects, verifies, scans, and serves score, findings, history, checklist and exports', async () => {
    const api = callerFor(ctx, owner);
    expect(await api.accounts.list()).toEqual({ accounts: [], total: 0, next_token: null });
    await api.alertRules.create({ name: 'Anything', min_srs: 100, channels: [EMAIL_CHANNEL] });

    const connected = await api.accounts.connect({ aws_account_id: AWS_ID, display_name: 'Sandbox', tags: ['demo'] });
    expect(connected).toMatchObject({
      aws_account_id: AWS_ID,
      status: 'PENDING',
      terraform_snippet: expect.stringContaining(connected.external_id),
    });
    expect(await failure(api.accounts.connect({ aws_account_id: AWS_ID }))).toMatchObject({
      trpc: 'CONFLICT',
      code: 'account_exists',
    });

    const verified = await api.accounts.verify({ account_id: AWS_ID });
    expect(verified.status).toBe('ACTIVE');
    await scanResult(ctx.temporal, verified.first_scan_execution_arn);

    const account = await api.accounts.get({ account_id: AWS_ID });
    expect(account).toMatchObject({ status: 'ACTIVE', display_name: 'Sandbox', current_srs: expect.any(Number) });
    const row = await ctx.db
      .selectFrom('accounts')
      .select('workflow_id')
      .where('tenant_id', '=', owner.tenantId)
      .executeTakeFirstOrThrow();
    expect(account.temporal_ui_url).toBe(
      `http://temporal-ui.test:8233/namespaces/default/workflows/${encodeURIComponent(row.workflow_id)}`,
    );
    // The REST body, plus the Temporal UI link.
    const { temporal_ui_url: _link, ...body } = account;
    expect(body).toEqual((await ctx.http.get(`/accounts/${AWS_ID}`).set(owner.auth).expect(200)).body);
    // Workflow ids are for operators: viewers and members get the account without the link.
    for (const role of ['viewer', 'member'] as const) {
      const user = await addUserWithRole(ctx, owner.tenantId, role);
      expect(await callerFor(ctx, user).accounts.get({ account_id: AWS_ID })).toEqual({
        ...body,
        temporal_ui_url: null,
      });
    }

    const open = await api.signals.list({ account_id: AWS_ID, query: { status: 'open' } });
    expect(open.count).toBeGreaterThan(0);
    expect(open.signals.every((s) => s.resolved_at === null)).toBe(true);
    const critical = await api.signals.list({ account_id: AWS_ID, query: { severity: 'CRITICAL', limit: 1 } });
    expect(critical.signals.every((s) => s.severity === 'CRITICAL')).toBe(true);
    expect(critical.signals.length).toBeLessThanOrEqual(1);
    // With no query at all, the REST defaults apply (the same page as GET .../signals).
    const rest = await ctx.http.get(`/accounts/${AWS_ID}/signals`).set(owner.auth).expect(200);
    expect(await api.signals.list({ account_id: AWS_ID })).toEqual(rest.body);

    // The day's point says whether its score read every core source, as the account does.
    expect(account.score_complete).toEqual(expect.any(Boolean));
    expect((await api.signals.scoreHistory({ account_id: AWS_ID })).history).toEqual([
      {
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        srs: account.current_srs,
        complete: account.score_complete,
      },
    ]);
    expect(await api.signals.scoreHistory({ account_id: AWS_ID })).toEqual(
      (await ctx.http.get(`/accounts/${AWS_ID}/score-history`).set(owner.auth).expect(200)).body,
    );
    expect((await api.signals.recoveryChecklist({ account_id: AWS_ID })).checklist.length).toBeGreaterThan(0);
    expect(await failure(api.signals.list({ account_id: AWS_ID, query: { next_token: 'garbage' } }))).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'invalid_cursor',
    });

    // Compliance: the REST bodies; the report as text, the document REST downloads.
    const cis = { framework: 'cis-aws-7.0' } as const;
    expect(await api.compliance.frameworks()).toEqual(
      (await ctx.http.get('/compliance/frameworks').set(owner.auth).expect(200)).body,
    );
    expect(await api.compliance.account({ account_id: AWS_ID, query: cis })).toEqual(
      (await ctx.http.get(`/accounts/${AWS_ID}/compliance`).query(cis).set(owner.auth).expect(200)).body,
    );
    expect(await api.compliance.tenant(cis)).toEqual(
      (await ctx.http.get('/compliance').query(cis).set(owner.auth).expect(200)).body,
    );
    const report = await api.compliance.report({ account_id: AWS_ID, query: cis });
    expect(report.filename).toMatch(new RegExp(`^sentinel-cis-aws-7\\.0-${AWS_ID}-\\d{4}-\\d{2}-\\d{2}\\.html$`));
    expect(report.html).toMatch(/^<!DOCTYPE html>/);
    expect(await failure(api.compliance.tenant({ framework: 'iso' } as never))).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'validation_failed',
    });

    // The account's events: the forwarder's key from the connect answer delivers one, listed as REST lists it; a
    // rotation answers a new key that works at once.
    const event = {
      version: '0',
      id: 'procedures-event-1',
      'detail-type': 'AWS API Call via CloudTrail',
      source: 'aws.iam',
      account: AWS_ID,
      time: new Date().toISOString(),
      region: 'us-east-1',
      resources: [],
      detail: {
        eventSource: 'iam.amazonaws.com',
        eventName: 'ListUsers',
        userIdentity: { type: 'IAMUser', arn: `arn:aws:iam::${AWS_ID}:user/ops` },
      },
    };
    const sendEvent = (key: string, body: unknown) =>
      ctx.http
        .post('/ingest/aws/events')
        .set('Content-Type', 'application/json')
        .set(connected.event_forwarding!.api_key_header, key)
        .send(JSON.stringify(body));
    await sendEvent(connected.event_forwarding!.api_key, event).expect(202);
    const events = await api.events.list({ account_id: AWS_ID });
    expect(events.events.map((e) => e.event_id)).toEqual(['procedures-event-1']);
    expect(events).toEqual((await ctx.http.get(`/accounts/${AWS_ID}/events`).set(owner.auth).expect(200)).body);
    expect(await failure(api.events.list({ account_id: AWS_ID, query: { next_token: 'garbage' } }))).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'invalid_cursor',
    });
    // The region the event came from, as REST shows it: events, but no heartbeat yet.
    const forwarding = await api.events.forwarding({ account_id: AWS_ID });
    expect(forwarding.regions).toEqual([
      { region: 'us-east-1', state: 'no_heartbeat', last_heartbeat_at: null, last_event_at: expect.any(String) },
    ]);
    expect(forwarding).toEqual(
      (await ctx.http.get(`/accounts/${AWS_ID}/event-forwarding`).set(owner.auth).expect(200)).body,
    );
    const rotated = await api.events.rotateKey({ account_id: AWS_ID });
    expect(rotated.event_forwarding.api_key).not.toBe(connected.event_forwarding!.api_key);
    await sendEvent(rotated.event_forwarding.api_key, { ...event, id: 'procedures-event-2' }).expect(202);
    // With revoke_previous the key it replaces stops at once, as over REST.
    const revoked = await api.events.rotateKey({ account_id: AWS_ID, body: { revoke_previous: true } });
    expect(Date.parse(revoked.previous_key_expires_at)).toBeLessThanOrEqual(Date.now());
    await sendEvent(rotated.event_forwarding.api_key, { ...event, id: 'procedures-event-3' }).expect(401);
    await sendEvent(revoked.event_forwarding.api_key, { ...event, id: 'procedures-event-3' }).expect(202);

    // CSV export is a Team feature, with the REST message on Solo.
    expect(await failure(api.exports.csv({ account_id: AWS_ID }))).toMatchObject({
      trpc: 'FORBIDDEN',
      code: 'plan_feature_unavailable',
    });
    await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
    const csv = await api.exports.csv({ account_id: AWS_ID });
    expect(csv.filename).toMatch(new RegExp(`^sentinel-${AWS_ID}-signals-\\d{8}\\.csv$`));
    expect(csv.csv.trim().split('\r\n')).toHaveLength(
      1 + (await api.signals.list({ account_id: AWS_ID, query: { limit: 200 } })).count,
    );

    const scan = await api.accounts.scan({ account_id: AWS_ID });
    expect(scan.execution_arn).toMatch(/workflow\/account:[^/]+\/scan\/scan_/);
    await scanResult(ctx.temporal, scan.execution_arn);

    // The rule fired on the first scan: an alert to acknowledge, idempotently.
    const { alerts } = await api.alerts.list();
    expect(alerts.length).toBeGreaterThan(0);
    const first = alerts[0]!;
    // Each alert says whether the score it fired on was complete: the sandbox account reads the same every scan.
    expect(alerts.map((a) => a.srs_complete_at_trigger)).toEqual(alerts.map(() => account.score_complete));
    expect(await api.alerts.list()).toEqual((await ctx.http.get('/alerts').set(owner.auth).expect(200)).body);
    const ack = await api.alerts.acknowledge({ alert_id: first.alert_id });
    expect(ack).toEqual({ alert_id: first.alert_id, acknowledged_at: expect.any(String) });
    expect(await api.alerts.acknowledge({ alert_id: first.alert_id })).toEqual(ack);

    expect(await api.accounts.disconnect({ account_id: AWS_ID })).toMatchObject({
      message: expect.stringContaining('disconnected'),
    });
    expect((await api.accounts.get({ account_id: AWS_ID })).status).toBe('DISCONNECTED');
  });

  it("answers 422 role_assumption_failed with the service's reason when the role cannot be assumed", async () => {
    const other = await signupAndLogin(ctx, 'Broken Role');
    const api = callerFor(ctx, other);
    await api.accounts.connect({ aws_account_id: '999999999999' });
    const got = await failure(api.accounts.verify({ account_id: '999999999999' }));
    expect(got).toMatchObject({ trpc: 'UNPROCESSABLE_CONTENT', code: 'role_assumption_failed' });
    expect(got.message.length).toBeGreaterThan(20);
    expect((await api.accounts.get({ account_id: '999999999999' })).status).toBe('PENDING');
  });
});

describe('alert rules', () => {
  it('creates, edits, disables and deletes a rule, accepting the neutral channel names', async () => {
    const api = callerFor(ctx, owner);
    const rule = await api.alertRules.create({
      name: 'Paging',
      min_srs: 50,
      scenarios: ['iam'],
      channels: [{ type: 'paging', routing_key: 'R'.repeat(32) }],
    } as never);
    // The routing key is a secret: shown masked, as over REST.
    expect(rule).toMatchObject({
      name: 'Paging',
      enabled: true,
      channels: [{ type: 'pagerduty', routing_key: '****RRRR' }],
    });
    expect(await api.alertRules.get({ rule_id: rule.rule_id, query: { reveal: 'true' } })).toMatchObject({
      channels: [{ type: 'pagerduty', routing_key: 'R'.repeat(32) }],
    });
    const edited = await api.alertRules.update({
      rule_id: rule.rule_id,
      patch: { name: 'Paging (edited)', enabled: false },
    });
    expect(edited).toMatchObject({ name: 'Paging (edited)', enabled: false, min_srs: 50 });
    expect(await failure(api.alertRules.update({ rule_id: rule.rule_id, patch: {} }))).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'validation_failed',
    });
    expect(await failure(api.alertRules.create({ name: 'No channel', channels: [] }))).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'channels', message: 'needs at least one channel' }],
    });
    await api.alertRules.delete({ rule_id: rule.rule_id });
    expect((await api.alertRules.list()).rules.map((r) => r.rule_id)).not.toContain(rule.rule_id);
    expect(await failure(api.alertRules.delete({ rule_id: rule.rule_id }))).toMatchObject({
      trpc: 'NOT_FOUND',
      code: 'not_found',
    });
  });
});

describe('team', () => {
  it('invites, accepts the invitation, changes the role and removes the user, following the role rules', async () => {
    const tenant = await signupAndLogin(ctx, 'Team Owner');
    const api = callerFor(ctx, tenant);
    const email = `invitee-${Date.now()}@example.com`;
    const invited = await api.users.invite({ email, name: 'Invitee', role: 'viewer' });
    expect(invited).toMatchObject({ email, role: 'viewer' });
    const mail = await ctx.db
      .selectFrom('email_outbox')
      .select('text_body')
      .where(sql<boolean>`${email} = any(to_addresses)`)
      .executeTakeFirstOrThrow();
    const token = /\/app\/accept-invite#token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1] as string;
    const tokens = await callerFor(ctx, null).auth.acceptInvite({ token, password: 'invitee-password' });
    const invitee = { ...tenant, userId: invited.user_id, idToken: tokens.id_token };

    expect((await api.users.list()).users.find((u) => u.user_id === invited.user_id)).toMatchObject({
      status: 'active',
      role: 'viewer',
    });
    // The owner's role never changes; nobody removes themselves.
    expect(await failure(api.users.changeRole({ user_id: tenant.userId, role: 'admin' }))).toMatchObject({
      code: 'forbidden',
    });
    expect(await failure(api.users.remove({ user_id: tenant.userId }))).toMatchObject({ code: 'forbidden' });
    expect(await api.users.changeRole({ user_id: invited.user_id, role: 'member' })).toMatchObject({ role: 'member' });
    expect((await callerFor(ctx, invitee).me.get()).user.role).toBe('member');
    await expect(api.users.remove({ user_id: invited.user_id })).resolves.toEqual({ ok: true });
    // A removed user's tokens stop working at once.
    expect(await failure(callerFor(ctx, invitee).me.get())).toMatchObject({ code: 'unauthorized' });
  });
});

describe('billing and integrations', () => {
  it('lists plans without a token and answers 503 billing_not_configured without Stripe keys', async () => {
    const { plans } = await callerFor(ctx, null).billing.plans();
    expect(plans.map((p) => p.id)).toEqual(['solo', 'team', 'agency', 'enterprise']);
    expect({ plans }).toEqual((await ctx.http.get('/billing/plans').expect(200)).body);
    expect(await failure(callerFor(ctx, owner).billing.portal())).toMatchObject({
      trpc: 'SERVICE_UNAVAILABLE',
      code: 'billing_not_configured',
    });
    // Not configured is answered before the input is looked at, as in REST.
    expect(
      await failure(callerFor(ctx, owner).billing.checkout({ plan_id: 'team', success_url: 'x', cancel_url: 'y' })),
    ).toMatchObject({ code: 'billing_not_configured' });
    expect(await failure(callerFor(ctx, owner).integrations.slackInstallStart())).toMatchObject({
      code: 'slack_not_configured',
    });
    expect(await callerFor(ctx, owner).integrations.slackWorkspaces()).toEqual({ installations: [] });
  });
});

// The dashboard's upgrade and portal buttons against stripe-mock (Stripe's own mock, checking every request
// against Stripe's OpenAPI document); the REST billing tests cover the parameters sent in detail.
describe('billing with Stripe configured', () => {
  let billing: TestContext;
  let payer: TestUser;
  beforeAll(async () => {
    billing = await createTestContext({
      config: {
        STRIPE_SECRET_KEY: 'sk_test_51TrpcBillingKey',
        STRIPE_API_BASE_URL: process.env.TEST_STRIPE_MOCK_URL as string,
        STRIPE_PRICE_TEAM: 'price_team_monthly',
        STRIPE_PRICE_AGENCY: 'price_agency_monthly',
      },
    });
    payer = await signupAndLogin(billing.http, 'Paying Owner');
  });
  afterAll(() => billing?.close());

  it('opens a Checkout for an upgrade, then the customer portal; refuses the portal before any checkout', async () => {
    const api = callerFor(billing, payer);
    expect(await failure(api.billing.portal())).toMatchObject({ trpc: 'CONFLICT', code: 'no_billing_customer' });
    const checkout = await api.billing.checkout({
      plan_id: 'team',
      success_url: 'https://app.example.com/app/billing?done=1',
      cancel_url: 'https://app.example.com/app/billing',
    });
    expect(checkout.checkout_url).toMatch(/^https:\/\//);
    const tenant = await billing.db
      .selectFrom('tenants')
      .select(['stripe_customer_id', 'pending_checkout_session_id'])
      .where('id', '=', payer.tenantId)
      .executeTakeFirstOrThrow();
    expect(tenant.stripe_customer_id).toMatch(/^cus_/);
    expect(tenant.pending_checkout_session_id).toMatch(/^cs_/);
    const portal = await api.billing.portal({ return_url: 'https://app.example.com/app/billing' });
    expect(portal.portal_url).toMatch(/^https:\/\//);
  });
});

describe('trusted principals', () => {
  it('names, lists and revokes one as over REST, with the same validation and role rules', async () => {
    const api = callerFor(ctx, owner);
    const created = await api.trustedPrincipals.create({
      principal: 'arn:aws:sts::123456789012:assumed-role/terraform/*',
      detections: ['event.iam_user_created'],
      reason: 'Terraform applies from CI',
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    expect(created).toMatchObject({ aws_account_id: null, detections: ['event.iam_user_created'], status: 'in_force' });
    const listed = await api.trustedPrincipals.list();
    expect(listed.trusted_principals.map((t) => t.trusted_principal_id)).toContain(created.trusted_principal_id);
    expect(
      await failure(
        api.trustedPrincipals.create({
          principal: 'arn:aws:iam::123456789012:role/*',
          detections: ['event.nope'],
          reason: 'x',
          expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        }),
      ),
    ).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'validation_failed',
      details: expect.arrayContaining([{ field: 'principal', message: expect.stringContaining('role session ARN') }]),
    });
    const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
    expect(
      await failure(
        callerFor(ctx, viewer).trustedPrincipals.delete({ trusted_principal_id: created.trusted_principal_id }),
      ),
    ).toMatchObject({ trpc: 'FORBIDDEN', code: 'forbidden' });
    await api.trustedPrincipals.delete({ trusted_principal_id: created.trusted_principal_id });
    expect((await api.trustedPrincipals.list({ status: 'all' })).trusted_principals[0]).toMatchObject({
      trusted_principal_id: created.trusted_principal_id,
      status: 'revoked',
    });
    expect(
      await failure(api.trustedPrincipals.delete({ trusted_principal_id: created.trusted_principal_id })),
    ).toMatchObject({ trpc: 'NOT_FOUND', code: 'not_found' });
  });
});
