import { checkById } from '../../domain/checks/catalog';
import { newId } from '../../domain/ids';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

// The read side of scans: signals with keyset pagination, score history, the recovery checklist.
let ctx: TestContext;
let owner: TestUser;
let accountId: string;
const AWS_ID = '314159265358';

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx);
  accountId = 'acc_signals';
  await ctx.db
    .insertInto('accounts')
    .values({
      id: accountId,
      tenant_id: owner.tenantId,
      aws_account_id: AWS_ID,
      display_name: null,
      tags: [],
      status: 'ACTIVE',
      external_id: 'z'.repeat(40),
      role_name: 'SentinelReadOnly',
      workflow_id: 'wf-signals',
    })
    .execute();
  await ctx.db
    .insertInto('scans')
    .values({
      id: 'scan_seed',
      tenant_id: owner.tenantId,
      account_id: accountId,
      trigger: 'initial',
      status: 'succeeded',
      started_at: new Date(),
    })
    .execute();
  // 1,000 signals; detection times collide in groups of 4 so the id tie-breaker matters.
  const severities = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
  const base = Date.parse('2026-10-01T00:00:00Z');
  const rows = Array.from({ length: 1000 }, (_, i) => ({
    id: newId('signal', base + Math.floor(i / 4) * 60_000),
    tenant_id: owner.tenantId,
    account_id: accountId,
    check_id: `check.${i % 10}`,
    fingerprint: `check.${i % 10}|r${i}|global`,
    scenario: i % 2 === 0 ? ('iam' as const) : ('exposure' as const),
    severity: severities[i % 4]!,
    title: `Signal ${i}`,
    description: 'd',
    resource: `r${i}`,
    region: 'global',
    first_scan_id: 'scan_seed',
    detected_at: new Date(base + Math.floor(i / 4) * 60_000),
    resolved_at: i % 5 === 0 ? new Date(base + 10_000_000_000) : null,
  }));
  for (let i = 0; i < rows.length; i += 250)
    await ctx.db
      .insertInto('signals')
      .values(rows.slice(i, i + 250))
      .execute();
});
afterAll(() => ctx.close());

const url = `/accounts/${AWS_ID}/signals`;

