import { computeSrs } from '../../domain/scoring/srs';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { parseCsvTable } from '../helpers/csv';
import { scanResult } from '../helpers/scans';
import { unzip } from '../helpers/zip';

// POST and DELETE /accounts/{account_id}/signals/{signal_id}/accept, on a scanned sandbox account: the answer,
// the score at once, the rules of the input, roles, another tenant's ids, the history and the exports. (What
// scans and alert rules do with accepted signals is in test/workflows/accepted-risk.test.ts.)

const AWS_ID = '123456789012';
const DAY_MS = 86_400_000;
let ctx: TestContext;
let owner: TestUser;
let member: TestUser;
let viewer: TestUser;

interface Signal {
  signal_id: string;
  check_id: string;
  scenario: string;
  severity: string;
  resolved_at: string | null;
  accepted: null | {
    by_user_id: string | null;
    by_email: string;
    reason: string;
    accepted_at: string;
    expires_at: string | null;
  };
}

beforeAll(async () => {
  const exportsDir = `${process.env.TEST_SCRATCH_DIR as string}/accepted-risk-exports`;
  ctx = await createTestContext({
    withWorker: true,
    config: { CLOUD_PROVIDER: 'sandbox', EXPORT_LOCAL_DIR: exportsDir },
  });
  owner = await signupAndLogin(ctx);
  member = await addUserWithRole(ctx, owner.tenantId, 'member');
  viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: AWS_ID }).expect(201);
  const verified = await ctx.http.post(`/accounts/${AWS_ID}/verify`).set(owner.auth).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
});
afterAll(() => ctx.close());
// Each test starts with no acceptance in force (undone through the API, so the score follows); the history stays.
afterEach(async () => {
  for (const s of (await signals()).filter((signal) => signal.accepted))
    await ctx.http.delete(url(s.signal_id)).set(owner.auth).expect(200);
});

const url = (signalId: string) => `/accounts/${AWS_ID}/signals/${signalId}/accept`;
const score = async () =>
  (await ctx.http.get(`/accounts/${AWS_ID}`).set(owner.auth).expect(200)).body.current_srs as number;
async function signals(status: 'open' | 'resolved' = 'open'): Promise<Signal[]> {
  return (await ctx.http.get(`/accounts/${AWS_ID}/signals`).query({ status, limit: 200 }).set(owner.auth).expect(200))
    .body.signals;
}
/**
 * The most severe open signal that is its check's only one: a check counts once in the score however many
 * resources fail it, so accepting this one must raise the score.
 */
async function heaviest(): Promise<Signal> {
  const rank = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
  const open = (await signals()).filter((s) => !s.accepted);
  const alone = open.filter((s) => open.filter((o) => o.check_id === s.check_id).length === 1);
  const [first] = alone.sort((a, b) => rank.indexOf(a.severity) - rank.indexOf(b.severity));
  if (!first) throw new Error('the sandbox account has no open signal');
  return first;
}

