import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TRUNCATED } from '../../domain/bounded-text';
import { JSON_MAX_DEPTH } from '../../domain/json-budget';
import { SIGNAL_TEXT_BYTES } from '../../domain/signals/bounds';
import { EVENT_KIB_PER_ACCOUNT_PER_MINUTE } from '../../domain/tenancy/limits';
import { requestBodies } from '../../observability/metrics';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

// What a client's input can make the service do, at most: every JSON body within a size and depth budget before it
// is parsed (REST, tRPC, the event ingestion, the Stripe webhook), the event key checked before a byte of the body is
// read, a resource's name of any length kept within a signal's bounds, an account's events bounded in bytes as well as
// in number, and no event dated in the future ahead of the ones that happened.

const FIXTURES = path.join(__dirname, '../fixtures/aws-events');
const HEADER = 'X-Sentinel-Event-Key';
const AWS_ID = '123456789012';
const BUDGET_AWS_ID = '210987654321';
const COMPOUND_AWS_ID = '345678901234';

let ctx: TestContext;
let owner: TestUser;
const keys: Record<string, string> = {};
let sequence = 0;

beforeAll(async () => {
  ctx = await createTestContext({
    withWorker: true,
    config: { CLOUD_PROVIDER: 'sandbox', STRIPE_WEBHOOK_SECRET: 'whsec_hostile_input_suite' },
  });
  owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
  for (const id of [AWS_ID, BUDGET_AWS_ID, COMPOUND_AWS_ID]) {
    const connected = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: id }).expect(201);
    keys[id] = connected.body.event_forwarding.api_key;
  }
});
afterAll(() => ctx?.close());

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;

/** A fixture as a new event of `account`, happening now. */
function event(name: string, account = AWS_ID, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    ...fixture(name),
    id: `${name}-${sequence}-${Date.now()}`,
    account,
    time: new Date().toISOString(),
    ...overrides,
  };
}

const withDetail = (name: string, extra: Record<string, unknown>, account = AWS_ID) =>
  event(name, account, { detail: { ...(fixture(name).detail as object), ...extra } });

const ingest = (body: unknown, key: string | null = keys[AWS_ID]!) => {
  const req = ctx.http.post('/ingest/aws/events').set('Content-Type', 'application/json');
  if (key !== null) req.set(HEADER, key);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
};

