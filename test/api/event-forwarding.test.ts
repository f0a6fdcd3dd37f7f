import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { eventForwardingOutput } from '../../core/schemas/events';
import {
  HEARTBEAT_INTERVAL_MINUTES,
  HEARTBEAT_LATE_AFTER_MINUTES,
  HEARTBEAT_RULE_NAME,
} from '../../domain/events/forwarding-rules';
import { EVENTS_PER_ACCOUNT_PER_MINUTE } from '../../domain/tenancy/limits';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';

// The forwarder's heartbeat through POST /ingest/aws/events, and GET /accounts/{account_id}/event-forwarding: a
// heartbeat updates its region's last heartbeat and is stored as no event; other events say when their region last
// delivered; each region's state is judged by its heartbeat (docs/event-forwarding.md, "Heartbeat").

const AWS_ID = '123456789012';
const OTHER_AWS_ID = '210987654321';
const HEADER = 'X-Sentinel-Event-Key';
const MINUTE_MS = 60_000;

let ctx: TestContext;
let owner: TestUser;
let viewer: TestUser;
let key: string;
let sequence = 0;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE_MS);

/** The Scheduled Event the forwarder's heartbeat rule sends, as EventBridge delivers it. */
function heartbeat(region: string, time: Date, account = AWS_ID): Record<string, unknown> {
  sequence += 1;
  return {
    version: '0',
    id: `heartbeat-${sequence}-${Date.now()}`,
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account,
    time: time.toISOString(),
    region,
    resources: [`arn:aws:events:${region}:${account}:rule/${HEARTBEAT_RULE_NAME}`],
    detail: {},
  };
}

/** A CloudTrail event that sets off no detection (a read-only policy attached), in `region`. */
function quietEvent(region: string): Record<string, unknown> {
  sequence += 1;
  const fixture = JSON.parse(
    readFileSync(path.join(__dirname, '../fixtures/aws-events/attach-readonly-policy.json'), 'utf8'),
  ) as Record<string, unknown>;
  return { ...fixture, id: `quiet-${sequence}-${Date.now()}`, account: AWS_ID, region, time: new Date().toISOString() };
}

const ingest = (body: unknown, withKey = key) =>
  ctx.http
    .post('/ingest/aws/events')
    .set('Content-Type', 'application/json')
    .set(HEADER, withKey)
    .send(JSON.stringify(body));

async function forwarding(user: TestUser = owner) {
  const res = await ctx.http.get(`/accounts/${AWS_ID}/event-forwarding`).set(user.auth).expect(200);
  // The answer is exactly its documented schema: an unknown field is an error.
  const parsed = (eventForwardingOutput as z.ZodObject).strict().safeParse(res.body);
  if (!parsed.success) throw new Error(`response does not match its schema: ${JSON.stringify(parsed.error.issues)}`);
  return res.body as z.infer<typeof eventForwardingOutput>;
}
const regionOf = async (region: string) => (await forwarding()).regions.find((r) => r.region === region);

const storedEvents = async () =>
  (await ctx.db.selectFrom('account_events').select('event_id').execute()).map((e) => e.event_id);

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx);
  viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
  const connected = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: AWS_ID }).expect(201);
  key = connected.body.event_forwarding.api_key;
  await ctx.db.deleteFrom('rate_limits').execute();
});
afterAll(() => ctx?.close());

describe('GET /accounts/{account_id}/event-forwarding', () => {
  it('answers the bound and no region before the forwarder delivered anything', async () => {
    expect(await forwarding()).toEqual({
      heartbeat_interval_minutes: HEARTBEAT_INTERVAL_MINUTES,
      late_after_minutes: HEARTBEAT_LATE_AFTER_MINUTES,
      regions: [],
    });
  });

  it("is a viewer's to read, and 404 for another tenant's account or an account never connected", async () => {
    expect((await forwarding(viewer)).late_after_minutes).toBe(HEARTBEAT_LATE_AFTER_MINUTES);
    const stranger = await signupAndLogin(ctx, 'Other tenant');
    // An id that cannot be an account's is not found either.
    for (const id of [AWS_ID, '999999999999', '12']) {
      const res = await ctx.http.get(`/accounts/${id}/event-forwarding`).set(stranger.auth).expect(404);
      expect(res.body).toEqual({ error: expect.any(String), code: 'not_found' });
    }
  });
});