describe('GET /accounts/{account_id}/signals', () => {
  it('walks 1,000 signals with limit 37: each exactly once, newest first', async () => {
    const seen: { signal_id: string; detected_at: string }[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const res: {
        body: { count: number; signals: { signal_id: string; detected_at: string }[]; next_token: string | null };
      } = await ctx.http
        .get(url)
        .query({ limit: 37, ...(token ? { next_token: token } : {}) })
        .set(owner.auth)
        .expect(200);
      expect(res.body.count).toBe(res.body.signals.length);
      seen.push(...res.body.signals);
      token = res.body.next_token;
      pages += 1;
    } while (token);
    expect(pages).toBe(Math.ceil(1000 / 37));
    expect(new Set(seen.map((s) => s.signal_id)).size).toBe(1000);
    const keys = seen.map((s) => `${s.detected_at}|${s.signal_id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('defaults to 50 per page and returns the spec fields', async () => {
    const res = await ctx.http.get(url).set(owner.auth).expect(200);
    expect(res.body.signals).toHaveLength(50);
    expect(Object.keys(res.body.signals[0]).sort()).toEqual([
      'accepted',
      'check_id',
      'description',
      'detected_at',
      'mitre',
      'occurrences',
      'region',
      'resolved_at',
      'resource',
      'scenario',
      'severity',
      'signal_id',
      'title',
    ]);
    // A scan check's signal names no MITRE ATT&CK technique: only event detections do.
    expect(res.body.signals[0].mitre).toEqual([]);
  });

  it('filters by severity, scenario, status and since (strictly after)', async () => {
    const critical = await ctx.http.get(url).query({ severity: 'CRITICAL', limit: 200 }).set(owner.auth).expect(200);
    expect(critical.body.signals.every((s: { severity: string }) => s.severity === 'CRITICAL')).toBe(true);
    const exposure = await ctx.http.get(url).query({ scenario: 'exposure', limit: 200 }).set(owner.auth).expect(200);
    expect(exposure.body.signals.every((s: { scenario: string }) => s.scenario === 'exposure')).toBe(true);
    const open = await ctx.http.get(url).query({ status: 'open', limit: 200 }).set(owner.auth).expect(200);
    expect(open.body.signals.every((s: { resolved_at: string | null }) => s.resolved_at === null)).toBe(true);
    const resolved = await ctx.http.get(url).query({ status: 'resolved', limit: 200 }).set(owner.auth).expect(200);
    expect(resolved.body.signals.every((s: { resolved_at: string | null }) => s.resolved_at !== null)).toBe(true);

    const since = '2026-10-01T04:00:00Z'; // signals come 4 a minute: 4 * (249 - 240) = 36 strictly after
    const after = await ctx.http.get(url).query({ since, limit: 200 }).set(owner.auth).expect(200);
    expect(after.body.count).toBe(36);
    expect(after.body.signals.every((s: { detected_at: string }) => s.detected_at > '2026-10-01T04:00:00.000Z')).toBe(
      true,
    );
    expect(after.body.next_token).toBeNull();
  });

  it.each([
    ['a limit of 0', { limit: 0 }, 'limit'],
    ['a limit of 201', { limit: 201 }, 'limit'],
    ['a non-numeric limit', { limit: 'ten' }, 'limit'],
    ['an unknown severity', { severity: 'URGENT' }, 'severity'],
    ['an unknown scenario', { scenario: 'weather' }, 'scenario'],
    ['a malformed since', { since: 'yesterday' }, 'since'],
    ['an unknown parameter', { sort: 'asc' }, 'sort'],
  ])('rejects %s with 400', async (_label, query, field) => {
    const res = await ctx.http.get(url).query(query).set(owner.auth).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain(field);
  });

  it.each([
    ['garbage'],
    [Buffer.from('{"a":1}').toString('base64url')],
    [Buffer.from('["not a date","x"]').toString('base64url')],
    [Buffer.from('["-100000-01-01T00:00:00Z","sig_X"]').toString('base64url')],
  ])('rejects the malformed cursor %s with 400', async (token) => {
    const res = await ctx.http.get(url).query({ next_token: token }).set(owner.auth).expect(400);
    expect(res.body.code).toBe('invalid_cursor');
  });

  it("answers 404 for another tenant's account", async () => {
    const intruder = await signupAndLogin(ctx);
    await ctx.http.get(url).set(intruder.auth).expect(404);
    await ctx.http.get(`/accounts/${AWS_ID}/score-history`).set(intruder.auth).expect(404);
    await ctx.http.get(`/accounts/${AWS_ID}/recovery-checklist`).set(intruder.auth).expect(404);
  });
});

describe('GET /accounts/{account_id}/score-history', () => {
  beforeAll(async () => {
    const today = new Date();
    const day = (offset: number) => new Date(today.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
    await ctx.db
      .insertInto('score_history')
      .values(
        [0, 1, 2, 29, 30, 40].map((offset) => ({
          account_id: accountId,
          day: day(offset),
          srs: 90 - offset,
          // Complete, incomplete, and (older points) not known.
          complete: offset === 0 ? true : offset === 1 ? false : null,
          scan_id: 'scan_seed',
          recorded_at: new Date(),
        })),
      )
      .execute();
  });

  it('returns the last 30 days by default, newest first', async () => {
    const res = await ctx.http.get(`/accounts/${AWS_ID}/score-history`).set(owner.auth).expect(200);
    expect(res.body.history.map((h: { srs: number }) => h.srs)).toEqual([90, 89, 88, 61]);
    expect(res.body.history[0].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("says whether each day's score read every core source, null where that was not kept", async () => {
    const res = await ctx.http.get(`/accounts/${AWS_ID}/score-history`).set(owner.auth).expect(200);
    expect(res.body.history.map((h: { srs: number; complete: boolean | null }) => [h.srs, h.complete])).toEqual([
      [90, true],
      [89, false],
      [88, null],
      [61, null],
    ]);
  });

  it('honours days', async () => {
    const res = await ctx.http.get(`/accounts/${AWS_ID}/score-history`).query({ days: 2 }).set(owner.auth).expect(200);
    expect(res.body.history.map((h: { srs: number }) => h.srs)).toEqual([90, 89]);
    const year = await ctx.http
      .get(`/accounts/${AWS_ID}/score-history`)
      .query({ days: 365 })
      .set(owner.auth)
      .expect(200);
    expect(year.body.history).toHaveLength(6);
  });

  it.each([[0], [366], ['week']])('rejects days=%s with 400', async (days) => {
    const res = await ctx.http.get(`/accounts/${AWS_ID}/score-history`).query({ days }).set(owner.auth).expect(400);
    expect(res.body.error).toContain('days');
  });
});

describe('GET /accounts/{account_id}/recovery-checklist', () => {
  it('gives a healthy account a baseline hardening list', async () => {
    const tenant = await signupAndLogin(ctx);
    await ctx.db
      .insertInto('accounts')
      .values({
        id: 'acc_healthy',
        tenant_id: tenant.tenantId,
        aws_account_id: '271828182845',
        display_name: null,
        tags: [],
        status: 'ACTIVE',
        external_id: 'h'.repeat(40),
        role_name: 'SentinelReadOnly',
        workflow_id: 'wf-healthy',
      })
      .execute();
    const res = await ctx.http.get('/accounts/271828182845/recovery-checklist').set(tenant.auth).expect(200);
    expect(res.body.checklist.length).toBeGreaterThanOrEqual(3);
    res.body.checklist.forEach(
      (step: { step: number; title: string; description: string; docs_url: string }, i: number) => {
        expect(step).toEqual({
          step: i + 1,
          title: expect.any(String),
          description: expect.any(String),
          docs_url: expect.stringMatching(/^https:\/\//),
        });
      },
    );
  });

  it('lists one step per failing check, most urgent first, tailored to the open findings', async () => {
    const tenant = await signupAndLogin(ctx);
    await ctx.db
      .insertInto('accounts')
      .values({
        id: 'acc_tailored',
        tenant_id: tenant.tenantId,
        aws_account_id: '161803398874',
        display_name: null,
        tags: [],
        status: 'ACTIVE',
        external_id: 't'.repeat(40),
        role_name: 'SentinelReadOnly',
        workflow_id: 'wf-tailored',
      })
      .execute();
    await ctx.db
      .insertInto('scans')
      .values({
        id: 'scan_tailored',
        tenant_id: tenant.tenantId,
        account_id: 'acc_tailored',
        trigger: 'initial',
        status: 'succeeded',
        started_at: new Date(),
      })
      .execute();
    const open = [
      ['billing.no_budget', 'billing', 'MEDIUM', 'account'],
      ['iam.root_mfa_disabled', 'iam', 'CRITICAL', 'root'],
      ['exposure.sg_ssh_open', 'exposure', 'HIGH', 'sg-1'],
      ['exposure.sg_ssh_open', 'exposure', 'HIGH', 'sg-2'],
    ] as const;
    await ctx.db
      .insertInto('signals')
      .values(
        open.map(([checkId, scenario, severity, resource]) => ({
          id: newId('signal'),
          tenant_id: tenant.tenantId,
          account_id: 'acc_tailored',
          check_id: checkId,
          fingerprint: `${checkId}|${resource}|global`,
          scenario,
          severity,
          title: checkId,
          description: 'd',
          resource,
          region: 'global',
          first_scan_id: 'scan_tailored',
          detected_at: new Date(),
        })),
      )
      .execute();
    const res = await ctx.http.get('/accounts/161803398874/recovery-checklist').set(tenant.auth).expect(200);
    expect(res.body.checklist.map((s: { title: string }) => s.title)).toEqual(
      ['iam.root_mfa_disabled', 'exposure.sg_ssh_open', 'billing.no_budget'].map((id) => checkById(id)!.title),
    );
    expect(res.body.checklist.map((s: { step: number }) => s.step)).toEqual([1, 2, 3]);
  });
});