const storedEvents = async (awsAccountId: string) =>
  Number(
    (
      await ctx.db
        .selectFrom('account_events')
        .innerJoin('accounts', 'accounts.id', 'account_events.account_id')
        .where('accounts.aws_account_id', '=', awsAccountId)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** `sentinel_request_bodies_total` of this process, for one reader (and one outcome). */
async function bodiesRead(reader: 'json' | 'raw', outcome?: string): Promise<number> {
  return (await requestBodies.get()).values
    .filter((v) => v.labels.reader === reader && (outcome === undefined || v.labels.outcome === outcome))
    .reduce((sum, v) => sum + v.value, 0);
}

const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
// Compact (`{"":` is 4 bytes a level), so 20,000 levels stay within a REST body's 100 kB.
const deepObjects = (depth: number) => `${'{"":'.repeat(depth)}1${'}'.repeat(depth)}`;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('the depth budget of every JSON body', () => {
  it('refuses an event whose detail nests 5,000 arrays or 20,000 objects deep with 400 body_too_deep, storing nothing', async () => {
    const before = await storedEvents(AWS_ID);
    const deepBefore = await bodiesRead('raw', 'too_deep');
    for (const deep of [deepArrays(5_000), deepObjects(20_000)]) {
      const body = JSON.stringify(event('create-user')).replace('"eventVersion":"1.09"', `"nested":${deep}`);
      const res = await ingest(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringContaining(`${JSON_MAX_DEPTH}`), code: 'body_too_deep' });
    }
    expect(await bodiesRead('raw', 'too_deep')).toBe(deepBefore + 2);
    expect(await storedEvents(AWS_ID)).toBe(before);
  });

  it('refuses a REST body and a tRPC mutation nested that deep with 400 body_too_deep, before any handler runs', async () => {
    const rules = async () =>
      (await ctx.db.selectFrom('alert_rules').select('id').where('tenant_id', '=', owner.tenantId).execute()).length;
    const before = await rules();
    for (const deep of [deepArrays(5_000), deepObjects(20_000)]) {
      const body = `{"name":"Deep","min_srs":50,"channels":${deep}}`;
      for (const route of ['/alert-rules', '/trpc/alertRules.create']) {
        const res = await ctx.http
          .post(route)
          .set(owner.auth)
          .set('Content-Type', 'application/json')
          .send(body)
          .expect(400);
        expect({ route, code: res.body.code }).toEqual({ route, code: 'body_too_deep' });
      }
    }
    // A tRPC query's input parameter is held to the same budget.
    const query = await ctx.http
      .get('/trpc/accounts.get')
      .query({ input: `{"account_id":${deepArrays(1_000)}}` })
      .set(owner.auth)
      .expect(400);
    expect(query.body.code).toBe('body_too_deep');
    expect(await rules()).toBe(before);
  });

  it('refuses a Stripe webhook body nested that deep before its signature is even checked', async () => {
    const res = await ctx.http
      .post('/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=0')
      .send(`{"id":"evt_deep","data":${deepArrays(5_000)}}`)
      .expect(400);
    expect(res.body.code).toBe('body_too_deep');
  });

  it('does not count brackets inside strings', async () => {
    const brackets = `${'['.repeat(50_000)}${'{'.repeat(50_000)}"\\`;
    const res = await ingest(withDetail('sg-open-https', { userAgent: brackets })).expect(202);
    expect(res.body).toMatchObject({ accepted: 1 });
    // Too long a name is the schema's 400, not the depth's.
    const rest = await ctx.http
      .post('/alert-rules')
      .set(owner.auth)
      .send({ name: '['.repeat(5_000), min_srs: 50, channels: [{ type: 'email', to: [owner.email] }] })
      .expect(400);
    expect(rest.body.code).toBe('validation_failed');
  });
});

describe('the event key, before the body', () => {
  it('refuses a keyless or wrong-key request of 1 MB without reading its body; a valid key gets it read', async () => {
    const megabyte = JSON.stringify(withDetail('sg-open-https', { padding: 'x'.repeat(1_000_000) }));
    const readBefore = await bodiesRead('raw');
    for (let n = 0; n < 10; n++) {
      await ingest(megabyte, null).expect(401);
      await ingest(megabyte, randomBytes(32).toString('base64url')).expect(401);
    }
    // Not even a body past the size limit, or one that is not JSON, is looked at: the key is refused first.
    await ingest(`${megabyte}${' '.repeat(1_100_000)}`, 'not-a-key').expect(401);
    await ingest('{"id": ', null).expect(401);
    expect(await bodiesRead('raw')).toBe(readBefore);

    await ingest(megabyte).expect(202);
    expect(await bodiesRead('raw')).toBe(readBefore + 1);
  });
});

describe('resource names of any length', () => {
  it('open a signal of 5 KB and of 240 KB names, bounded, and find it again by the same bounded fingerprint', async () => {
    for (const size of [5_000, 240_000]) {
      // Random, so PostgreSQL cannot compress the name under its index's bound.
      const bucket = randomBytes(size).toString('base64url').slice(0, size);
      const publicPolicy = (fixture('put-bucket-policy-public').detail as { requestParameters: object })
        .requestParameters;
      const made = () =>
        withDetail('put-bucket-policy-public', { requestParameters: { ...publicPolicy, bucketName: bucket } });
      expect((await ingest(made()).expect(202)).body).toMatchObject({ accepted: 1, signals_opened: 1 });
      const signals = await ctx.db
        .selectFrom('signals')
        .select(['resource', 'description', 'title', 'fingerprint'])
        .where('check_id', '=', 'event.s3_bucket_made_public')
        .where('resource', 'like', `${bucket.slice(0, 100)}%`)
        .execute();
      expect(signals).toHaveLength(1);
      const [signal] = signals;
      expect(signal!.resource.endsWith(TRUNCATED)).toBe(true);
      expect(bytes(signal!.resource)).toBeLessThanOrEqual(SIGNAL_TEXT_BYTES.resource);
      expect(bytes(signal!.description)).toBeLessThanOrEqual(SIGNAL_TEXT_BYTES.description);
      // The same bucket made public again: the same state, its signal still open.
      expect((await ingest(made()).expect(202)).body).toMatchObject({ accepted: 1, signals_opened: 0 });
    }
  });

  it("refuses an envelope whose source or detail-type is longer than EventBridge's bound", async () => {
    const res = await ingest(event('create-user', AWS_ID, { source: `aws.${'x'.repeat(300)}` })).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.stringContaining('`source`') });
  });
});

