import { sql } from 'kysely';
import request from 'supertest';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { waitFor } from '../helpers/patience';
import { seedFleet } from '../helpers/fleet';
import { LISTENER_NAME, MAX_PAGES, ReadCache, readPageThrough } from '../../db/read-cache';
import { createLogger } from '../../config/logger';
import { type ApiProcess, startSandboxApi } from '../helpers/worker-process';

// Two real API processes on one database, each with its cache of reads (db/read-cache.ts: callers, their tenants,
// pages of GET /accounts): a change made through one, or straight in the database, applies on the other at its next
// request (or within the moment the announcement takes), and the cache is really used in between.

// An announcement reaches the other process within a moment, long before the cache's 5-minute safety net (TTL_MS in
// db/read-cache.ts) would bring the change anyway: each wait for a change to show is bounded by half that net, so
// it shows the announcement at work, on a machine however busy.
const ANNOUNCED_MS = 150_000;

let ctx: TestContext;
let apiA: ApiProcess;
let apiB: ApiProcess;
let owner: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  [apiA, apiB] = await Promise.all([startSandboxApi(ctx), startSandboxApi(ctx)]);
  owner = await signupAndLogin({ http: request(apiA.url), db: ctx.db });
});

afterAll(async () => {
  await Promise.all([apiA?.stop(), apiB?.stop()]);
  await ctx?.close();
});

/** `sentinel_caller_cache_lookups_total{result}`, or `sentinel_read_cache_lookups_total{read,result}`, of an API process. */
async function cacheLookups(
  api: ApiProcess,
  result: 'hit' | 'miss',
  read?: 'tenant' | 'account_page' | 'signal_page' | 'overview',
): Promise<number> {
  const text = await (await fetch(api.metricsUrl)).text();
  const sample = read
    ? `sentinel_read_cache_lookups_total{read="${read}",result="${result}"}`
    : `sentinel_caller_cache_lookups_total{result="${result}"}`;
  const line = text.split('\n').find((l) => l.startsWith(sample));
  return line ? Number(line.split(' ').pop()) : 0;
}

/**
 * Reads until a read is served from `api`'s cache. A page read before the announcement of a write just made (a
 * suite's seeding) arrives is rightly not kept, or forgotten when it does: under load that can take a moment.
 */
async function servedFromCache(
  api: ApiProcess,
  read: 'account_page' | 'signal_page' | 'overview',
  readPage: () => Promise<unknown>,
): Promise<void> {
  await waitFor(async () => {
    const before = await cacheLookups(api, 'hit', read);
    await readPage();
    return (await cacheLookups(api, 'hit', read)) === before + 1;
  });
}

const me = (api: ApiProcess, user: TestUser) => request(api.url).get('/me').set(user.auth);
// Inviting needs the admin role: it shows the role the process acts on, not only the one it reports.
const invite = (api: ApiProcess, user: TestUser) =>
  request(api.url)
    .post('/users/invite')
    .set(user.auth)
    .send({ email: `invitee-${Math.random().toString(36).slice(2)}@example.com`, name: 'Invitee', role: 'viewer' });

