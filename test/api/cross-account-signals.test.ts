import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { random, randomScenario, randomSeverity, type SeedAccount, type SeedSignal, seedFleet } from '../helpers/fleet';

// GET /signals: the signals of all a tenant's accounts, seeded in the database. Detection times collide across
// accounts (groups of five share a millisecond), so the keyset's id tie-breaker is what keeps pages apart.

interface Listed {
  signal_id: string;
  severity: string;
  scenario: string;
  check_id: string;
  detected_at: string;
  resolved_at: string | null;
  aws_account_id: string;
  cloud_account_id: string;
  display_name: string | null;
  accepted: { reason: string } | null;
}

let ctx: TestContext;
let owner: TestUser;
let other: TestUser;
let accounts: SeedAccount[];
let signals: SeedSignal[];
let othersSignals: SeedSignal[];
const BASE = Date.parse('2026-10-01T00:00:00Z');
const ACCEPTED = 'Accepted across accounts';

function fleetOf(tenant: TestUser, prefix: string, firstAwsId: number, count: number, seed: number) {
  const r = random(seed);
  const list: SeedAccount[] = Array.from({ length: count }, (_, i) => ({
    id: `acc_${prefix}${String(i).padStart(3, '0')}`,
    awsAccountId: String(firstAwsId + i),
    displayName: i % 4 === 0 ? null : `${prefix} account ${i}`,
    tags: [i % 3 === 0 ? 'prod' : 'dev', ...(i % 5 === 0 ? ['eu'] : [])],
    status: i % 7 === 0 ? ('DISCONNECTED' as const) : ('ACTIVE' as const),
    currentSrs: 50,
    coverage: null,
    scoreComplete: null,
    createdAt: new Date(BASE),
  }));
  const rows: SeedSignal[] = Array.from({ length: 600 }, (_, i) => ({
    id: `sig_${prefix}${String(i).padStart(5, '0')}${tenant.tenantId.slice(-4)}`,
    accountId: r.pick(list).id,
    severity: randomSeverity(r),
    scenario: randomScenario(r),
    checkId: `check.${r.int(0, 5)}`,
    detectedAt: new Date(BASE + Math.floor(i / 5) * 60_000),
    resolvedAt: r.chance(0.3) ? new Date(BASE + 86_400_000 * 5) : null,
  }));
  return { list, rows };
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx, 'Fleet Owner');
  other = await signupAndLogin(ctx, 'Other Tenant');
  const mine = fleetOf(owner, 'xa', 410_000_000_000, 20, 1);
  const theirs = fleetOf(other, 'xb', 420_000_000_000, 5, 2);
  [accounts, signals, othersSignals] = [mine.list, mine.rows, theirs.rows];
  const accepted = signals.find((s) => s.resolvedAt === null)!;
  await seedFleet(ctx.db, owner.tenantId, {
    accounts,
    signals,
    acceptances: [
      { id: 'acpt_cross1', signalId: accepted.id, accountId: accepted.accountId, expiresAt: null, revokedAt: null },
    ],
  });
  await seedFleet(ctx.db, other.tenantId, { accounts: theirs.list, signals: othersSignals });
  await ctx.db.updateTable('signal_acceptances').set({ reason: ACCEPTED }).where('id', '=', 'acpt_cross1').execute();
});
afterAll(() => ctx.close());

const accountOf = (s: SeedSignal) => accounts.find((a) => a.id === s.accountId)!;

/** Newest first by (detected_at, id), as the endpoint promises. */
const newestFirst = (list: SeedSignal[]) =>
  [...list].sort((a, b) => b.detectedAt.getTime() - a.detectedAt.getTime() || (a.id < b.id ? 1 : -1)).map((s) => s.id);

/** Every page, following next_token. */
async function walk(user: TestUser, query: Record<string, string | number>) {
  const seen: Listed[] = [];
  let token: string | null = null;
  let pages = 0;
  do {
    const res: { body: { signals: Listed[]; count: number; next_token: string | null } } = await ctx.http
      .get('/signals')
      .query({ ...query, ...(token ? { next_token: token } : {}) })
      .set(user.auth)
      .expect(200);
    expect(res.body.count).toBe(res.body.signals.length);
    seen.push(...res.body.signals);
    token = res.body.next_token;
    pages += 1;
  } while (token);
  return { seen, pages };
}