describe("an account's bytes a minute", () => {
  it('are bounded beside its events: past the budget, 429 with Retry-After and nothing stored', async () => {
    await ctx.db.deleteFrom('rate_limits').execute();
    const key = keys[BUDGET_AWS_ID]!;
    // Events of about 1,000 KB each, one a request: few by number, the budget's worth by size.
    const heavy = () => withDetail('sg-open-https', { padding: 'x'.repeat(1_000_000) }, BUDGET_AWS_ID);
    const fit = Math.floor(EVENT_KIB_PER_ACCOUNT_PER_MINUTE / 1_000);
    for (let n = 0; n < fit; n++) await ingest(heavy(), key).expect(202);
    expect(await storedEvents(BUDGET_AWS_ID)).toBe(fit);
    const refused = await ingest(heavy(), key).expect(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', error: expect.stringContaining('MiB') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A small event of the same account is refused too for the rest of the minute: the bytes are spent.
    await ingest(event('sg-open-https', BUDGET_AWS_ID), key).expect(429);
    expect(await storedEvents(BUDGET_AWS_ID)).toBe(fit);
    await ctx.db.deleteFrom('rate_limits').execute();
  });
});

describe('events dated in the future', () => {
  it('do not fill the read of recent indicators: a real new access key and GPU launch still open probable compromise', async () => {
    const key = keys[COMPOUND_AWS_ID]!;
    const dated2030 = () => event('create-user', COMPOUND_AWS_ID, { time: '2030-01-01T00:00:00Z' });
    for (let batch = 0; batch < 2; batch++) await ingest(Array.from({ length: 100 }, dated2030), key).expect(202);
    await ingest(event('create-access-key', COMPOUND_AWS_ID), key).expect(202);
    await ingest(event('run-instances-gpu', COMPOUND_AWS_ID), key).expect(202);
    const compound = await ctx.db
      .selectFrom('signals')
      .innerJoin('accounts', 'accounts.id', 'signals.account_id')
      .select(['signals.severity', 'signals.description'])
      .where('accounts.aws_account_id', '=', COMPOUND_AWS_ID)
      .where('signals.check_id', '=', 'event.probable_compromise')
      .execute();
    expect(compound).toEqual([expect.objectContaining({ severity: 'CRITICAL' })]);
    expect(compound[0]!.description).toMatch(/GPU or high-end instance launched/);
  });

  it('are dated at their arrival, so they do not stay above the events that came after them', async () => {
    const future = event('sg-open-https', AWS_ID, { time: '2030-06-01T00:00:00Z' });
    await ingest(future).expect(202);
    const current = event('sg-open-https');
    await ingest(current).expect(202);
    const page = await ctx.http.get(`/accounts/${AWS_ID}/events`).query({ limit: 2 }).set(owner.auth).expect(200);
    expect(page.body.events.map((e: { event_id: string }) => e.event_id)).toEqual([current.id, future.id]);
    const stored = page.body.events[1] as { time: string; received_at: string };
    expect(Date.parse(stored.time)).toBeLessThanOrEqual(Date.parse(stored.received_at) + 1_000);
  });
});