describe('the caller cache across API processes', () => {
  it('serves repeated requests from the cache, and a role change made on one process applies on the other as soon as it is announced', async () => {
    const admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
    expect((await me(apiB, admin).expect(200)).body.user.role).toBe('admin');
    const hitsBefore = await cacheLookups(apiB, 'hit');
    for (let i = 0; i < 3; i++) await me(apiB, admin).expect(200);
    expect(await cacheLookups(apiB, 'hit')).toBeGreaterThanOrEqual(hitsBefore + 3);
    await invite(apiB, admin).expect(201);

    await request(apiA.url).patch(`/users/${admin.userId}`).set(owner.auth).send({ role: 'viewer' }).expect(200);

    // The write's announcement reaches the other process a moment after the write's answer: in that moment it may
    // still act on the old role, never after.
    await roleBecomes(apiB, admin, 'viewer');
    await invite(apiB, admin).expect(403);
  });

  it('refuses a removed user on the other process as soon as the removal is announced', async () => {
    const member = await addUserWithRole(ctx, owner.tenantId, 'member');
    await me(apiB, member).expect(200);
    await me(apiB, member).expect(200);

    await request(apiA.url).delete(`/users/${member.userId}`).set(owner.auth).expect(204);

    await waitFor(async () => (await me(apiB, member)).status === 401, ANNOUNCED_MS);
    await request(apiB.url).get('/accounts').set(member.auth).expect(401);
  });

  it('applies a change written straight to the database (no API involved)', async () => {
    const admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
    await me(apiB, admin).expect(200);
    await me(apiB, admin).expect(200);
    await ctx.db.updateTable('users').set({ role: 'viewer' }).where('id', '=', admin.userId).execute();
    // Announced on the listening connection, which may be a moment behind this one.
    await roleBecomes(apiB, admin, 'viewer');
  });

  it('reads from the database while it cannot listen, and starts empty once it listens again', async () => {
    const admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
    await me(apiB, admin).expect(200);
    await me(apiB, admin).expect(200);
    // Cut both processes' listening connections (of this database: other suites' share the server). A change made
    // now is announced to nobody.
    const cut = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = current_database() and application_name = ${LISTENER_NAME}`.execute(ctx.db);
    expect(cut.rows).toEqual([{ ended: true }, { ended: true }]);
    await ctx.db.updateTable('users').set({ role: 'member' }).where('id', '=', admin.userId).execute();
    await roleBecomes(apiB, admin, 'member');

    // Back to caching once the connection is back (it reconnects within a second or so).
    let hits = await cacheLookups(apiB, 'hit');
    await waitFor(async () => {
      await me(apiB, admin).expect(200);
      const now = await cacheLookups(apiB, 'hit');
      const cachingAgain = now > hits;
      hits = now;
      return cachingAgain;
    });
    await ctx.db.updateTable('users').set({ role: 'viewer' }).where('id', '=', admin.userId).execute();
    await roleBecomes(apiB, admin, 'viewer');
  });
});

describe('the tenant GET /me shows, cached across API processes', () => {
  it('is served from the cache, and a rename, plan change or suspension shows at once on the other process', async () => {
    const member = await addUserWithRole(ctx, owner.tenantId, 'member');
    await me(apiB, member).expect(200);
    const hitsBefore = await cacheLookups(apiB, 'hit', 'tenant');
    for (let i = 0; i < 3; i++) await me(apiB, member).expect(200);
    expect(await cacheLookups(apiB, 'hit', 'tenant')).toBeGreaterThanOrEqual(hitsBefore + 3);

    // Through the API on the other process: the caller's own name.
    await request(apiA.url).patch('/me').set(member.auth).send({ name: 'Renamed Member' }).expect(200);
    await profileBecomes(apiB, member, (body) => body.user.name === 'Renamed Member');
    // Straight to the database: the tenant's plan, name and status.
    await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
    await profileBecomes(apiB, member, (body) => body.tenant.plan === 'team');
    await ctx.db.updateTable('tenants').set({ name: 'Renamed Tenant' }).where('id', '=', owner.tenantId).execute();
    await profileBecomes(apiB, member, (body) => body.tenant.name === 'Renamed Tenant');
    await ctx.db.updateTable('tenants').set({ status: 'suspended' }).where('id', '=', owner.tenantId).execute();
    await profileBecomes(apiB, member, (body) => body.tenant.status === 'suspended');
    await ctx.db.updateTable('tenants').set({ status: 'active' }).where('id', '=', owner.tenantId).execute();
    await profileBecomes(apiB, member, (body) => body.tenant.status === 'active');

    // A write that changes nothing GET /me shows is announced to nobody: the cached tenant stays in use.
    await me(apiB, member).expect(200);
    const hits = await cacheLookups(apiB, 'hit', 'tenant');
    await ctx.db.updateTable('tenants').set({ updated_at: new Date() }).where('id', '=', owner.tenantId).execute();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await me(apiB, member).expect(200);
    expect(await cacheLookups(apiB, 'hit', 'tenant')).toBe(hits + 1);
  });
});

describe('pages of GET /accounts, cached across API processes', () => {
  const list = (api: ApiProcess, query: Record<string, string> = {}) =>
    request(api.url).get('/accounts').query(query).set(owner.auth).expect(200);
  const shown = async (api: ApiProcess, query: Record<string, string> = {}) =>
    (await list(api, query)).body as {
      total: number;
      accounts: {
        aws_account_id: string;
        display_name: string | null;
        status: string;
        current_srs: number | null;
        tags: string[];
        last_scan_at: string | null;
        coverage: { evaluated: number; total: number } | null;
        score_complete: boolean | null;
      }[];
    };
  const until = (
    api: ApiProcess,
    query: Record<string, string>,
    holds: (page: Awaited<ReturnType<typeof shown>>) => boolean,
  ) => waitFor(async () => holds(await shown(api, query)), ANNOUNCED_MS);
  const ids = ['acct_cache_a', 'acct_cache_b'];
  const row = (id: string) => ctx.db.updateTable('accounts').where('id', '=', id);

  beforeAll(async () => {
    await seedFleet(ctx.db, owner.tenantId, {
      accounts: ids.map((id, i) => ({
        id,
        awsAccountId: `11122233300${i}`,
        displayName: `Cached ${i}`,
        tags: ['prod'],
        status: 'ACTIVE',
        currentSrs: 50 + i,
        coverage: { evaluated: 10, total: 12 },
        scoreComplete: false,
        createdAt: new Date(Date.now() - 60_000 + i),
      })),
    });
  });

  it('are served from the cache, each page by its own query', async () => {
    await servedFromCache(apiB, 'account_page', () => list(apiB));
    await servedFromCache(apiB, 'account_page', () => list(apiB, { sort: 'srs', limit: '1' }));
    const hitsBefore = await cacheLookups(apiB, 'hit', 'account_page');
    const [whole, first] = [await shown(apiB), await shown(apiB, { sort: 'srs', limit: '1' })];
    expect(await cacheLookups(apiB, 'hit', 'account_page')).toBe(hitsBefore + 2);
    expect(whole.accounts.map((a) => a.aws_account_id)).toEqual(['111222333000', '111222333001']);
    expect(first.accounts.map((a) => a.aws_account_id)).toEqual(['111222333000']);
  });

  it('show a change to any listed column, an account connected or deleted, at once on the other process', async () => {
    await list(apiB);
    await row(ids[0]!).set({ display_name: 'Renamed' }).execute();
    await until(apiB, {}, (p) => p.accounts[0]!.display_name === 'Renamed');
    await row(ids[0]!).set({ current_srs: 90 }).execute();
    await until(apiB, { sort: 'srs', limit: '1' }, (p) => p.accounts[0]!.aws_account_id === '111222333001');
    await row(ids[1]!)
      .set({ tags: ['staging'] })
      .execute();
    await until(apiB, { tag: 'prod' }, (p) => p.total === 1);
    await row(ids[1]!).set({ status: 'DISCONNECTED' }).execute();
    await until(apiB, { status: 'ACTIVE' }, (p) => p.total === 1);
    const scannedAt = new Date();
    await row(ids[0]!).set({ last_scan_at: scannedAt, coverage_evaluated: 12, score_complete: true }).execute();
    await until(
      apiB,
      {},
      (p) =>
        p.accounts[0]!.last_scan_at === scannedAt.toISOString() &&
        p.accounts[0]!.coverage?.evaluated === 12 &&
        p.accounts[0]!.score_complete === true,
    );
    await ctx.db.deleteFrom('accounts').where('id', '=', ids[1]!).execute();
    await until(apiB, {}, (p) => p.total === 1);
    await seedFleet(ctx.db, owner.tenantId, {
      accounts: [
        {
          id: ids[1]!,
          awsAccountId: '111222333009',
          displayName: null,
          tags: [],
          status: 'PENDING',
          currentSrs: null,
          coverage: null,
          scoreComplete: null,
          createdAt: new Date(),
        },
      ],
    });
    await until(apiB, {}, (p) => p.total === 2);
  });

  it("show a caller's own write on their next read on the same process, announced or not yet", async () => {
    await list(apiB);
    const connected = await request(apiB.url)
      .post('/accounts')
      .set(owner.auth)
      .send({ aws_account_id: '111222333555', event_forwarding: false })
      .expect(201);
    expect((await shown(apiB)).accounts.map((a) => a.aws_account_id)).toContain(connected.body.aws_account_id);
    await me(apiB, owner).expect(200);
    await request(apiB.url).patch('/me').set(owner.auth).send({ name: 'Own Write' }).expect(200);
    expect((await me(apiB, owner).expect(200)).body.user.name).toBe('Own Write');
  });

  it("stay in use through writes that change nothing listed, and are never another tenant's", async () => {
    await list(apiB);
    const hits = await cacheLookups(apiB, 'hit', 'account_page');
    await row(ids[0]!)
      .set({ used_regions: ['eu-west-1'], updated_at: new Date() })
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await list(apiB);
    expect(await cacheLookups(apiB, 'hit', 'account_page')).toBe(hits + 1);

    const other = await signupAndLogin({ http: request(apiB.url), db: ctx.db });
    const theirs = await request(apiB.url).get('/accounts').set(other.auth).expect(200);
    expect(theirs.body).toMatchObject({ total: 0, accounts: [] });
  });
});

describe("pages of an account's signals, cached across API processes", () => {
  const AWS_ID = '111222333777';
  const ACCOUNT_ID = 'acct_cache_signals';
  type Page = { signals: { signal_id: string; resolved_at: string | null; accepted: { reason: string } | null }[] };
  const page = async (api: ApiProcess, user: TestUser = owner) =>
    (await request(api.url).get(`/accounts/${AWS_ID}/signals`).set(user.auth).expect(200)).body as Page;
  const until = (holds: (p: Page) => boolean) => waitFor(async () => holds(await page(apiB)), ANNOUNCED_MS);
  const signal = (id: string, detectedAt: Date) => ({
    id,
    accountId: ACCOUNT_ID,
    checkId: 'iam.root_mfa',
    scenario: 'iam' as const,
    severity: 'HIGH' as const,
    detectedAt,
    resolvedAt: null,
  });

  beforeAll(async () => {
    await seedFleet(ctx.db, owner.tenantId, {
      accounts: [
        {
          id: ACCOUNT_ID,
          awsAccountId: AWS_ID,
          displayName: null,
          tags: [],
          status: 'ACTIVE',
          currentSrs: 40,
          coverage: null,
          scoreComplete: null,
          createdAt: new Date(),
        },
      ],
      signals: [signal('sig_cache_1', new Date(Date.now() - 60_000))],
    });
  });

  it('are served from the cache, and show a signal written, resolved or accepted elsewhere at once', async () => {
    await servedFromCache(apiB, 'signal_page', () => page(apiB));
    const hits = await cacheLookups(apiB, 'hit', 'signal_page');
    expect((await page(apiB)).signals.map((s) => s.signal_id)).toEqual(['sig_cache_1']);
    expect(await cacheLookups(apiB, 'hit', 'signal_page')).toBe(hits + 1);

    await seedFleet(ctx.db, owner.tenantId, { accounts: [], signals: [signal('sig_cache_2', new Date())] });
    await until((p) => p.signals[0]?.signal_id === 'sig_cache_2');
    await ctx.db.updateTable('signals').set({ resolved_at: new Date() }).where('id', '=', 'sig_cache_2').execute();
    await until((p) => p.signals[0]?.resolved_at !== null);
    await request(apiA.url)
      .post(`/accounts/${AWS_ID}/signals/sig_cache_1/accept`)
      .set(owner.auth)
      .send({ reason: 'Known' })
      .expect(200);
    await until((p) => p.signals[1]?.accepted?.reason === 'Known');
    await request(apiA.url).delete(`/accounts/${AWS_ID}/signals/sig_cache_1/accept`).set(owner.auth).expect(200);
    await until((p) => p.signals[1]?.accepted === null);
  });

  it('stop showing an acceptance when it expires, with nothing written', async () => {
    await ctx.db
      .insertInto('signal_acceptances')
      .values({
        id: 'acc_cache_expiring',
        tenant_id: owner.tenantId,
        account_id: ACCOUNT_ID,
        signal_id: 'sig_cache_1',
        accepted_by: null,
        accepted_by_email: 'risk@example.com',
        reason: 'Briefly',
        accepted_at: new Date(),
        expires_at: new Date(Date.now() + 1_500),
      })
      .execute();
    await until((p) => p.signals[1]?.accepted?.reason === 'Briefly');
    const hits = await cacheLookups(apiB, 'hit', 'signal_page');
    await page(apiB);
    expect(await cacheLookups(apiB, 'hit', 'signal_page')).toBe(hits + 1);
    await until((p) => p.signals[1]?.accepted === null);
  });

  it('answer 404 once the account is gone', async () => {
    await page(apiB);
    await ctx.db.deleteFrom('signal_acceptances').where('account_id', '=', ACCOUNT_ID).execute();
    await ctx.db.deleteFrom('signals').where('account_id', '=', ACCOUNT_ID).execute();
    await page(apiB);
    await ctx.db.deleteFrom('accounts').where('id', '=', ACCOUNT_ID).execute();
    await waitFor(
      async () => (await request(apiB.url).get(`/accounts/${AWS_ID}/signals`).set(owner.auth)).status === 404,
      ANNOUNCED_MS,
    );
  });
});

describe('the overview and the signals of every account, cached across API processes', () => {
  // A tenant of its own, so that no other suite's writes end its pages.
  let fleetOwner: TestUser;
  const ACCOUNTS = ['acct_cache_fleet_a', 'acct_cache_fleet_b'];
  type Overview = {
    generated_at: string;
    accounts: { by_status: Record<string, number> };
    worst_accounts: { aws_account_id: string; display_name: string | null }[];
    open_signals: { total: number; by_severity: Record<string, number> };
    changes_24h: { new_signals: number };
    srs_trend: { day: string; accounts: number }[];
    attention: { failing_scans: { aws_account_id: string; failure_reason: string | null }[] };
  };
  type SignalsPage = { signals: { signal_id: string }[] };
  const overview = async (api: ApiProcess, user = fleetOwner) =>
    (await request(api.url).get('/overview').set(user.auth).expect(200)).body as Overview;
  const signals = async (api: ApiProcess, query = '', user = fleetOwner) =>
    (await request(api.url).get(`/signals${query}`).set(user.auth).expect(200)).body as SignalsPage;
  // A kept overview ends by itself within a minute (MAX_AGE_MS in core/reports/overview.ts): each wait is bounded by
  // half that, so it shows the announcement at work.
  const untilOverview = (holds: (o: Overview) => boolean) => waitFor(async () => holds(await overview(apiB)), 30_000);
  const untilSignals = (query: string, holds: (p: SignalsPage) => boolean) =>
    waitFor(async () => holds(await signals(apiB, query)), ANNOUNCED_MS);
  const signal = (id: string, accountId: string, detectedAt = new Date()) => ({
    id,
    accountId,
    checkId: 'iam.root_mfa',
    scenario: 'iam' as const,
    severity: 'HIGH' as const,
    detectedAt,
    resolvedAt: null,
  });

  beforeAll(async () => {
    fleetOwner = await signupAndLogin({ http: request(apiA.url), db: ctx.db });
    await seedFleet(ctx.db, fleetOwner.tenantId, {
      accounts: ACCOUNTS.map((id, n) => ({
        id,
        awsAccountId: `11122233380${n}`,
        displayName: `Fleet ${n}`,
        tags: n === 0 ? ['prod'] : [],
        status: 'ACTIVE' as const,
        currentSrs: 50 + n,
        coverage: null,
        scoreComplete: null,
        createdAt: new Date(),
      })),
      signals: [signal('sig_fleet_1', ACCOUNTS[0]!, new Date(Date.now() - 60_000))],
    });
  });

  it('are served from the cache, the overview saying when it was read', async () => {
    await servedFromCache(apiB, 'overview', () => overview(apiB));
    const first = await overview(apiB);
    const again = await overview(apiB);
    expect(again.generated_at).toBe(first.generated_at);
    expect(first.open_signals.total).toBe(1);
    await servedFromCache(apiB, 'signal_page', () => signals(apiB));
    expect((await signals(apiB)).signals.map((s) => s.signal_id)).toEqual(['sig_fleet_1']);
  });

  it('show a signal written, accepted or resolved elsewhere at once', async () => {
    await overview(apiB);
    await signals(apiB, '?tag=prod');
    await seedFleet(ctx.db, fleetOwner.tenantId, { accounts: [], signals: [signal('sig_fleet_2', ACCOUNTS[0]!)] });
    await untilOverview((o) => o.open_signals.total === 2 && o.changes_24h.new_signals === 2);
    await untilSignals('?tag=prod', (p) => p.signals[0]?.signal_id === 'sig_fleet_2');
    await request(apiA.url)
      .post('/accounts/111222333800/signals/sig_fleet_2/accept')
      .set(fleetOwner.auth)
      .send({ reason: 'Known' })
      .expect(200);
    await untilOverview((o) => o.open_signals.total === 1);
    await ctx.db.updateTable('signals').set({ resolved_at: new Date() }).where('id', '=', 'sig_fleet_1').execute();
    await untilOverview((o) => o.open_signals.total === 0);
  });

  it('show an account changed, a scan failing and a score point written elsewhere at once', async () => {
    await overview(apiB);
    await signals(apiB, '?tag=prod');
    await ctx.db
      .updateTable('accounts')
      .set({ display_name: 'Renamed', tags: [] })
      .where('id', '=', ACCOUNTS[0]!)
      .execute();
    await untilOverview((o) => o.worst_accounts.some((a) => a.display_name === 'Renamed'));
    // The prod tag is gone: the tag's page is empty.
    await untilSignals('?tag=prod', (p) => p.signals.length === 0);

    await seedFleet(ctx.db, fleetOwner.tenantId, {
      accounts: [],
      scans: [
        {
          id: 'scan_fleet_failing',
          accountId: ACCOUNTS[1]!,
          status: 'running',
          startedAt: new Date(),
          finishedAt: null,
          failureReason: null,
        },
      ],
    });
    await overview(apiB);
    await ctx.db
      .updateTable('scans')
      .set({ status: 'failed', finished_at: new Date(), failure_reason: 'The role could not be assumed' })
      .where('id', '=', 'scan_fleet_failing')
      .execute();
    await untilOverview((o) => o.attention.failing_scans[0]?.failure_reason === 'The role could not be assumed');

    const today = new Date().toISOString().slice(0, 10);
    const pointsToday = (o: Overview) => o.srs_trend.find((d) => d.day === today)?.accounts ?? 0;
    const before = pointsToday(await overview(apiB));
    await seedFleet(ctx.db, fleetOwner.tenantId, {
      accounts: [],
      history: [{ accountId: ACCOUNTS[1]!, day: today, srs: 51, scanId: 'scan_fleet_failing' }],
    });
    await untilOverview((o) => pointsToday(o) === before + 1);
  });

  it('count an acceptance again once it expires, with nothing written', async () => {
    await seedFleet(ctx.db, fleetOwner.tenantId, { accounts: [], signals: [signal('sig_fleet_3', ACCOUNTS[1]!)] });
    await untilOverview((o) => o.open_signals.total === 1);
    await ctx.db
      .insertInto('signal_acceptances')
      .values({
        id: 'acc_fleet_expiring',
        tenant_id: fleetOwner.tenantId,
        account_id: ACCOUNTS[1]!,
        signal_id: 'sig_fleet_3',
        accepted_by: null,
        accepted_by_email: 'risk@example.com',
        reason: 'Briefly',
        accepted_at: new Date(),
        expires_at: new Date(Date.now() + 1_500),
      })
      .execute();
    await untilOverview((o) => o.open_signals.total === 0);
    const hits = await cacheLookups(apiB, 'hit', 'overview');
    await overview(apiB);
    expect(await cacheLookups(apiB, 'hit', 'overview')).toBe(hits + 1);
    await untilOverview((o) => o.open_signals.total === 1);
  });

  it("are never another tenant's", async () => {
    const other = await signupAndLogin({ http: request(apiA.url), db: ctx.db });
    await overview(apiB);
    await signals(apiB);
    const theirs = await overview(apiB, other);
    expect(theirs.open_signals.total).toBe(0);
    expect(theirs.worst_accounts).toEqual([]);
    expect((await signals(apiB, '', other)).signals).toEqual([]);
    expect((await overview(apiB)).worst_accounts.length).toBe(2);
  });
});

describe('a page kept', () => {
  it('is frozen and given as the very same object, and a page read while its tenant changed is neither', async () => {
    const readCache = new ReadCache({
      url: ctx.config.database.url,
      log: createLogger({ level: 'silent', name: 'test' }),
    });
    await readCache.start();
    try {
      const page = { kind: 'accounts' as const, tenantId: owner.tenantId, query: 'frozen-test' };
      let reads = 0;
      const read = async () => ({ accounts: [{ read: ++reads }] });
      const first = await readPageThrough(readCache, page, read);
      expect(Object.isFrozen(first)).toBe(true);
      expect(await readPageThrough(readCache, page, read)).toBe(first);
      expect(reads).toBe(1);

      // Announced during the read: answered, not kept, so not frozen (the API encodes it afresh, keeping nothing).
      const raced = await readPageThrough(readCache, { ...page, query: 'raced' }, async () => {
        readCache.forgetTenant(owner.tenantId);
        return { accounts: [] };
      });
      expect(Object.isFrozen(raced)).toBe(false);
      expect(readCache.getPage('accounts', owner.tenantId, 'raced')).toBeUndefined();
    } finally {
      await readCache.close();
    }
  });

  it('stays while it is read when the cache is full: the least recently read page goes first', async () => {
    const readCache = new ReadCache({
      url: ctx.config.database.url,
      log: createLogger({ level: 'silent', name: 'test' }),
    });
    await readCache.start();
    try {
      const keep = (query: string) =>
        readCache.keepPage('signals', owner.tenantId, query, { query }, readCache.generation(owner.tenantId));
      for (let n = 0; n < MAX_PAGES; n++) expect(keep(`page-${n}`)).toBe(true);
      // The first page kept is read; the second is not. One more page makes room by dropping the second.
      expect(readCache.getPage('signals', owner.tenantId, 'page-0')).toEqual({ query: 'page-0' });
      keep('one-more');
      expect(readCache.getPage('signals', owner.tenantId, 'page-0')).toEqual({ query: 'page-0' });
      expect(readCache.getPage('signals', owner.tenantId, 'page-1')).toBeUndefined();
      expect(readCache.getPage('signals', owner.tenantId, 'page-2')).toEqual({ query: 'page-2' });
      expect(readCache.getPage('signals', owner.tenantId, 'one-more')).toEqual({ query: 'one-more' });
    } finally {
      await readCache.close();
    }
  });
});

describe('the bytes the cache keeps', () => {
  it("stay under its bound however large a tenant's pages are: the least recently read go, a page too large is not kept", async () => {
    const maxPageBytes = 1_000_000;
    const readCache = new ReadCache({
      url: ctx.config.database.url,
      log: createLogger({ level: 'silent', name: 'test' }),
      maxPageBytes,
    });
    await readCache.start();
    try {
      // Pages of about 50 KB of JSON each (a page of signals with long descriptions): 100 of them are five times the
      // bound, far fewer than the cache's count of pages.
      const page = (n: number, kb: number) => ({ signals: [{ n, description: 'x'.repeat(kb * 1_000) }] });
      let reads = 0;
      for (let n = 0; n < 100; n++) {
        const kept = await readPageThrough(
          readCache,
          { kind: 'signals', tenantId: owner.tenantId, query: `big-${n}` },
          async () => {
            reads += 1;
            return page(n, 50);
          },
        );
        expect(Object.isFrozen(kept)).toBe(true);
        expect(readCache.pageBytes()).toBeLessThanOrEqual(maxPageBytes);
      }
      expect(readCache.pageBytes()).toBeGreaterThan(maxPageBytes * 0.9);
      // The newest pages are there, the oldest gone.
      expect(readCache.getPage('signals', owner.tenantId, 'big-99')).toEqual(page(99, 50));
      expect(readCache.getPage('signals', owner.tenantId, 'big-0')).toBeUndefined();

      // A page of more than a sixteenth of the bound is answered, not kept: it is read again each time.
      const huge = { kind: 'signals' as const, tenantId: owner.tenantId, query: 'huge' };
      const first = await readPageThrough(readCache, huge, async () => page(-1, 70));
      expect(Object.isFrozen(first)).toBe(false);
      expect(readCache.getPage('signals', owner.tenantId, 'huge')).toBeUndefined();
      expect(readCache.pageBytes()).toBeLessThanOrEqual(maxPageBytes);
      expect(reads).toBe(100);

      // Forgetting the tenant gives its bytes back.
      readCache.forgetTenant(owner.tenantId);
      expect(readCache.pageBytes()).toBe(0);
    } finally {
      await readCache.close();
    }
  });
});

describe('a listening connection that stops answering without a word', () => {
  it('is noticed by its heartbeat: nothing is served from the cache until a new connection listens', async () => {
    const readCache = new ReadCache({
      url: ctx.config.database.url,
      log: createLogger({ level: 'silent', name: 'test' }),
      heartbeat: { everyMs: 200, timeoutMs: 300 },
    });
    await readCache.start();
    const listener = async () =>
      (
        await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()
      and application_name = ${LISTENER_NAME} order by backend_start desc`.execute(ctx.db)
      ).rows;
    try {
      const [before] = await listener(); // this cache's: the newest
      const tenant = { name: 'Kept', plan: 'solo' as const, status: 'active' as const, created_at: new Date() };
      readCache.keepTenant(owner.tenantId, tenant, readCache.generation(owner.tenantId));
      expect(readCache.getTenant(owner.tenantId)).toEqual(tenant);
      // The connection's server process stops (as behind a dead network path): no error, no end, just silence.
      process.kill(before!.pid, 'SIGSTOP');
      try {
        await waitFor(async () => readCache.getTenant(owner.tenantId) === undefined, ANNOUNCED_MS);
      } finally {
        process.kill(before!.pid, 'SIGCONT');
      }
      // A new connection listens, and the cache keeps again.
      await waitFor(async () => {
        readCache.keepTenant(owner.tenantId, tenant, readCache.generation(owner.tenantId));
        return readCache.getTenant(owner.tenantId) !== undefined;
      });
      const [after] = await listener();
      expect(after!.pid).not.toBe(before!.pid);
    } finally {
      await readCache.close();
    }
  });
});

type Profile = { user: { name: string; role: string }; tenant: { name: string; plan: string; status: string } };

function profileBecomes(api: ApiProcess, user: TestUser, shows: (body: Profile) => boolean): Promise<void> {
  return waitFor(async () => shows((await me(api, user).expect(200)).body as Profile), ANNOUNCED_MS);
}

function roleBecomes(api: ApiProcess, user: TestUser, role: string): Promise<void> {
  return profileBecomes(api, user, (body) => body.user.role === role);
}
