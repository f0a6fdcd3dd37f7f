import { sql } from 'kysely';
import { AUDIT_ACTIONS } from '../../domain/tenancy/audit';
import { newId } from '../../domain/ids';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { scanResult } from '../helpers/scans';

// The audit log: a scripted day of a tenant's security-relevant actions, read back through GET /audit-log
// (admins and owners), newest first, with who, what, when and from which address; filters, pages and isolation.

const AWS_ID = '123456789012';
const ADDRESS = '203.0.113.50';
const ROUTING_KEY = 'K'.repeat(28) + '1234';

interface Event {
  event_id: string;
  action: string;
  actor: { user_id: string | null; email: string | null } | null;
  target: string | null;
  client_address: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let day: string[];
let invitee: string;
let inviteeEmail: string;
let alertId: string;

beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true, config: { CLOUD_PROVIDER: 'sandbox' } });
  ctx.app.set('trust proxy', true);
  owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
  admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
  const as = (user: TestUser) => ({ Authorization: user.auth.Authorization, 'X-Forwarded-For': ADDRESS });

  // The day: each request from the same client address.
  await ctx.http
    .post('/auth/login')
    .set('X-Forwarded-For', ADDRESS)
    .send({ email: owner.email, password: 'wrong-password' })
    .expect(401);
  const session = await ctx.http
    .post('/auth/login')
    .set('X-Forwarded-For', ADDRESS)
    .send({ email: owner.email, password: owner.password })
    .expect(200);
  // The same name again is no change: one event.
  await ctx.http.patch('/me').set(as(owner)).send({ name: 'Owen Owner' }).expect(200);
  await ctx.http.patch('/me').set(as(owner)).send({ name: 'Owen Owner' }).expect(200);
  inviteeEmail = `aud-${Date.now()}@example.com`;
  const invited = await ctx.http
    .post('/users/invite')
    .set(as(owner))
    .send({ email: inviteeEmail, name: 'Ada', role: 'viewer' })
    .expect(201);
  invitee = invited.body.user_id;
  const [mail] = await ctx.db
    .selectFrom('email_outbox')
    .select('text_body')
    .where(sql<boolean>`${inviteeEmail} = any(to_addresses)`)
    .execute();
  const token = /\/app\/accept-invite#token=([A-Za-z0-9_-]+)/.exec(mail!.text_body)![1];
  await ctx.http
    .post('/auth/accept-invite')
    .set('X-Forwarded-For', ADDRESS)
    .send({ token, password: 'a new password of hers' })
    .expect(200);
  await ctx.http.patch(`/users/${invited.body.user_id}`).set(as(owner)).send({ role: 'member' }).expect(200);
  await ctx.http.post('/accounts').set(as(owner)).send({ aws_account_id: AWS_ID }).expect(201);
  const verified = await ctx.http.post(`/accounts/${AWS_ID}/verify`).set(as(owner)).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
  const manual = await ctx.http.post(`/accounts/${AWS_ID}/scan`).set(as(owner)).expect(202);
  await scanResult(ctx.temporal, manual.body.execution_arn);
  const [signal] = (
    await ctx.http.get(`/accounts/${AWS_ID}/signals`).query({ status: 'open', limit: 1 }).set(as(owner)).expect(200)
  ).body.signals;
  await ctx.http
    .post(`/accounts/${AWS_ID}/signals/${signal.signal_id}/accept`)
    .set(as(owner))
    .send({ reason: 'Known' })
    .expect(200);
  await ctx.http.delete(`/accounts/${AWS_ID}/signals/${signal.signal_id}/accept`).set(as(owner)).expect(200);
  const rule = await ctx.http
    .post('/alert-rules')
    .set(as(admin))
    .send({ name: 'Pager', channels: [{ type: 'pagerduty', routing_key: ROUTING_KEY }] })
    .expect(201);
  await ctx.http.patch(`/alert-rules/${rule.body.rule_id}`).set(as(admin)).send({ min_srs: 30 }).expect(200);
  await ctx.http.get(`/alert-rules/${rule.body.rule_id}`).query({ reveal: 'true' }).set(as(admin)).expect(200);
  // An alert of the rule (as the firing activity records it), acknowledged twice: the first one is the change.
  alertId = newId('alert');
  const account = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'first_scan_id'])
    .where('tenant_id', '=', owner.tenantId)
    .where('aws_account_id', '=', AWS_ID)
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('alert_events')
    .values({
      id: alertId,
      tenant_id: owner.tenantId,
      account_id: account.id,
      rule_id: rule.body.rule_id,
      scan_id: account.first_scan_id,
      srs_at_trigger: 30,
      scenarios_triggered: ['iam'],
      findings_digest: 'audit-day',
      fired_at: new Date(),
    })
    .execute();
  await ctx.http.post(`/alerts/${alertId}/ack`).set(as(admin)).expect(200);
  await ctx.http.post(`/alerts/${alertId}/ack`).set(as(admin)).expect(200);
  await ctx.http.delete(`/alert-rules/${rule.body.rule_id}`).set(as(admin)).expect(200);
  await ctx.http.get(`/accounts/${AWS_ID}/export`).set(as(owner)).expect(200);
  const panic = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(as(owner)).expect(200);
  const link = new URL(panic.body.download_url);
  await ctx.http.get(`${link.pathname}${link.search}`).set('X-Forwarded-For', ADDRESS).expect(200);
  await ctx.http
    .get(`/accounts/${AWS_ID}/compliance/report`)
    .query({ framework: 'cis-aws-7.0' })
    .set(as(owner))
    .expect(200);
  await ctx.http.delete(`/users/${invited.body.user_id}`).set(as(owner)).expect(204);
  await ctx.http.delete(`/accounts/${AWS_ID}`).set(as(owner)).expect(200);
  // Logging out again with the same token changes nothing: one event.
  await ctx.http
    .post('/auth/logout')
    .set('X-Forwarded-For', ADDRESS)
    .send({ refresh_token: session.body.refresh_token })
    .expect(204);
  await ctx.http
    .post('/auth/logout')
    .set('X-Forwarded-For', ADDRESS)
    .send({ refresh_token: session.body.refresh_token })
    .expect(204);
  day = [
    'auth.login_failed',
    'auth.login_succeeded',
    'user.name_changed',
    'user.invited',
    'user.invitation_accepted',
    'user.role_changed',
    'account.connected',
    'account.verified',
    'account.scan_requested',
    'signal.risk_accepted',
    'signal.risk_acceptance_undone',
    'alert_rule.created',
    'alert_rule.updated',
    'alert_rule.secrets_revealed',
    'alert.acknowledged',
    'alert_rule.deleted',
    'export.csv_downloaded',
    'export.panic_created',
    'export.panic_downloaded',
    'export.compliance_report_downloaded',
    'user.removed',
    'account.disconnected',
  ];
});
afterAll(() => ctx.close());