describe('POST /ingest/aws/events with heartbeats', () => {
  it("records the region's last heartbeat and stores no event", async () => {
    const sent = minutesAgo(1);
    const before = await storedEvents();
    const res = await ingest(heartbeat('eu-west-1', sent)).expect(202);
    expect(res.body).toEqual({ accepted: 1, duplicates: 0, signals_opened: 0 });
    expect(await storedEvents()).toEqual(before);
    const events = await ctx.http.get(`/accounts/${AWS_ID}/events`).set(owner.auth).expect(200);
    expect(events.body.events).toEqual([]);
    expect(await regionOf('eu-west-1')).toEqual({
      region: 'eu-west-1',
      state: 'receiving',
      last_heartbeat_at: sent.toISOString(),
      last_event_at: null,
    });
  });

  it('keeps the newest heartbeat: a late redelivery of an older one does not move it back', async () => {
    const newer = minutesAgo(2);
    await ingest(heartbeat('eu-north-1', newer)).expect(202);
    await ingest(heartbeat('eu-north-1', minutesAgo(40))).expect(202);
    expect((await regionOf('eu-north-1'))?.last_heartbeat_at).toBe(newer.toISOString());
  });

  it('counts a heartbeat from the future as received now, so a forged time cannot keep a region alive', async () => {
    const before = Date.now();
    await ingest(heartbeat('ap-south-1', new Date('2099-01-01T00:00:00Z'))).expect(202);
    const recorded = Date.parse((await regionOf('ap-south-1'))!.last_heartbeat_at!);
    expect(recorded).toBeGreaterThanOrEqual(before);
    expect(recorded).toBeLessThanOrEqual(Date.now());
  });

  it(`says late once the last heartbeat is older than ${HEARTBEAT_LATE_AFTER_MINUTES} minutes`, async () => {
    const old = minutesAgo(HEARTBEAT_LATE_AFTER_MINUTES + 5);
    await ingest(heartbeat('sa-east-1', old)).expect(202);
    expect(await regionOf('sa-east-1')).toMatchObject({ state: 'late', last_heartbeat_at: old.toISOString() });
  });

  it("records when other events arrived, by region, one row a region whatever the request's size", async () => {
    const before = Date.now();
    const batch = [
      quietEvent('us-east-1'),
      quietEvent('us-east-1'),
      heartbeat('us-east-1', minutesAgo(1)),
      quietEvent('ca-central-1'),
    ];
    const res = await ingest(batch).expect(202);
    expect(res.body).toEqual({ accepted: 4, duplicates: 0, signals_opened: 0 });
    const [usEast, canada] = [await regionOf('us-east-1'), await regionOf('ca-central-1')];
    expect(usEast?.state).toBe('receiving');
    expect(Date.parse(usEast!.last_event_at!)).toBeGreaterThanOrEqual(before);
    // Events, but never a heartbeat: the region's silence cannot be judged.
    expect(canada).toMatchObject({ state: 'no_heartbeat', last_heartbeat_at: null });
    expect(Date.parse(canada!.last_event_at!)).toBeGreaterThanOrEqual(before);
    const rows = await ctx.db
      .selectFrom('event_forwarding_regions')
      .select(['tenant_id', 'region'])
      .where('region', 'in', ['us-east-1', 'ca-central-1'])
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.tenant_id === owner.tenantId)).toBe(true);
    // Only the heartbeat was left out of the stored events.
    expect((await storedEvents()).filter((id) => id.startsWith('quiet-'))).toHaveLength(3);
  });

  it('refuses a heartbeat with a wrong key or of another account, as any event, and records nothing', async () => {
    const before = await forwarding();
    expect((await ingest(heartbeat('eu-south-1', new Date()), 'x'.repeat(43)).expect(401)).body.code).toBe(
      'unauthorized',
    );
    const foreign = await ingest(heartbeat('eu-south-1', new Date(), OTHER_AWS_ID)).expect(403);
    expect(foreign.body).toEqual({ error: expect.stringContaining(OTHER_AWS_ID), code: 'forbidden' });
    expect(await forwarding()).toEqual(before);
  });

  it("counts heartbeats against the account's events a minute: over the limit nothing is recorded, heartbeats included", async () => {
    await ctx.db.deleteFrom('rate_limits').execute();
    const sent = minutesAgo(3);
    for (let n = 0; n < EVENTS_PER_ACCOUNT_PER_MINUTE; n += 100)
      await ingest(Array.from({ length: 100 }, () => heartbeat('me-south-1', sent))).expect(202);
    const refused = await ingest(heartbeat('me-south-1', new Date())).expect(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(await regionOf('me-south-1')).toMatchObject({ last_heartbeat_at: sent.toISOString() });
    await ctx.db.deleteFrom('rate_limits').execute();
  });
});
