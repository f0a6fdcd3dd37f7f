import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type RawBuilder, sql } from 'kysely';
import type { Response as AgentResponse } from 'superagent';
import { newId } from '../../domain/ids';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { confirmRecipients } from '../helpers/email-trust';
import { servedRoutes } from '../helpers/routes';
import { unzip } from '../helpers/zip';
import { deliveriesSettled, scanResult } from '../helpers/scans';

// Tenant isolation. Tenant B, holding valid tokens of every role, points every route that takes an id at
// tenant A's real resources (an ACTIVE account with findings, an alert rule, an alert, users, a Slack
// workspace, a panic export). Every answer is 404 `not_found`, never a hint that the resource exists; not one
// row of the database changes and A's account workflow receives nothing. The routes come from Express's own
// routing table: a new route whose path holds a parameter this file cannot fill with one of A's ids fails the
// suite until it is added here.

type Method = 'get' | 'post' | 'patch' | 'delete';
const AWS_ID = '123456789012';
const TEAM_A = 'T0TENANTA1';
const TEAM_B = 'T0TENANTB1';
const ORG_MANAGEMENT_ID = '210987654321';
const EMAIL_CHANNEL = { type: 'email', to: ['ops@example.com'] };

// Query strings the routes require, valid for A, for the same reason as the bodies below.
const QUERIES: Record<string, string> = {
  'get /accounts/:accountId/compliance': '?framework=cis-aws-7.0',
  'get /accounts/:accountId/compliance/report': '?framework=cis-aws-7.0',
};

// Bodies that would be valid for A, so that validation cannot be what turns B away.
const BODIES: Record<string, object> = {
  'patch /alert-rules/:ruleId': { name: 'x' },
  'patch /users/:userId': { role: 'viewer' },
  'patch /detections/:detectionId': { enabled: false },
  'post /accounts/:accountId/signals/:signalId/accept': { reason: 'accepted by someone else' },
};

// Routes public by design: their own proof stands in for the bearer token, and B does not hold A's.
const OWN_PROOF: Record<string, { status: number; code: string }> = {
  'get /exports/:exportId/download': { status: 403, code: 'link_invalid' },
};

// Tables without a tenant_id column, and how one tenant's rows are found in them. Every table of the schema
// is tenant-scoped, listed here or shared, so a new table cannot fall out of the comparison.
const CHILD_ROWS: Record<string, (tenantId: string) => RawBuilder<unknown>> = {
  tenants: (t) => sql`id = ${t}`,
  refresh_tokens: (t) => sql`user_id in (select id from users where tenant_id = ${t})`,
  sessions: (t) => sql`user_id in (select id from users where tenant_id = ${t})`,
  sign_in_sources: (t) => sql`user_id in (select id from users where tenant_id = ${t})`,
  password_resets: (t) => sql`user_id in (select id from users where tenant_id = ${t})`,
  email_verifications: (t) => sql`user_id in (select id from users where tenant_id = ${t})`,
  score_history: (t) => sql`account_id in (select id from accounts where tenant_id = ${t})`,
  alert_rule_states: (t) => sql`rule_id in (select id from alert_rules where tenant_id = ${t})`,
  delivery_attempts: (t) => sql`delivery_id in (select id from alert_deliveries where tenant_id = ${t})`,
  scan_checkpoints: (t) => sql`scan_id in (select id from scans where tenant_id = ${t})`,
  cost_explorer_reads: (t) => sql`account_id in (select id from accounts where tenant_id = ${t})`,
};
const SHARED = new Set(['rate_limits', 'email_outbox', 'stripe_events', 'kysely_migration', 'kysely_migration_lock']);

let ctx: TestContext;
let a: TestUser;
const b = {} as Record<'owner' | 'admin' | 'member' | 'viewer', TestUser>;
/** A's ids by route parameter; a route is called once per id listed. */
let params: Record<string, string[]>;
/** Strings that identify A's data: none may appear in anything B is shown. */
let markers: string[];
/** A's resources the tests reach for by name. */
let ofA: { workflowId: string; exportId: string; downloadUrl: string };

