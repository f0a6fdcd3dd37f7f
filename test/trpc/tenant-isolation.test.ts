import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { newId } from '../../domain/ids';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { confirmRecipients } from '../helpers/email-trust';
import { deliveriesSettled, scanResult } from '../helpers/scans';
import { callPath, callerFor, failure } from './caller';
import { type Ids, PROCEDURES } from './table';

// Tenant isolation through the tRPC router. Tenant B, with callers of every role, points every procedure that
// takes an id at tenant A's real resources (an ACTIVE sandbox account with findings, a rule, an alert, users,
// a Slack workspace). Every answer is NOT_FOUND `not_found` (or `forbidden` below the procedure's role), no
// message names A's data, not one row of the database changes and A's account workflow receives nothing.

const AWS_ID = '123456789012';
const TEAM_A = 'T0TRPCA1';
const ORG_MANAGEMENT_ID = '210987654321';

let ctx: TestContext;
let a: TestUser;
const b = {} as Record<'owner' | 'admin' | 'member' | 'viewer', TestUser>;
/** A's ids; users are tried twice (an invited user and A's owner). */
let variants: Ids[];
let markers: string[];
let workflowId: string;

beforeAll(async () => {
  const exportsDir = path.join(
    process.env.TEST_SCRATCH_DIR as string,
    `trpc-isolation-${randomBytes(4).toString('hex')}`,
  );
  ctx = await createTestContext({
    withWorker: true,
    config: { CLOUD_PROVIDER: 'sandbox', EXPORT_LOCAL_DIR: exportsDir },
  });
  a = await signupAndLogin(ctx, 'Tenant A');
  b.owner = await signupAndLogin(ctx, 'Tenant B');
  for (const role of ['admin', 'member', 'viewer'] as const)
    b[role] = await addUserWithRole(ctx, b.owner.tenantId, role);
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', 'in', [a.tenantId, b.owner.tenantId]).execute();
  await ctx.db
    .insertInto('slack_installations')
    .values({
      id: newId('slack'),
      tenant_id: a.tenantId,
      team_id: TEAM_A,
      bot_token_encrypted: 'x',
      installed_by: a.userId,
    })
    .execute();

  const api = callerFor(ctx, a);
  const rule = await api.alertRules.create({
    name: 'Everything',
    min_srs: 100,
    channels: [{ type: 'email', to: ['ops@example.com'] }],
  });
  await confirmRecipients(ctx.db, a.tenantId, ['ops@example.com']);
  const invited = await api.users.invite({
    email: `invited-${randomBytes(4).toString('hex')}@example.com`,
    name: 'Invited',
  });
  await api.accounts.connect({ aws_account_id: AWS_ID });
  const verified = await api.accounts.verify({ account_id: AWS_ID });
  await scanResult(ctx.temporal, verified.first_scan_execution_arn);
  const { alerts } = await api.alerts.list();
  const alert = alerts[0];
  if (!alert) throw new Error('the first scan fired no alert');
  // The alert's e-mail goes out in a workflow of its own: settled before the test takes its "before" snapshot.
  await deliveriesSettled(ctx.db, a.tenantId);
  const account = await ctx.db
    .selectFrom('accounts')
    .selectAll()
    .where('tenant_id', '=', a.tenantId)
    .executeTakeFirstOrThrow();
  workflowId = account.workflow_id;
  const signals = await api.signals.list({ account_id: AWS_ID });
  expect(signals.count).toBeGreaterThan(0);
  // One of A's risks accepted: B can neither undo nor replace it.
  await api.signals.accept({
    account_id: AWS_ID,
    signal_id: signals.signals[0]!.signal_id,
    body: { reason: 'A accepts this' },
  });
  // An organization of A's, left PENDING: its syncs would connect accounts while the test compares snapshots.
  const org = await api.organizations.connect({ management_account_id: ORG_MANAGEMENT_ID });
  // A trusts one of its principals: B can neither list nor revoke the trust.
  const trusted = await api.trustedPrincipals.create({
    principal: `arn:aws:iam::${AWS_ID}:role/a-terraform`,
    detections: 'all',
    reason: 'A trusts its Terraform',
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const base = {
    account: AWS_ID,
    rule: rule.rule_id,
    alert: alert.alert_id,
    team: TEAM_A,
    signal: signals.signals[1]!.signal_id,
    organization: org.org_id,
    trustedPrincipal: trusted.trusted_principal_id,
  };
  variants = [
    { ...base, user: invited.user_id },
    { ...base, user: a.userId },
    { ...base, user: a.userId, signal: signals.signals[0]!.signal_id },
  ];
  markers = [
    a.tenantId,
    a.userId,
    a.email,
    invited.user_id,
    invited.email,
    account.id,
    account.external_id,
    rule.rule_id,
    alert.alert_id,
    TEAM_A,
    'A accepts this',
    org.org_id,
    org.external_id,
    trusted.trusted_principal_id,
    'A trusts its Terraform',
    ...signals.signals.map((s) => s.signal_id),
  ];
});
afterAll(() => ctx.close());

/** Every row of every table, as sorted JSON per table. */
async function snapshot(): Promise<Record<string, string[]>> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(ctx.db);
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(ctx.db);
    out[name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

const historyLength = async () => (await ctx.temporal.workflow.getHandle(workflowId).fetchHistory()).events?.length;

it("reaches A's resources through every id-taking procedure as A itself (so B's refusals are not for want of data)", async () => {
  for (const [procedure, entry] of Object.entries(PROCEDURES)) {
    if (
      !entry.withIdsOf ||
      !/^(accounts\.get|signals\.(list|scoreHistory|recoveryChecklist|checks)|exports\.csv)/.test(procedure)
    )
      continue;
    await expect(callPath(callerFor(ctx, a), procedure, entry.withIdsOf(variants[0]!))).resolves.toBeDefined();
  }
});

it("answers B NOT_FOUND for every procedure given one of A's ids, leaks nothing and changes nothing", async () => {
  const before = await snapshot();
  const history = await historyLength();
  const wrong: unknown[] = [];
  let calls = 0;
  for (const [procedure, entry] of Object.entries(PROCEDURES)) {
    if (!entry.withIdsOf) continue;
    const inputs = [...new Set(variants.map((ids) => JSON.stringify(entry.withIdsOf!(ids))))].map(
      (s) => JSON.parse(s) as unknown,
    );
    for (const input of inputs) {
      for (const [role, user] of Object.entries(b)) {
        calls += 1;
        const got = await failure(callPath(callerFor(ctx, user), procedure, input)).catch((err: Error) => ({
          trpc: 'none',
          code: err.message,
          message: '',
        }));
        const ok =
          (got.trpc === 'NOT_FOUND' && got.code === 'not_found') || (role !== 'owner' && got.code === 'forbidden');
        if (!ok) wrong.push({ procedure, role, input, got });
        const leaks = markers.filter((m) => got.message.includes(m));
        if (leaks.length) wrong.push({ procedure, role, leaks });
      }
    }
  }
  expect(wrong).toEqual([]);
  expect(calls).toBeGreaterThan(60);
  expect(await snapshot()).toEqual(before);
  expect(await historyLength()).toBe(history);
});

it("shows B none of A's data in its lists", async () => {
  const api = callerFor(ctx, b.owner);
  const lists = await Promise.all([
    api.accounts.list(),
    api.alertRules.list(),
    api.alerts.list(),
    api.users.list(),
    api.integrations.slackWorkspaces(),
    api.me.get(),
    api.signals.search(),
    api.overview.get(),
  ]);
  const text = JSON.stringify(lists);
  expect(markers.filter((m) => text.includes(m))).toEqual([]);
  expect(lists[0]).toEqual({ accounts: [], total: 0, next_token: null });
  expect(lists[6]).toEqual({ signals: [], count: 0, next_token: null });
  expect(lists[7]).toMatchObject({ accounts: { total: 0 }, open_signals: { total: 0 }, worst_accounts: [] });
  expect(lists[2].alerts).toEqual([]);
});

it("lets B connect the same AWS account id as its own, separate from A's", async () => {
  const before = await ctx.db.selectFrom('accounts').selectAll().where('tenant_id', '=', a.tenantId).execute();
  const connected = await callerFor(ctx, b.owner).accounts.connect({ aws_account_id: AWS_ID });
  expect(connected.status).toBe('PENDING');
  expect(await ctx.db.selectFrom('accounts').selectAll().where('tenant_id', '=', a.tenantId).execute()).toEqual(before);
  expect((await callerFor(ctx, a).accounts.get({ account_id: AWS_ID })).status).toBe('ACTIVE');
});
