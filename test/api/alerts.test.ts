import type { z } from 'zod';
import { ackAlertOutput, listAlertsOutput } from '../../core/schemas/alerts';
import { errorBody } from '../../core/schemas/common';
import { newId } from '../../domain/ids';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';

// Alert events as the API shows them: keyset-paged listing and acknowledgement. The events are inserted
// directly, as the firing activity would.
let ctx: TestContext;
let owner: TestUser;
let member: TestUser;
let viewer: TestUser;
let other: TestUser;

const AWS_ID = '210987654321';
const OTHER_AWS_ID = '123123123123';
const TOTAL = 120;
const BASE = Date.parse('2026-11-01T00:00:00Z');

type Alert = z.infer<typeof listAlertsOutput>['alerts'][number];

/** An account, a rule and `count` alert events (each from its own scan) fired three to a minute. */
async function seedAlerts(
  user: TestUser,
  awsAccountId: string,
  count: number,
): Promise<{ ruleId: string; alertIds: string[] }> {
  const accountId = newId('account');
  const ruleId = newId('rule');
  await ctx.db
    .insertInto('accounts')
    .values({
      id: accountId,
      tenant_id: user.tenantId,
      aws_account_id: awsAccountId,
      display_name: null,
      tags: [],
      status: 'ACTIVE',
      external_id: `x${awsAccountId}`.padEnd(32, 'x'),
      role_name: 'SentinelReadOnly',
      workflow_id: `wf-${accountId}`,
    })
    .execute();
  await ctx.db
    .insertInto('alert_rules')
    .values({
      id: ruleId,
      tenant_id: user.tenantId,
      name: 'Seeded',
      channels: JSON.stringify([{ type: 'email', to: ['ops@example.com'] }]),
      updated_at: new Date(BASE),
    })
    .execute();
  const firedAt = (i: number) => new Date(BASE + Math.floor(i / 3) * 60_000);
  const scans = Array.from({ length: count }, (_, i) => ({
    id: newId('scan'),
    tenant_id: user.tenantId,
    account_id: accountId,
    trigger: 'scheduled' as const,
    status: 'succeeded' as const,
    srs: i % 101,
    started_at: firedAt(i),
  }));
  await ctx.db.insertInto('scans').values(scans).execute();
  // Events share a fired_at in threes and their ids do not follow fired_at, so the id tie-breaker matters.
  const events = scans.map((scan, i) => ({
    id: newId('alert', BASE + ((i * 7919) % count) * 1000),
    tenant_id: user.tenantId,
    account_id: accountId,
    rule_id: ruleId,
    scan_id: scan.id,
    srs_at_trigger: i % 101,
    srs_complete: i % 3 === 0 ? null : i % 3 === 1,
    scenarios_triggered: i % 2 === 0 ? ['iam' as const] : ['exposure' as const, 'threat' as const],
    findings_digest: `digest-${i}`,
    fired_at: firedAt(i),
  }));
  await ctx.db.insertInto('alert_events').values(events).execute();
  return { ruleId, alertIds: events.map((e) => e.id) };
}

let seeded: { ruleId: string; alertIds: string[] };
let otherSeeded: { ruleId: string; alertIds: string[] };

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx);
  member = await addUserWithRole(ctx, owner.tenantId, 'member');
  viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  other = await signupAndLogin(ctx);
  seeded = await seedAlerts(owner, AWS_ID, TOTAL);
  otherSeeded = await seedAlerts(other, OTHER_AWS_ID, 5);
});
afterAll(() => ctx.close());

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