describe('POST /accounts/{account_id}/signals/{signal_id}/accept', () => {
  it('accepts the risk: the signal says who, when, why and until when, and the score leaves it out at once', async () => {
    const target = await heaviest();
    const before = await score();
    const expiresAt = new Date(Date.now() + 30 * DAY_MS).toISOString();

    const res = await ctx.http
      .post(url(target.signal_id))
      .set(member.auth)
      .send({ reason: '  Break-glass admin, audited monthly  ', expires_at: expiresAt })
      .expect(200);

    expect(res.body).toMatchObject({
      signal_id: target.signal_id,
      check_id: target.check_id,
      resolved_at: null,
      accepted: {
        by_user_id: member.userId,
        by_email: member.email,
        reason: 'Break-glass admin, audited monthly',
        expires_at: expiresAt,
      },
    });
    expect(Date.parse(res.body.accepted.accepted_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await score()).toBeGreaterThan(before);
    const listed = (await signals()).find((s) => s.signal_id === target.signal_id);
    expect(listed?.accepted).toEqual(res.body.accepted);
  });

  it('replaces an acceptance, keeping the one it replaces in the history', async () => {
    const target = await heaviest();
    await ctx.http.post(url(target.signal_id)).set(member.auth).send({ reason: 'first' }).expect(200);
    const second = await ctx.http.post(url(target.signal_id)).set(owner.auth).send({ reason: 'second' }).expect(200);
    expect(second.body.accepted).toMatchObject({ reason: 'second', by_user_id: owner.userId, expires_at: null });
    const history = await ctx.db
      .selectFrom('signal_acceptances')
      .select(['reason', 'revoked_at', 'revoked_by'])
      .where('signal_id', '=', target.signal_id)
      .orderBy('accepted_at')
      .execute();
    expect(history.slice(-2)).toEqual([
      { reason: 'first', revoked_at: expect.any(Date), revoked_by: owner.userId },
      { reason: 'second', revoked_at: null, revoked_by: null },
    ]);
  });

  it('shows an acceptance past its expiry as none in the list, as everywhere', async () => {
    const target = await heaviest();
    await ctx.http.post(url(target.signal_id)).set(member.auth).send({ reason: 'lapses' }).expect(200);
    await ctx.db
      .updateTable('signal_acceptances')
      .set({ accepted_at: new Date(Date.now() - 2 * DAY_MS), expires_at: new Date(Date.now() - 1_000) })
      .where('signal_id', '=', target.signal_id)
      .where('revoked_at', 'is', null)
      .execute();
    expect((await signals()).find((s) => s.signal_id === target.signal_id)?.accepted).toBeNull();
    await ctx.http.delete(url(target.signal_id)).set(owner.auth).expect(200);
  });

  it.each([
    ['no reason', {}, 'reason'],
    ['an empty reason', { reason: '   ' }, 'reason'],
    ['a reason over 500 characters', { reason: 'x'.repeat(501) }, 'reason'],
    ['an expiry that is not a timestamp', { reason: 'ok', expires_at: 'next week' }, 'expires_at'],
    ['an expiry without an offset', { reason: 'ok', expires_at: '2027-01-01T00:00:00' }, 'expires_at'],
    ['an expiry in the past', { reason: 'ok', expires_at: new Date(Date.now() - DAY_MS).toISOString() }, 'expires_at'],
    [
      'an expiry over a year ahead',
      { reason: 'ok', expires_at: new Date(Date.now() + 366 * DAY_MS).toISOString() },
      'expires_at',
    ],
    ['an unknown field', { reason: 'ok', accepted_by: 'someone else' }, 'accepted_by'],
  ])('refuses %s with a 400 naming the field, and changes nothing', async (_, body, field) => {
    const target = await heaviest();
    const before = await ctx.db.selectFrom('signal_acceptances').selectAll().execute();
    const res = await ctx.http.post(url(target.signal_id)).set(member.auth).send(body).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.stringContaining(field) });
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await ctx.db.selectFrom('signal_acceptances').selectAll().execute()).toEqual(before);
  });

  it('takes an expiry 365 days ahead', async () => {
    const target = await heaviest();
    await ctx.http
      .post(url(target.signal_id))
      .set(member.auth)
      .send({ reason: 'ok', expires_at: new Date(Date.now() + 365 * DAY_MS - 60_000).toISOString() })
      .expect(200);
  });

  it('answers 409 for a resolved signal: there is no open risk to accept', async () => {
    const target = await heaviest();
    await ctx.db.updateTable('signals').set({ resolved_at: new Date() }).where('id', '=', target.signal_id).execute();
    try {
      const res = await ctx.http.post(url(target.signal_id)).set(member.auth).send({ reason: 'too late' }).expect(409);
      expect(res.body).toMatchObject({ code: 'invalid_state', error: expect.stringContaining('resolved') });
    } finally {
      await ctx.db.updateTable('signals').set({ resolved_at: null }).where('id', '=', target.signal_id).execute();
    }
  });

  it('answers 404 for an unknown signal, or a signal under another account of the tenant', async () => {
    await ctx.http.post(url('sig_01NOTHING0000000000000000')).set(member.auth).send({ reason: 'x' }).expect(404);
    const target = await heaviest();
    await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: '210987654321' }).expect(201);
    const res = await ctx.http
      .post(`/accounts/210987654321/signals/${target.signal_id}/accept`)
      .set(member.auth)
      .send({ reason: 'x' })
      .expect(404);
    expect(res.body).toEqual({ code: 'not_found', error: 'Signal not found' });
  });

  it('is refused to viewers, and to another tenant (404), with nothing written', async () => {
    const target = await heaviest();
    const before = await ctx.db.selectFrom('signal_acceptances').selectAll().execute();
    await ctx.http.post(url(target.signal_id)).set(viewer.auth).send({ reason: 'x' }).expect(403);
    await ctx.http.delete(url(target.signal_id)).set(viewer.auth).expect(403);
    const intruder = await signupAndLogin(ctx);
    await ctx.http.post(url(target.signal_id)).set(intruder.auth).send({ reason: 'x' }).expect(404);
    expect(await ctx.db.selectFrom('signal_acceptances').selectAll().execute()).toEqual(before);
  });
});