beforeAll(async () => {
  const exportsDir = path.join(process.env.TEST_SCRATCH_DIR as string, `isolation-${randomBytes(4).toString('hex')}`);
  ctx = await createTestContext({
    withWorker: true,
    config: { CLOUD_PROVIDER: 'sandbox', EXPORT_LOCAL_DIR: exportsDir },
  });
  a = await signupAndLogin(ctx, 'Tenant A');
  b.owner = await signupAndLogin(ctx, 'Tenant B');
  for (const role of ['admin', 'member', 'viewer'] as const)
    b[role] = await addUserWithRole(ctx, b.owner.tenantId, role);
  // Both on team, so neither the CSV export's plan feature nor an account limit can be what refuses B.
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', 'in', [a.tenantId, b.owner.tenantId]).execute();
  await ctx.db
    .insertInto('slack_installations')
    .values([
      { id: newId('slack'), tenant_id: a.tenantId, team_id: TEAM_A, bot_token_encrypted: 'x', installed_by: a.userId },
      {
        id: newId('slack'),
        tenant_id: b.owner.tenantId,
        team_id: TEAM_B,
        bot_token_encrypted: 'x',
        installed_by: b.owner.userId,
      },
    ])
    .execute();

  // min_srs 100: any score is below it, so the account's first scan fires the rule.
  const newRule = (user: TestUser, name: string) =>
    ctx.http
      .post('/alert-rules')
      .set(user.auth)
      .send({ name, min_srs: 100, channels: [EMAIL_CHANNEL] })
      .expect(201);
  const rule = await newRule(a, 'Everything');
  await newRule(b.owner, 'B rule');
  // The recipient has confirmed each tenant's alerts: the deliveries are sent (and attempted) rather than held.
  for (const tenantId of [a.tenantId, b.owner.tenantId]) await confirmRecipients(ctx.db, tenantId, EMAIL_CHANNEL.to);
  const invited = await ctx.http
    .post('/users/invite')
    .set(a.auth)
    .send({ email: 'invited-a@example.com', name: 'Invited' })
    .expect(201);
  const account = await activeAccount(a);
  const alert = await ctx.db
    .selectFrom('alert_events')
    .select('id')
    .where('tenant_id', '=', a.tenantId)
    .executeTakeFirstOrThrow();
  const panic = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(a.auth).expect(200);
  // Left PENDING: an organization's syncs would connect accounts while the suite compares snapshots.
  const org = await ctx.http
    .post('/organizations')
    .set(a.auth)
    .send({ management_account_id: ORG_MANAGEMENT_ID })
    .expect(201);

  const signals = await ctx.db
    .selectFrom('signals')
    .select('id')
    .where('tenant_id', '=', a.tenantId)
    .orderBy('id')
    .execute();
  // One of A's risks accepted, so that B could neither undo nor replace it.
  await ctx.http
    .post(`/accounts/${AWS_ID}/signals/${signals[0]!.id}/accept`)
    .set(a.auth)
    .send({ reason: 'A accepts this' })
    .expect(200);
  const acceptance = await ctx.db
    .selectFrom('signal_acceptances')
    .select('id')
    .where('tenant_id', '=', a.tenantId)
    .executeTakeFirstOrThrow();
  const scans = await ctx.db.selectFrom('scans').select('id').where('tenant_id', '=', a.tenantId).execute();
  const slack = await ctx.db
    .selectFrom('slack_installations')
    .select('id')
    .where('tenant_id', '=', a.tenantId)
    .executeTakeFirstOrThrow();
  // A trusts one of its principals, so that B could neither list nor revoke the trust.
  const trusted = await ctx.http
    .post('/trusted-principals')
    .set(a.auth)
    .send({
      principal: `arn:aws:iam::${AWS_ID}:role/a-terraform`,
      detections: 'all',
      reason: 'A trusts its Terraform',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    })
    .expect(201);
  // And has a Sigma detection of its own, which B could neither see, change nor delete.
  const detection = await ctx.http
    .post('/detections')
    .set(a.auth)
    .send({
      name: 'A watches its recorders',
      sigma: [
        'title: A recorder stopped',
        'logsource:',
        '  product: aws',
        '  service: cloudtrail',
        'detection:',
        '  selection:',
        '    eventName: StopConfigurationRecorder',
        '  condition: selection',
        'level: high',
      ].join('\n'),
    })
    .expect(201);
  ofA = { workflowId: account.workflow_id, exportId: panic.body.export_id, downloadUrl: panic.body.download_url };
  params = {
    accountId: [AWS_ID],
    ruleId: [rule.body.rule_id],
    alertId: [alert.id],
    userId: [invited.body.user_id, a.userId],
    teamId: [TEAM_A],
    exportId: [ofA.exportId],
    signalId: [signals[0]!.id],
    orgId: [org.body.org_id],
    trustedPrincipalId: [trusted.body.trusted_principal_id],
    detectionId: [detection.body.detection_id],
  };
  markers = [
    a.tenantId,
    a.userId,
    a.email,
    invited.body.user_id,
    invited.body.email,
    account.id,
    account.external_id,
    rule.body.rule_id,
    alert.id,
    TEAM_A,
    slack.id,
    ofA.exportId,
    acceptance.id,
    'A accepts this',
    org.body.org_id,
    org.body.external_id,
    trusted.body.trusted_principal_id,
    'A trusts its Terraform',
    detection.body.detection_id,
    'A watches its recorders',
    ...signals.map((s) => s.id),
    ...scans.map((s) => s.id),
  ];
});
afterAll(() => ctx.close());