const eventRow = (id: string) =>
  ctx.db.selectFrom('alert_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function walk(user: TestUser, limit: number): Promise<{ alerts: Alert[]; pages: number }> {
  const alerts: Alert[] = [];
  let token: string | null = null;
  let pages = 0;
  do {
    const res: { body: z.infer<typeof listAlertsOutput> } = await ctx.http
      .get('/alerts')
      .query({ limit, ...(token ? { next_token: token } : {}) })
      .set(user.auth)
      .expect(200);
    conforms(listAlertsOutput, res.body);
    expect(res.body.count).toBe(res.body.alerts.length);
    alerts.push(...res.body.alerts);
    token = res.body.next_token;
    pages += 1;
  } while (token);
  return { alerts, pages };
}

describe('GET /alerts', () => {
  it('walks every alert exactly once with limit 7, newest first (ties by id)', async () => {
    const { alerts, pages } = await walk(viewer, 7);
    expect(pages).toBe(Math.ceil(TOTAL / 7));
    expect(alerts).toHaveLength(TOTAL);
    expect(new Set(alerts.map((a) => a.alert_id))).toEqual(new Set(seeded.alertIds));
    const keys = alerts.map((a) => `${a.fired_at}|${a.alert_id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('carries the account id under both names and the event fields', async () => {
    const res = await ctx.http.get('/alerts').query({ limit: 1 }).set(owner.auth).expect(200);
    const newest = await eventRow(res.body.alerts[0].alert_id);
    expect(res.body.alerts[0]).toEqual({
      alert_id: newest.id,
      aws_account_id: AWS_ID,
      cloud_account_id: AWS_ID,
      rule_id: seeded.ruleId,
      srs_at_trigger: newest.srs_at_trigger,
      srs_complete_at_trigger: newest.srs_complete,
      scenarios_triggered: newest.scenarios_triggered,
      fired_at: newest.fired_at.toISOString(),
      acknowledged_at: null,
    });
    expect(res.body.alerts[0].fired_at).toBe(new Date(BASE + Math.floor((TOTAL - 1) / 3) * 60_000).toISOString());
  });

  it('says whether the score each alert fired on read every core source (null before this was kept)', async () => {
    const { alerts } = await walk(owner, 200);
    const kept = new Map(
      (
        await ctx.db
          .selectFrom('alert_events')
          .select(['id', 'srs_complete'])
          .where('tenant_id', '=', owner.tenantId)
          .execute()
      ).map((e) => [e.id, e.srs_complete]),
    );
    expect(alerts.map((a) => a.srs_complete_at_trigger)).toEqual(alerts.map((a) => kept.get(a.alert_id)));
    expect(new Set(alerts.map((a) => a.srs_complete_at_trigger))).toEqual(new Set([true, false, null]));
  });

  it('answers 50 per page by default', async () => {
    const res = await ctx.http.get('/alerts').set(owner.auth).expect(200);
    expect(res.body.count).toBe(50);
    expect(res.body.next_token).toEqual(expect.any(String));
  });

  it('ends with a null next_token when the last page is full', async () => {
    const { pages } = await walk(owner, TOTAL / 4);
    expect(pages).toBe(4);
  });

  it("lists only the caller's tenant's alerts", async () => {
    const { alerts } = await walk(other, 200);
    expect(alerts.map((a) => a.alert_id).sort()).toEqual([...otherSeeded.alertIds].sort());
    expect(alerts.every((a) => a.aws_account_id === OTHER_AWS_ID)).toBe(true);
    const fresh = await signupAndLogin(ctx);
    const none = await ctx.http.get('/alerts').set(fresh.auth).expect(200);
    expect(none.body).toEqual({ alerts: [], count: 0, next_token: null });
  });

  it('keeps listing the alerts of a deleted rule', async () => {
    await ctx.db
      .updateTable('alert_rules')
      .set({ deleted_at: new Date() })
      .where('id', '=', otherSeeded.ruleId)
      .execute();
    const { alerts } = await walk(other, 200);
    expect(alerts).toHaveLength(5);
  });

  it.each([
    ['a limit of 0', { limit: 0 }, 'limit'],
    ['a limit of 201', { limit: 201 }, 'limit'],
    ['a non-numeric limit', { limit: 'abc' }, 'limit'],
    ['a fractional limit', { limit: 2.5 }, 'limit'],
    ['an unknown parameter', { since: '2026-01-01T00:00:00Z' }, 'since'],
  ])('rejects %s with 400', async (_label, query, field) => {
    const res = await ctx.http.get('/alerts').query(query).set(owner.auth).expect(400);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each([
    ['garbage'],
    [Buffer.from('{"at":"2026-11-01T00:00:00.000Z"}').toString('base64url')],
    [Buffer.from('["2026-11-01T00:00:00.000Z"]').toString('base64url')],
    [Buffer.from('["yesterday","alrt_X"]').toString('base64url')],
    [Buffer.from('["2026-11-01T00:00:00.000Z","x\' or 1=1"]').toString('base64url')],
  ])('rejects the malformed next_token %s with 400 invalid_cursor', async (token) => {
    const res = await ctx.http.get('/alerts').query({ next_token: token }).set(owner.auth).expect(400);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('invalid_cursor');
  });

  it('requires a bearer token', async () => {
    await ctx.http.get('/alerts').expect(401);
  });
});

describe('POST /alerts/{alert_id}/ack', () => {
  it('acknowledges once; acknowledging again answers the first time', async () => {
    const alertId = seeded.alertIds[0] as string;
    const first = await ctx.http.post(`/alerts/${alertId}/ack`).set(member.auth).expect(200);
    conforms(ackAlertOutput, first.body);
    expect(first.body.alert_id).toBe(alertId);
    const row = await eventRow(alertId);
    expect(row.acknowledged_by).toBe(member.userId);
    expect(first.body.acknowledged_at).toBe(row.acknowledged_at?.toISOString());

    const second = await ctx.http.post(`/alerts/${alertId}/ack`).set(owner.auth).expect(200);
    expect(second.body).toEqual(first.body);
    expect((await eventRow(alertId)).acknowledged_by).toBe(member.userId);

    const { alerts } = await walk(owner, 200);
    expect(alerts.find((a) => a.alert_id === alertId)?.acknowledged_at).toBe(first.body.acknowledged_at);
    expect(alerts.filter((a) => a.acknowledged_at !== null)).toHaveLength(1);
  });

  it('gives concurrent acknowledgements one and the same time', async () => {
    const alertId = seeded.alertIds[1] as string;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        ctx.http
          .post(`/alerts/${alertId}/ack`)
          .set(i % 2 === 0 ? member.auth : owner.auth)
          .expect(200),
      ),
    );
    const times = new Set(answers.map((a) => a.body.acknowledged_at));
    expect(times.size).toBe(1);
    expect((await eventRow(alertId)).acknowledged_at?.toISOString()).toBe([...times][0]);
  });

  it('forbids viewers (403) and leaves the alert unacknowledged', async () => {
    const alertId = seeded.alertIds[2] as string;
    const res = await ctx.http.post(`/alerts/${alertId}/ack`).set(viewer.auth).expect(403);
    expect(res.body.code).toBe('forbidden');
    expect((await eventRow(alertId)).acknowledged_at).toBeNull();
  });

  it("answers 404 for another tenant's alert and leaves it unacknowledged", async () => {
    const alertId = seeded.alertIds[3] as string;
    const res = await ctx.http.post(`/alerts/${alertId}/ack`).set(other.auth).expect(404);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('not_found');
    expect((await eventRow(alertId)).acknowledged_at).toBeNull();
  });

  it.each([['alrt_01J0000000000000000000000'], [encodeURIComponent('alrt x')], [`alrt_${'A'.repeat(100)}`]])(
    'answers 404 for the unknown or malformed id %s',
    async (alertId) => {
      const res = await ctx.http.post(`/alerts/${alertId}/ack`).set(owner.auth).expect(404);
      expect(res.body.code).toBe('not_found');
    },
  );
});
