import { sql } from 'kysely';
import { SCENARIOS, SEVERITIES } from '../../domain/checks/types';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import {
  random,
  randomScenario,
  randomSeverity,
  type SeedAcceptance,
  type SeedAccount,
  type SeedScan,
  type SeedScorePoint,
  type SeedSignal,
  seedFleet,
} from '../helpers/fleet';

// GET /overview against a tenant of 250 accounts seeded in the database: scores in every band and none, every status,
// partial coverage, failed and running scans, signals opened and resolved inside and outside the last 24 hours, risks
// accepted (for good, until later, expired, undone) and 36 days of score history. Every figure is computed here from
// the seed, in TypeScript, and compared whole. A second tenant's fleet is seeded beside it: if any of it were
// counted, the first tenant's figures would be off.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface Fleet {
  accounts: SeedAccount[];
  scans: SeedScan[];
  signals: SeedSignal[];
  acceptances: SeedAcceptance[];
  history: SeedScorePoint[];
}

/** A fleet of `count` accounts, different for every seed; ids carry `prefix` so two fleets never collide. */
function makeFleet(prefix: string, firstAwsId: number, count: number, seed: number): Fleet {
  const r = random(seed);
  const now = Date.now();
  const fleet: Fleet = { accounts: [], scans: [], signals: [], acceptances: [], history: [] };
  for (let i = 0; i < count; i++) {
    const id = `acc_${prefix}${String(i).padStart(3, '0')}`;
    const scored = i % 8 !== 0;
    const partial = scored && r.chance(0.15);
    const evaluated = partial ? r.int(20, 66) : 67;
    fleet.accounts.push({
      id,
      awsAccountId: String(firstAwsId + ((i * 7919) % count)),
      displayName: i % 5 === 0 ? null : `${prefix} ${i}`,
      tags: r.chance(0.5) ? ['prod'] : ['dev', 'eu'],
      status: i % 10 === 0 ? 'DISCONNECTED' : i % 9 === 0 ? 'PENDING' : 'ACTIVE',
      currentSrs: scored ? r.int(0, 100) : null,
      coverage: scored ? { evaluated, total: 67 } : null,
      // Every check evaluated, yet a region unread: incomplete too.
      scoreComplete: scored ? !partial && !r.chance(0.05) : null,
      createdAt: new Date(now - 90 * DAY),
    });
    const first = `scan_${prefix}${i}a`;
    const firstStarted = now - 3 * DAY - r.int(0, 600) * MINUTE;
    const firstStatus = r.chance(0.3) ? ('failed' as const) : ('succeeded' as const);
    fleet.scans.push({
      id: first,
      accountId: id,
      status: firstStatus,
      startedAt: new Date(firstStarted),
      finishedAt: new Date(firstStarted + 5 * MINUTE),
      failureReason: firstStatus === 'failed' ? `First scan of ${i} failed` : null,
    });
    if (r.chance(0.7)) {
      const status = r.pick(['succeeded', 'failed', 'failed', 'running'] as const);
      const started = now - r.int(60, 40 * 60) * MINUTE;
      fleet.scans.push({
        id: `scan_${prefix}${i}b`,
        accountId: id,
        status,
        startedAt: new Date(started),
        finishedAt: status === 'running' ? null : new Date(started + r.int(1, 30) * MINUTE),
        failureReason: status === 'failed' ? `Role of ${i} could not be assumed` : null,
      });
    }
    if (scored) {
      for (let offset = 0; offset <= 35; offset++) {
        if (!r.chance(0.6)) continue;
        fleet.history.push({
          accountId: id,
          day: new Date(now - offset * DAY).toISOString().slice(0, 10),
          srs: r.int(0, 100),
          scanId: first,
          // Complete, incomplete, and not known (recorded before completeness was kept), without drawing from `r`.
          complete: (i + offset) % 5 === 0 ? null : (i + offset) % 3 !== 0,
        });
      }
    }
    const signalCount = r.int(0, 25);
    for (let n = 0; n < signalCount; n++) {
      const bucket = r.next();
      const detected =
        bucket < 0.25
          ? now - r.int(1, 23 * 60) * MINUTE
          : bucket < 0.3
            ? now - r.int(25 * 60, 48 * 60) * MINUTE
            : now - r.int(2 * 24 * 60, 60 * 24 * 60) * MINUTE;
      const resolved = r.chance(0.4) ? Math.max(detected + MINUTE, now - r.int(60, 47 * 60) * MINUTE) : null;
      const signalId = `sig_${prefix}${i}x${n}`;
      fleet.signals.push({
        id: signalId,
        accountId: id,
        severity: randomSeverity(r),
        scenario: randomScenario(r),
        checkId: `check.${r.int(0, 9)}`,
        detectedAt: new Date(detected),
        resolvedAt: resolved === null ? null : new Date(resolved),
      });
      if (r.chance(0.25)) {
        const kind = r.pick(['for good', 'until later', 'expired', 'undone'] as const);
        fleet.acceptances.push({
          id: `acpt_${prefix}${i}x${n}`,
          signalId,
          accountId: id,
          expiresAt:
            kind === 'until later' ? new Date(now + 10 * DAY) : kind === 'expired' ? new Date(now - DAY) : null,
          revokedAt: kind === 'undone' ? new Date(now - HOUR) : null,
        });
      }
    }
  }
  return fleet;
}