/** Connects, verifies and waits for the first scan (and its alert deliveries): an ACTIVE sandbox account with findings. */
async function activeAccount(user: TestUser) {
  await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: AWS_ID }).expect(201);
  const verified = await ctx.http.post(`/accounts/${AWS_ID}/verify`).set(user.auth).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
  await deliveriesSettled(ctx.db, user.tenantId);
  return ctx.db
    .selectFrom('accounts')
    .selectAll()
    .where('tenant_id', '=', user.tenantId)
    .where('aws_account_id', '=', AWS_ID)
    .executeTakeFirstOrThrow();
}

async function tables(): Promise<{ name: string; tenantScoped: boolean }[]> {
  const { rows } = await sql<{ name: string; tenant_scoped: boolean }>`
    select t.table_name as name, exists (
      select 1 from information_schema.columns c
      where c.table_schema = t.table_schema and c.table_name = t.table_name and c.column_name = 'tenant_id'
    ) as tenant_scoped
    from information_schema.tables t
    where t.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by t.table_name`.execute(ctx.db);
  return rows.map((r) => ({ name: r.name, tenantScoped: r.tenant_scoped }));
}

/** Every row of every table (of one tenant, when given), as sorted JSON per table. */
async function snapshot(tenantId?: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tables()) {
    let where: RawBuilder<unknown> | undefined = sql`true`;
    if (tenantId) {
      where = table.tenantScoped ? sql`tenant_id = ${tenantId}` : CHILD_ROWS[table.name]?.(tenantId);
      if (!where && !SHARED.has(table.name)) {
        throw new Error(`table ${table.name}: no way to find one tenant's rows; add it to CHILD_ROWS or SHARED`);
      }
    }
    if (!where) continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)} where ${where}`.execute(
      ctx.db,
    );
    out[table.name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

const historyLength = async (workflowId: string) =>
  (await ctx.temporal.workflow.getHandle(workflowId).fetchHistory()).events?.length;

/** The served routes that hold a parameter, each filled with every one of A's ids for it. Unknown parameters throw. */
function filledRoutes(): { route: string; method: Method; path: string }[] {
  return servedRoutes(ctx.app)
    .filter((route) => route.includes(':'))
    .flatMap((route) => {
      const [method, template] = route.split(' ') as [Method, string];
      let paths = [template];
      for (const name of template.match(/:[A-Za-z]+/g) ?? []) {
        const ids = params[name.slice(1)];
        if (!ids)
          throw new Error(
            `${route}: the isolation matrix does not know which of A's ids fills ${name}; add it to params`,
          );
        paths = paths.flatMap((p) => ids.map((id) => p.replace(name, encodeURIComponent(id))));
      }
      return paths.map((p) => ({ route, method, path: `${p}${QUERIES[route] ?? ''}` }));
    });
}

function call(user: TestUser, method: Method, target: string, body?: object) {
  const req = ctx.http[method](target).set(user.auth);
  return method === 'get' || method === 'delete' ? req : req.send(body ?? {});
}

/** A's markers found in a text, other than those the caller itself put in the request. */
const leaked = (text: string, request = '') =>
  markers.filter((m) => text.includes(m) && !request.includes(encodeURIComponent(m)));