describe('DELETE /accounts/{account_id}/signals/{signal_id}/accept', () => {
  it('undoes the acceptance: the signal counts again at once; undoing again answers the signal as it is', async () => {
    const target = await heaviest();
    const before = await score();
    await ctx.http.post(url(target.signal_id)).set(member.auth).send({ reason: 'for a while' }).expect(200);
    expect(await score()).toBeGreaterThan(before);

    const undone = await ctx.http.delete(url(target.signal_id)).set(member.auth).expect(200);
    expect(undone.body).toMatchObject({ signal_id: target.signal_id, accepted: null });
    expect(await score()).toBe(before);
    const again = await ctx.http.delete(url(target.signal_id)).set(member.auth).expect(200);
    expect(again.body).toEqual(undone.body);
    const history = await ctx.db
      .selectFrom('signal_acceptances')
      .select(['reason', 'revoked_by'])
      .where('signal_id', '=', target.signal_id)
      .orderBy('accepted_at')
      .execute();
    expect(history.at(-1)).toEqual({ reason: 'for a while', revoked_by: member.userId });
  });
});

describe('accepted signals in scans and exports', () => {
  it('stay open and accepted across a scan, left out of the score it records', async () => {
    const target = await heaviest();
    await ctx.http.post(url(target.signal_id)).set(member.auth).send({ reason: 'known GPU fleet' }).expect(200);
    const scan = await ctx.http.post(`/accounts/${AWS_ID}/scan`).set(owner.auth).expect(202);
    await scanResult(ctx.temporal, scan.body.execution_arn);

    const open = await signals();
    expect(open.find((s) => s.signal_id === target.signal_id)?.accepted?.reason).toBe('known GPU fleet');
    const counted = open
      .filter((s) => !s.accepted)
      .map((s) => ({ checkId: s.check_id, severity: s.severity, scenario: s.scenario }));
    expect(await score()).toBe(computeSrs(counted));
    const recorded = await ctx.db
      .selectFrom('scans')
      .select('srs')
      .where('id', '=', scan.body.execution_arn.split('/').pop())
      .executeTakeFirstOrThrow();
    expect(recorded.srs).toBe(computeSrs(counted));
  });

  it('are in the CSV export (in force, and every acceptance) and in the panic package', async () => {
    const target = await heaviest();
    await ctx.http.post(url(target.signal_id)).set(member.auth).send({ reason: 'exported' }).expect(200);
    const csv = await ctx.http.get(`/accounts/${AWS_ID}/export`).set(owner.auth).buffer(true).expect(200);
    const rows = parseCsvTable(csv.text);
    const row = rows.find((r) => r.signal_id === target.signal_id);
    expect(row?.accepted).toBe('true');
    expect(JSON.parse(row!.acceptances as string).at(-1)).toMatchObject({
      status: 'in_force',
      accepted_by: member.email,
      reason: 'exported',
    });
    expect(
      rows
        .filter((r) => r.accepted === 'false')
        .every(
          (r) =>
            r.acceptances === '[]' ||
            JSON.parse(r.acceptances as string).every((a: { status: string }) => a.status !== 'in_force'),
        ),
    ).toBe(true);

    const panic = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(owner.auth).expect(200);
    const link = new URL(panic.body.download_url);
    const download = await ctx.http
      .get(`${link.pathname}${link.search}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const files = await unzip(download.body as Buffer);
    const history = JSON.parse(files.get('accepted-risks.json') as string);
    const total = await ctx.db
      .selectFrom('signal_acceptances')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(history).toHaveLength(Number(total.n));
    expect(new Set(history.map((a: { status: string }) => a.status))).toEqual(new Set(['ended', 'in_force']));
    expect(parseCsvTable(files.get('accepted-risks.csv') as string)).toHaveLength(history.length);
  });
});