const byAws = (a: { aws_account_id: string }, b: { aws_account_id: string }) =>
  a.aws_account_id < b.aws_account_id ? -1 : 1;

/** GET /overview as it must be for `fleet` at `now`, computed from the seed. */
function expectedOverview(fleet: Fleet, now: number) {
  const monitored = fleet.accounts.filter((a) => a.status !== 'DISCONNECTED');
  const monitoredIds = new Set(monitored.map((a) => a.id));
  const inForce = new Set(
    fleet.acceptances
      .filter((a) => a.revokedAt === null && (a.expiresAt === null || a.expiresAt.getTime() > now))
      .map((a) => a.signalId),
  );
  const countsAsOpen = (s: SeedSignal) => s.resolvedAt === null && !inForce.has(s.id);
  const name = (a: SeedAccount) => ({
    aws_account_id: a.awsAccountId,
    cloud_account_id: a.awsAccountId,
    display_name: a.displayName,
  });
  const scoreIn = (min: number, max: number, which = (_: SeedAccount) => true) =>
    monitored.filter((a) => a.currentSrs !== null && a.currentSrs >= min && a.currentSrs <= max && which(a)).length;
  const incomplete = (a: SeedAccount) => a.scoreComplete !== true;

  const open = fleet.signals.filter((s) => monitoredIds.has(s.accountId) && countsAsOpen(s));
  const tally = <K extends string>(keys: readonly K[], key: (s: SeedSignal) => K) =>
    Object.fromEntries(keys.map((k) => [k, open.filter((s) => key(s) === k).length]));

  const today = Date.parse(new Date(now).toISOString().slice(0, 10));
  const firstDay = new Date(today - 29 * DAY).toISOString().slice(0, 10);
  const days = new Map<string, SeedScorePoint[]>();
  for (const point of fleet.history) {
    if (!monitoredIds.has(point.accountId) || point.day < firstDay) continue;
    days.set(point.day, [...(days.get(point.day) ?? []), point]);
  }
  const trend = [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, points]) => ({
      day,
      average_srs: Math.round((points.reduce((sum, p) => sum + p.srs, 0) * 10) / points.length) / 10,
      accounts: points.length,
      // Points whose completeness is not known count as not complete.
      complete_accounts: points.filter((p) => p.complete === true).length,
    }));

  const since = now - DAY;
  const changed = monitored
    .map((a) => {
      const own = fleet.signals.filter((s) => s.accountId === a.id);
      return {
        aws_account_id: a.awsAccountId,
        display_name: a.displayName,
        cloud_account_id: a.awsAccountId,
        new_signals: own.filter((s) => s.detectedAt.getTime() > since).length,
        resolved_signals: own.filter((s) => s.resolvedAt !== null && s.resolvedAt.getTime() > since).length,
      };
    })
    .filter((c) => c.new_signals + c.resolved_signals > 0)
    .sort((a, b) => b.new_signals + b.resolved_signals - (a.new_signals + a.resolved_signals) || byAws(a, b));

  const failing = monitored
    .flatMap((a) => {
      const [latest] = fleet.scans
        .filter((s) => s.accountId === a.id && s.status !== 'running')
        .sort((x, y) => y.startedAt.getTime() - x.startedAt.getTime() || (x.id < y.id ? 1 : -1));
      if (latest?.status !== 'failed') return [];
      return [
        {
          ...name(a),
          failed_at: (latest.finishedAt ?? latest.startedAt).toISOString(),
          failure_reason: latest.failureReason,
        },
      ];
    })
    .sort((a, b) => Date.parse(b.failed_at) - Date.parse(a.failed_at) || byAws(a, b));

  const ratio = (a: SeedAccount) => a.coverage!.evaluated / a.coverage!.total;
  return {
    generated_at: new Date(now).toISOString(),
    accounts: {
      total: fleet.accounts.length,
      by_status: Object.fromEntries(
        ['PENDING', 'ACTIVE', 'DISCONNECTED'].map((s) => [s, fleet.accounts.filter((a) => a.status === s).length]),
      ),
      by_srs_band: {
        critical: scoreIn(0, 39),
        poor: scoreIn(40, 59),
        fair: scoreIn(60, 79),
        good: scoreIn(80, 100),
        unscored: monitored.filter((a) => a.currentSrs === null).length,
      },
      incomplete_by_srs_band: {
        critical: scoreIn(0, 39, incomplete),
        poor: scoreIn(40, 59, incomplete),
        fair: scoreIn(60, 79, incomplete),
        good: scoreIn(80, 100, incomplete),
      },
    },
    srs_trend: trend,
    worst_accounts: monitored
      .filter((a) => a.currentSrs !== null)
      .sort((a, b) => a.currentSrs! - b.currentSrs! || (a.awsAccountId < b.awsAccountId ? -1 : 1))
      .slice(0, 10)
      .map((a) => ({
        ...name(a),
        tags: a.tags,
        current_srs: a.currentSrs,
        score_complete: a.scoreComplete,
        open_signals: fleet.signals.filter((s) => s.accountId === a.id && countsAsOpen(s)).length,
      })),
    open_signals: {
      total: open.length,
      by_severity: tally(SEVERITIES, (s) => s.severity),
      by_scenario: tally(SCENARIOS, (s) => s.scenario),
    },
    changes_24h: {
      new_signals: changed.reduce((sum, c) => sum + c.new_signals, 0),
      resolved_signals: changed.reduce((sum, c) => sum + c.resolved_signals, 0),
      accounts: changed.slice(0, 50),
    },
    attention: {
      incomplete_coverage: monitored
        .filter((a) => a.scoreComplete === false)
        .sort((a, b) => ratio(a) - ratio(b) || (a.awsAccountId < b.awsAccountId ? -1 : 1))
        .map((a) => ({ ...name(a), coverage: a.coverage, score_complete: false })),
      failing_scans: failing,
    },
  };
}