/** A supertest parser that keeps the body as bytes. */
const binary = (res: AgentResponse, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

const pathOf = (url: string) => url.slice(ctx.config.http.publicBaseUrl.length);

describe('tenant isolation', () => {
  it("knows every table and which of its rows are a tenant's", async () => {
    const rowsOfA = await snapshot(a.tenantId);
    // A holds rows of every kind the API serves, so the comparisons below cover real data.
    const kinds = [
      'accounts',
      'scans',
      'signals',
      'score_history',
      'alert_rules',
      'alert_rule_states',
      'alert_events',
      'alert_deliveries',
      'delivery_attempts',
      'users',
      'invitations',
      'refresh_tokens',
      'sessions',
      'sign_in_sources',
      'slack_installations',
      'exports',
      'tenants',
      'organizations',
    ];
    expect(kinds.filter((t) => !rowsOfA[t]?.length)).toEqual([]);
  });

  it("fills every parameter of every served route with an id of A's, each a real row of A's", async () => {
    const rowsOfA = Object.values(await snapshot(a.tenantId))
      .flat()
      .map((row) => JSON.parse(row) as Record<string, unknown>);
    const valuesOfA = new Set(rowsOfA.flatMap((row) => Object.values(row)));
    expect(filledRoutes().length).toBeGreaterThan(0);
    const strangers = Object.values(params)
      .flat()
      .filter((id) => !valuesOfA.has(id));
    expect(strangers).toEqual([]);
    // Every read that takes an id answers 200 for A itself, so B's 404s below are not for want of data.
    for (const { route, method, path: target } of filledRoutes().filter((r) => r.method === 'get')) {
      const res = await call(a, method, OWN_PROOF[route] ? pathOf(ofA.downloadUrl) : target);
      expect({ route, status: res.status }).toEqual({ route, status: 200 });
    }
  });

  it("answers B 404 for every route that takes one of A's ids, and changes nothing", async () => {
    const before = await snapshot();
    const history = await historyLength(ofA.workflowId);
    const wrong: unknown[] = [];
    for (const { route, method, path: target } of filledRoutes()) {
      for (const [role, user] of Object.entries(b)) {
        const res = await call(user, method, target, BODIES[route]);
        const got = { route, target, role, status: res.status, code: res.body?.code };
        const expected = OWN_PROOF[route] ?? { status: 404, code: 'not_found' };
        // Below the route's role, B is turned away before anything is looked up (the role matrix checks which).
        const ok =
          (got.status === expected.status && got.code === expected.code) ||
          (role !== 'owner' && got.code === 'forbidden');
        if (!ok) wrong.push(got);
        const leaks = leaked(res.text, target);
        if (leaks.length) wrong.push({ ...got, leaks });
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(await historyLength(ofA.workflowId)).toBe(history);
  });

  it("refuses references to A's resources inside B's request bodies, writing nothing", async () => {
    const before = await snapshot();
    // A's Slack workspace is not installed for B.
    const rule = await ctx.http
      .post('/alert-rules')
      .set(b.owner.auth)
      .send({ name: 'Steal', channels: [{ type: 'slack', team_id: TEAM_A, channel: '#alerts' }] })
      .expect(400);
    expect(rule.body.details).toEqual([expect.objectContaining({ field: 'channels.0.team_id' })]);
    expect(await snapshot()).toEqual(before);
    // Inviting A's user is answered as for any address (documented): the inviter (C here, so that B's lists below
    // stay B's alone) gets an invitee of its own, and A's user stays A's.
    const c = await signupAndLogin(ctx, 'Tenant C');
    const rowsOfA = await snapshot(a.tenantId);
    const invite = await ctx.http
      .post('/users/invite')
      .set(c.auth)
      .send({ email: 'invited-a@example.com', name: 'Mine' })
      .expect(201);
    // The address is C's own words, echoed.
    expect(leaked(invite.text, encodeURIComponent('invited-a@example.com'))).toEqual([]);
    expect(await snapshot(a.tenantId)).toEqual(rowsOfA);
  });

  it("lets anyone holding A's signed download link fetch it, and nobody without it", async () => {
    const url = new URL(ofA.downloadUrl);
    const res = await ctx.http.get(`${url.pathname}${url.search}`).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect((await ctx.http.get(url.pathname).set(b.owner.auth).expect(403)).body.code).toBe('link_invalid');
  });

  describe('B connects the same AWS account id as A', () => {
    let rowsOfA: Record<string, string[]>;
    beforeAll(async () => {
      rowsOfA = await snapshot(a.tenantId);
      await activeAccount(b.owner);
    });

    it("gets an account of its own, scanned on its own, and A's rows stay as they were", async () => {
      const accounts = await ctx.db
        .selectFrom('accounts')
        .select(['tenant_id', 'status'])
        .where('aws_account_id', '=', AWS_ID)
        .orderBy('created_at')
        .execute();
      expect(accounts).toEqual([
        { tenant_id: a.tenantId, status: 'ACTIVE' },
        { tenant_id: b.owner.tenantId, status: 'ACTIVE' },
      ]);
      expect(
        await ctx.db.selectFrom('alert_events').select('id').where('tenant_id', '=', b.owner.tenantId).execute(),
      ).toHaveLength(1);
      expect(await snapshot(a.tenantId)).toEqual(rowsOfA);
    });

    it("shows B only its own data for that account id, A's cursors included", async () => {
      const own = (
        await ctx.db.selectFrom('signals').select('id').where('tenant_id', '=', b.owner.tenantId).execute()
      ).map((s) => s.id);
      expect(own.length).toBeGreaterThan(0);
      const signals = await ctx.http.get(`/accounts/${AWS_ID}/signals?limit=200`).set(b.viewer.auth).expect(200);
      expect(signals.body.signals.map((s: { signal_id: string }) => s.signal_id).sort()).toEqual([...own].sort());
      const cursor = (await ctx.http.get(`/accounts/${AWS_ID}/signals?limit=1`).set(a.auth).expect(200)).body
        .next_token as string;
      const paged = await ctx.http
        .get(`/accounts/${AWS_ID}/signals`)
        .query({ limit: 200, next_token: cursor })
        .set(b.viewer.auth)
        .expect(200);
      expect(paged.body.signals.every((s: { signal_id: string }) => own.includes(s.signal_id))).toBe(true);
      const csv = await ctx.http.get(`/accounts/${AWS_ID}/export`).set(b.viewer.auth).expect(200);
      for (const id of own) expect(csv.text).toContain(id);
      for (const target of [
        `/accounts/${AWS_ID}`,
        `/accounts/${AWS_ID}/score-history`,
        `/accounts/${AWS_ID}/recovery-checklist`,
      ]) {
        expect({ target, leaks: leaked((await ctx.http.get(target).set(b.viewer.auth).expect(200)).text) }).toEqual({
          target,
          leaks: [],
        });
      }
      expect(leaked(signals.text + paged.text + csv.text)).toEqual([]);
    });

    it("builds B's panic export from B's data only, and its signature opens no export of A's", async () => {
      const panic = (await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(b.member.auth).expect(200)).body;
      const zip = await ctx.http.get(pathOf(panic.download_url)).buffer(true).parse(binary).expect(200);
      const files = await unzip(zip.body as Buffer);
      expect(leaked([...files.values()].join('\n'))).toEqual([]);
      const url = new URL(panic.download_url);
      const res = await ctx.http.get(`${url.pathname.replace(panic.export_id, ofA.exportId)}${url.search}`).expect(403);
      expect(res.body.code).toBe('link_invalid');
    });

    it("lists only B's own items on every read without an id, for every role", async () => {
      const reads = servedRoutes(ctx.app)
        .filter((r) => r.startsWith('get ') && !r.includes(':'))
        .map((r) => r.slice(4));
      expect(reads).toEqual(
        expect.arrayContaining(['/accounts', '/alert-rules', '/alerts', '/users', '/integrations/slack']),
      );
      for (const target of reads) {
        for (const [role, user] of Object.entries(b)) {
          const res = await ctx.http.get(target).set(user.auth);
          expect({ target, role, leaks: leaked(res.text) }).toEqual({ target, role, leaks: [] });
        }
      }
      // B's own items are listed: the reads above came back clean with data in them, not merely empty.
      const lists = await Promise.all(
        ['/accounts', '/alert-rules', '/alerts', '/users', '/integrations/slack'].map(
          async (target) => (await ctx.http.get(target).set(b.viewer.auth).expect(200)).body,
        ),
      );
      expect(lists[0].accounts).toEqual([expect.objectContaining({ aws_account_id: AWS_ID, status: 'ACTIVE' })]);
      expect(lists[1].rules).toEqual([expect.objectContaining({ name: 'B rule' })]);
      expect(lists[2].alerts).toHaveLength(1);
      const team = lists[3].users.map((u: { user_id: string }) => u.user_id);
      expect(team.sort()).toEqual(
        Object.values(b)
          .map((u) => u.userId)
          .sort(),
      );
      expect(lists[4].installations).toEqual([expect.objectContaining({ team_id: TEAM_B })]);
    });

    it("disconnects B's account only", async () => {
      await ctx.http.delete(`/accounts/${AWS_ID}`).set(b.member.auth).expect(200);
      expect((await ctx.http.get(`/accounts/${AWS_ID}`).set(b.viewer.auth).expect(200)).body.status).toBe(
        'DISCONNECTED',
      );
      expect((await ctx.http.get(`/accounts/${AWS_ID}`).set(a.auth).expect(200)).body.status).toBe('ACTIVE');
      expect(await snapshot(a.tenantId)).toEqual(rowsOfA);
    });
  });
});