describe('GET /signals', () => {
  it('walks every signal of every account with limit 37: each once, newest first, ties by id, nothing of another tenant', async () => {
    const { seen, pages } = await walk(owner, { limit: 37 });
    expect(pages).toBe(Math.ceil(600 / 37));
    expect(seen.map((s) => s.signal_id)).toEqual(newestFirst(signals));
    const theirs = new Set(othersSignals.map((s) => s.id));
    expect(seen.filter((s) => theirs.has(s.signal_id))).toEqual([]);
  });

  it("names each signal's account and shows its acceptance, in the per-account shape", async () => {
    const { seen } = await walk(owner, { limit: 200 });
    for (const listed of seen) {
      const account = accountOf(signals.find((s) => s.id === listed.signal_id)!);
      expect(listed).toMatchObject({
        aws_account_id: account.awsAccountId,
        cloud_account_id: account.awsAccountId,
        display_name: account.displayName,
      });
    }
    expect(seen.filter((s) => s.accepted).map((s) => s.accepted!.reason)).toEqual([ACCEPTED]);
    // The same signal as its account's own list shows it, plus the account.
    const one = seen[0]!;
    const own = await ctx.http
      .get(`/accounts/${one.aws_account_id}/signals`)
      .query({ limit: 200 })
      .set(owner.auth)
      .expect(200);
    const { aws_account_id: _a, cloud_account_id: _c, display_name: _d, ...shape } = one;
    expect(own.body.signals.find((s: { signal_id: string }) => s.signal_id === one.signal_id)).toEqual(shape);
  });

  const tagged = (tag: string) => (s: SeedSignal) => accountOf(s).tags.includes(tag);
  it.each([
    ['severity', { severity: 'HIGH' }, (s: SeedSignal) => s.severity === 'HIGH'],
    ['scenario', { scenario: 'exposure' }, (s: SeedSignal) => s.scenario === 'exposure'],
    ['check_id', { check_id: 'check.3' }, (s: SeedSignal) => s.checkId === 'check.3'],
    [
      'since (strictly after)',
      { since: '2026-10-01T01:00:00Z' },
      (s: SeedSignal) => s.detectedAt.getTime() > BASE + 3_600_000,
    ],
    ['status open', { status: 'open' }, (s: SeedSignal) => s.resolvedAt === null],
    ['status resolved', { status: 'resolved' }, (s: SeedSignal) => s.resolvedAt !== null],
    [
      'aws_account_id',
      { aws_account_id: '410000000003' },
      (s: SeedSignal) => accountOf(s).awsAccountId === '410000000003',
    ],
    [
      'cloud_account_id (the alias)',
      { cloud_account_id: '410000000004' },
      (s: SeedSignal) => accountOf(s).awsAccountId === '410000000004',
    ],
    [
      'a disconnected account',
      { aws_account_id: '410000000007' },
      (s: SeedSignal) => accountOf(s).awsAccountId === '410000000007',
    ],
    ['tag', { tag: 'eu' }, tagged('eu')],
    [
      'tag, severity and status together',
      { tag: 'prod', severity: 'CRITICAL', status: 'open' },
      (s: SeedSignal) => tagged('prod')(s) && s.severity === 'CRITICAL' && s.resolvedAt === null,
    ],
    [
      'account, scenario and since together',
      { aws_account_id: '410000000001', scenario: 'iam', since: '2026-10-01T00:30:00+00:00' },
      (s: SeedSignal) =>
        accountOf(s).awsAccountId === '410000000001' &&
        s.scenario === 'iam' &&
        s.detectedAt.getTime() > BASE + 1_800_000,
    ],
  ])('filters by %s, across pages', async (_label, query, matches) => {
    const expected = newestFirst(signals.filter(matches));
    expect(expected.length).toBeGreaterThan(0);
    const { seen } = await walk(owner, { ...query, limit: 23 });
    expect(seen.map((s) => s.signal_id)).toEqual(expected);
  });

  it("answers an empty page for an account or tag that matches nothing, another tenant's included", async () => {
    for (const query of [{ aws_account_id: '420000000001' }, { tag: 'nowhere' }, { aws_account_id: '999999999999' }]) {
      const res = await ctx.http.get('/signals').query(query).set(owner.auth).expect(200);
      expect(res.body).toEqual({ signals: [], count: 0, next_token: null });
    }
  });

  it('shows another tenant only its own signals', async () => {
    const { seen } = await walk(other, { limit: 200 });
    expect(seen.map((s) => s.signal_id)).toEqual(newestFirst(othersSignals));
  });

  it('lets a viewer read', async () => {
    const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
    const res = await ctx.http.get('/signals').query({ limit: 5 }).set(viewer.auth).expect(200);
    expect(res.body.signals.map((s: Listed) => s.signal_id)).toEqual(newestFirst(signals).slice(0, 5));
  });

  it.each([
    ['an unknown parameter', { account: '410000000001' }, 'account'],
    ['a limit of 0', { limit: 0 }, 'limit'],
    ['a limit of 201', { limit: 201 }, 'limit'],
    ['an unknown severity', { severity: 'URGENT' }, 'severity'],
    ['a malformed since', { since: 'yesterday' }, 'since'],
    ['an account id that is not 12 digits', { aws_account_id: '4100' }, 'aws_account_id'],
    ['an empty tag', { tag: '' }, 'tag'],
    [
      'aws_account_id and cloud_account_id that differ',
      { aws_account_id: '410000000001', cloud_account_id: '410000000002' },
      'cloud_account_id',
    ],
  ])('rejects %s with 400 naming it', async (_label, query, field) => {
    const res = await ctx.http.get('/signals').query(query).set(owner.auth).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain(field);
  });

  it.each([
    ['garbage'],
    [Buffer.from('{"a":1}').toString('base64url')],
    [Buffer.from('["not a date","sig_x"]').toString('base64url')],
  ])('rejects the malformed cursor %s with 400 invalid_cursor', async (token) => {
    const res = await ctx.http.get('/signals').query({ next_token: token }).set(owner.auth).expect(400);
    expect(res.body.code).toBe('invalid_cursor');
  });
});