let ctx: TestContext;
let owner: TestUser;
let neighbour: TestUser;
let fleet: Fleet;
let neighbours: Fleet;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx, 'Portfolio Owner');
  neighbour = await signupAndLogin(ctx, 'Neighbour');
  fleet = makeFleet('ov', 510_000_000_000, 250, 11);
  neighbours = makeFleet('nb', 520_000_000_000, 30, 12);
  await seedFleet(ctx.db, owner.tenantId, fleet);
  await seedFleet(ctx.db, neighbour.tenantId, neighbours);
});
afterAll(() => ctx.close());

describe('GET /overview', () => {
  it('seeds what every figure needs (the comparisons below cover real cases)', () => {
    const now = Date.now();
    const expected = expectedOverview(fleet, now);
    expect(Object.values(expected.accounts.by_srs_band).every((n) => n > 0)).toBe(true);
    expect(Object.values(expected.accounts.incomplete_by_srs_band).every((n) => n > 0)).toBe(true);
    expect(expected.worst_accounts.map((a) => a.score_complete)).toContain(false);
    // Every trend day mixes complete points with incomplete or unknown ones.
    expect(expected.srs_trend.every((p) => p.complete_accounts > 0 && p.complete_accounts < p.accounts)).toBe(true);
    expect(Object.values(expected.accounts.by_status).every((n) => n > 0)).toBe(true);
    expect(expected.srs_trend).toHaveLength(30);
    expect(expected.changes_24h.accounts).toHaveLength(50); // more changed than the 50 listed
    expect(expected.attention.incomplete_coverage.length).toBeGreaterThan(5);
    expect(expected.attention.failing_scans.length).toBeGreaterThan(5);
    expect(fleet.acceptances.filter((a) => a.expiresAt !== null && a.expiresAt.getTime() < now).length).toBeGreaterThan(
      0,
    );
    // A failure hidden behind a scan still running counts: the latest finished scan failed.
    expect(
      fleet.scans.some(
        (s) => s.status === 'running' && fleet.scans.some((f) => f.accountId === s.accountId && f.status === 'failed'),
      ),
    ).toBe(true);
  });

  it('answers every figure as computed from the seed', async () => {
    const res = await ctx.http.get('/overview').set(owner.auth).expect(200);
    expect(res.body).toEqual(expectedOverview(fleet, Date.parse(res.body.generated_at)));
  });

  it("counts only the caller's tenant: the neighbour sees its own fleet", async () => {
    const res = await ctx.http.get('/overview').set(neighbour.auth).expect(200);
    expect(res.body).toEqual(expectedOverview(neighbours, Date.parse(res.body.generated_at)));
  });

  it('keeps its open counts exact as signals are opened, resolved and deleted, in batches or one at a time', async () => {
    // The counts PostgreSQL keeps (open_signal_counts, by triggers) against the signals themselves, then the neighbour's
    // overview against its changed seed.
    const open = neighbours.signals.filter(
      (s) => s.resolvedAt === null && !neighbours.acceptances.some((a) => a.signalId === s.id),
    );
    const [resolveOne, ...rest] = open;
    const resolveMany = rest.slice(0, 5);
    const remove = rest.slice(5, 8);
    const r = random(99);
    const opened: SeedSignal[] = Array.from({ length: 12 }, (_, i) => ({
      id: `sig_nbnew${String(i).padStart(3, '0')}`,
      accountId: neighbours.accounts[i % 4]!.id,
      severity: randomSeverity(r),
      scenario: randomScenario(r),
      checkId: 'iam.root_mfa',
      detectedAt: new Date(),
      resolvedAt: null,
    }));
    await seedFleet(ctx.db, neighbour.tenantId, { accounts: [], signals: opened });
    const resolvedAt = new Date();
    await ctx.db.updateTable('signals').set({ resolved_at: resolvedAt }).where('id', '=', resolveOne!.id).execute();
    await ctx.db
      .updateTable('signals')
      .set({ resolved_at: resolvedAt })
      .where(
        'id',
        'in',
        resolveMany.map((s) => s.id),
      )
      .execute();
    await ctx.db
      .deleteFrom('signals')
      .where(
        'id',
        'in',
        remove.map((s) => s.id),
      )
      .execute();
    // An update that leaves a signal open (a new title) changes no count.
    await ctx.db.updateTable('signals').set({ title: 'Retitled' }).where('id', '=', opened[0]!.id).execute();

    const { rows } = await sql<{
      account_id: string;
      severity: string;
      scenario: string;
      kept: number;
      actual: number;
    }>`
      select coalesce(c.account_id, s.account_id) as account_id, coalesce(c.severity, s.severity) as severity,
             coalesce(c.scenario, s.scenario) as scenario, coalesce(c.open, 0) as kept, coalesce(s.n, 0)::int as actual
      from open_signal_counts c
      full join (select account_id, severity, scenario, count(*) as n from signals where resolved_at is null
                 group by account_id, severity, scenario) s
        on s.account_id = c.account_id and s.severity = c.severity and s.scenario = c.scenario`.execute(ctx.db);
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.filter((row) => row.kept !== row.actual)).toEqual([]);

    for (const s of [resolveOne!, ...resolveMany]) s.resolvedAt = resolvedAt;
    neighbours.signals = [...neighbours.signals.filter((s) => !remove.includes(s)), ...opened];
    const res = await ctx.http.get('/overview').set(neighbour.auth).expect(200);
    expect(res.body).toEqual(expectedOverview(neighbours, Date.parse(res.body.generated_at)));
  });

  it('follows an accepted risk at once: the signal leaves the open count, and undoing it brings it back', async () => {
    // An unscored account's: accepting re-scores a scored account, which would move it from the seed.
    const accountOf = (s: SeedSignal) => fleet.accounts.find((a) => a.id === s.accountId)!;
    const target = fleet.signals.find(
      (s) =>
        s.resolvedAt === null &&
        !fleet.acceptances.some((a) => a.signalId === s.id) &&
        accountOf(s).status === 'ACTIVE' &&
        accountOf(s).currentSrs === null,
    )!;
    const awsId = accountOf(target).awsAccountId;
    const before = (await ctx.http.get('/overview').set(owner.auth).expect(200)).body.open_signals;
    await ctx.http
      .post(`/accounts/${awsId}/signals/${target.id}/accept`)
      .set(owner.auth)
      .send({ reason: 'Known and fine' })
      .expect(200);
    const after = (await ctx.http.get('/overview').set(owner.auth).expect(200)).body.open_signals;
    expect(after.total).toBe(before.total - 1);
    expect(after.by_severity[target.severity]).toBe(before.by_severity[target.severity] - 1);
    await ctx.http.delete(`/accounts/${awsId}/signals/${target.id}/accept`).set(owner.auth).expect(200);
    expect((await ctx.http.get('/overview').set(owner.auth).expect(200)).body.open_signals).toEqual(before);
  });

  it('lets a viewer read it', async () => {
    const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
    const res = await ctx.http.get('/overview').set(viewer.auth).expect(200);
    expect(res.body).toEqual(expectedOverview(fleet, Date.parse(res.body.generated_at)));
  });

  it('answers a tenant without accounts with zeros and empty lists', async () => {
    const empty = await signupAndLogin(ctx);
    const res = await ctx.http.get('/overview').set(empty.auth).expect(200);
    expect(res.body).toEqual(
      expectedOverview(
        { accounts: [], scans: [], signals: [], acceptances: [], history: [] },
        Date.parse(res.body.generated_at),
      ),
    );
  });

  it('takes no query parameters', async () => {
    const res = await ctx.http.get('/overview').query({ days: 7 }).set(owner.auth).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.stringContaining('days') });
  });
});