const auditLog = async (user: TestUser, query: Record<string, string | number> = {}) =>
  (await ctx.http.get('/audit-log').query(query).set(user.auth).expect(200)).body as {
    events: Event[];
    next_token: string | null;
  };

describe('GET /audit-log', () => {
  it('records the day, newest first: who, what, to what, and from which address', async () => {
    const { events } = await auditLog(admin, { limit: 200 });
    // The day's requests came from ADDRESS; the set-up's logins came from the test's own address.
    const ours = events.filter((e) => e.client_address === ADDRESS).reverse();
    expect(ours.map((e) => e.action)).toEqual(day);
    expect(events.map((e) => e.created_at)).toEqual([...events.map((e) => e.created_at)].sort().reverse());

    const byAction = new Map(ours.map((e) => [e.action, e]));
    expect(byAction.get('auth.login_failed')).toMatchObject({
      actor: { user_id: owner.userId, email: owner.email },
      target: `user:${owner.userId}`,
    });
    expect(byAction.get('account.verified')).toMatchObject({
      actor: { user_id: owner.userId },
      target: `account:${AWS_ID}`,
    });
    expect(byAction.get('alert_rule.secrets_revealed')).toMatchObject({
      actor: { user_id: admin.userId, email: admin.email },
    });
    expect(byAction.get('user.role_changed')?.details).toMatchObject({ from: 'viewer', to: 'member' });
    expect(byAction.get('signal.risk_accepted')?.details).toMatchObject({ reason: 'Known', aws_account_id: AWS_ID });
    // A signed download has no user: the address is who.
    expect(byAction.get('export.panic_downloaded')).toMatchObject({ actor: null, target: `account:${AWS_ID}` });
    expect(byAction.get('user.name_changed')).toMatchObject({
      actor: { user_id: owner.userId, email: owner.email },
      target: `user:${owner.userId}`,
      details: { from: 'Test Owner', to: 'Owen Owner' },
    });
    // The invitee acted (removed since: the e-mail says who).
    expect(byAction.get('user.invitation_accepted')).toMatchObject({
      actor: { user_id: null, email: inviteeEmail },
      target: `user:${invitee}`,
    });
    expect(byAction.get('account.scan_requested')).toMatchObject({
      actor: { user_id: owner.userId },
      target: `account:${AWS_ID}`,
      details: { scan_id: expect.stringMatching(/^scan_/) },
    });
    expect(byAction.get('alert.acknowledged')).toMatchObject({
      actor: { user_id: admin.userId, email: admin.email },
      target: `alert:${alertId}`,
    });
    expect(byAction.get('export.compliance_report_downloaded')).toMatchObject({
      actor: { user_id: owner.userId },
      target: `account:${AWS_ID}`,
      details: { framework: 'cis-aws-7.0' },
    });
    // A logout is the refresh token's user's; logging out with it again records nothing.
    const logouts = events.filter((e) => e.action === 'auth.logout');
    expect(logouts).toEqual([
      expect.objectContaining({ actor: { user_id: owner.userId, email: owner.email }, target: `user:${owner.userId}` }),
    ]);
    // Never a secret.
    expect(JSON.stringify(events)).not.toContain(ROUTING_KEY);
  });

  it('filters by action and by user, and pages with next_token', async () => {
    expect((await auditLog(owner, { action: 'alert_rule.created' })).events.map((e) => e.action)).toEqual([
      'alert_rule.created',
    ]);
    const byAdmin = await auditLog(owner, { user_id: admin.userId });
    // The admin's own login (set-up), then the rules they worked on.
    expect(new Set(byAdmin.events.map((e) => e.action))).toEqual(
      new Set([
        'auth.login_succeeded',
        'alert_rule.created',
        'alert_rule.updated',
        'alert_rule.secrets_revealed',
        'alert.acknowledged',
        'alert_rule.deleted',
      ]),
    );
    expect(byAdmin.events.every((e) => e.actor?.user_id === admin.userId)).toBe(true);

    const all = (await auditLog(owner, { limit: 200 })).events.map((e) => e.event_id);
    const paged: string[] = [];
    let token: string | null = null;
    do {
      const page = await auditLog(owner, { limit: 4, ...(token ? { next_token: token } : {}) });
      paged.push(...page.events.map((e) => e.event_id));
      token = page.next_token;
    } while (token);
    expect(paged).toEqual(all);
  });

  it("is for admins and owners only, shows only the tenant's own events, and refuses bad queries with 400", async () => {
    for (const role of ['viewer', 'member'] as const) {
      const user = await addUserWithRole(ctx, owner.tenantId, role);
      expect((await ctx.http.get('/audit-log').set(user.auth).expect(403)).body.code).toBe('forbidden');
    }
    const stranger = await signupAndLogin(ctx);
    const theirs = await auditLog(stranger);
    expect(theirs.events.every((e) => e.actor?.user_id === stranger.userId)).toBe(true);
    await ctx.http.get('/audit-log').query({ action: 'nope' }).set(owner.auth).expect(400);
    await ctx.http.get('/audit-log').query({ next_token: 'garbage' }).set(owner.auth).expect(400);
    await ctx.http.get('/audit-log').query({ limit: 201 }).set(owner.auth).expect(400);
    expect(AUDIT_ACTIONS).toEqual(expect.arrayContaining(day));
  });
});
