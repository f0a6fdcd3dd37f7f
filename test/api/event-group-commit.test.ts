import { readFileSync } from 'node:fs';
import path from 'node:path';
import { storeInGroup } from '../../core/events/group-commit';
import { HEARTBEAT_RULE_NAME } from '../../domain/events/forwarding-rules';
import { EVENTS_PER_ACCOUNT_PER_MINUTE } from '../../domain/tenancy/limits';
import { registry } from '../../observability/metrics';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { startSandboxApi } from '../helpers/worker-process';

// Ingestion's group commit (core/events/group-commit.ts) under concurrent requests through the API: requests that
// arrive together are committed together, and yet each is answered as if alone: every event stored once and answered
// accepted once, an account's minute counted request by request, the forwarder's regions as their beats say, and a
// request the database refuses failing alone.

const HEADER = 'X-Sentinel-Event-Key';
const QUIET = JSON.parse(
  readFileSync(path.join(__dirname, '../fixtures/aws-events/sg-open-https.json'), 'utf8'),
) as Record<string, unknown>;

let ctx: TestContext;
let owner: TestUser;
let nextAccount = 0;

interface Account {
  awsId: string;
  key: string;
  id: string;
}

beforeAll(async () => {
  ctx = await createTestContext({ config: { CLOUD_PROVIDER: 'sandbox' } });
  owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'agency' }).where('id', '=', owner.tenantId).execute();
});
afterAll(async () => {
  await ctx?.close();
});

async function connect(): Promise<Account> {
  nextAccount += 1;
  const awsId = `8${String(nextAccount).padStart(2, '0')}${String(Date.now()).slice(-9)}`;
  const res = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: awsId }).expect(201);
  const row = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('aws_account_id', '=', awsId)
    .executeTakeFirstOrThrow();
  return { awsId, key: res.body.event_forwarding.api_key, id: row.id };
}

/** An event that sets off no detection (port 443 opened), of `account`, with the id given. */
const quiet = (account: Account, id: string) => ({
  ...QUIET,
  id,
  account: account.awsId,
  time: new Date().toISOString(),
});

function heartbeat(account: Account, region: string, time: Date, id: string) {
  return {
    version: '0',
    id,
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: account.awsId,
    time: time.toISOString(),
    region,
    resources: [`arn:aws:events:${region}:${account.awsId}:rule/${HEARTBEAT_RULE_NAME}`],
    detail: {},
  };
}

const ingest = (account: Account, body: unknown) =>
  ctx.http
    .post('/ingest/aws/events')
    .set('Content-Type', 'application/json')
    .set(HEADER, account.key)
    .send(JSON.stringify(body));

const storedIds = async (account: Account) =>
  (await ctx.db.selectFrom('account_events').select('event_id').where('account_id', '=', account.id).execute()).map(
    (row) => row.event_id,
  );

/** Requests committed in groups of more than one so far (the histogram's observations above 1). */
async function groupedCommits(): Promise<number> {
  const metric = (await registry.getSingleMetric('sentinel_event_store_group_requests')?.get()) as
    | { values: { metricName?: string; labels: { le?: number | string }; value: number }[] }
    | undefined;
  const bucket = (le: number | string) =>
    metric?.values.find((v) => v.metricName?.endsWith('_bucket') && v.labels.le === le)?.value ?? 0;
  return bucket('+Inf') - bucket(1);
}

describe('ingestion committed in groups', () => {
  it('stores each event once across concurrent requests, answering it accepted once and a duplicate elsewhere', async () => {
    const accounts = [await connect(), await connect(), await connect()];
    const groupedBefore = await groupedCommits();
    // Request i of an account carries its events i, i+1 and i+2: each event but the ends comes in three requests.
    const sent = accounts.flatMap((account) =>
      Array.from({ length: 20 }, (_, i) => ({
        account,
        body: [i, i + 1, i + 2].map((n) => quiet(account, `grouped-${account.awsId}-${n}`)),
      })),
    );
    const answers = await Promise.all(sent.map(({ account, body }) => ingest(account, body)));
    expect(answers.map((a) => a.status)).toEqual(sent.map(() => 202));
    for (const account of accounts) {
      const mine = answers.filter((_, n) => sent[n]!.account === account).map((a) => a.body);
      expect(mine.reduce((sum, a) => sum + a.accepted, 0)).toBe(22);
      expect(mine.reduce((sum, a) => sum + a.duplicates, 0)).toBe(60 - 22);
      expect((await storedIds(account)).sort()).toEqual(
        Array.from({ length: 22 }, (_, n) => `grouped-${account.awsId}-${n}`).sort(),
      );
    }
    // The requests did share commits: this is the grouped path at work, not one request after another.
    expect(await groupedCommits()).toBeGreaterThan(groupedBefore);
  });

  it("counts concurrent requests of one account in order: the minute's limit admits exactly its events", async () => {
    const account = await connect();
    const perRequest = 10;
    const requests = EVENTS_PER_ACCOUNT_PER_MINUTE / perRequest + 5;
    const answers = await Promise.all(
      Array.from({ length: requests }, (_, r) =>
        ingest(
          account,
          Array.from({ length: perRequest }, (_, n) => quiet(account, `limit-${r}-${n}`)),
        ),
      ),
    );
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(EVENTS_PER_ACCOUNT_PER_MINUTE / perRequest);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body).toMatchObject({ code: 'rate_limited' });
    expect(accepted.reduce((sum, a) => sum + a.body.accepted, 0)).toBe(EVENTS_PER_ACCOUNT_PER_MINUTE);
    // What was answered 202 is stored, and nothing a 429 answered.
    expect(await storedIds(account)).toHaveLength(EVENTS_PER_ACCOUNT_PER_MINUTE);
  });

  it('records concurrent heartbeats of a region as its first and last beat, whichever commits first', async () => {
    const account = await connect();
    const start = Date.now() - 60 * 60_000;
    // Ten beats a minute apart, sent in a shuffled order, all at once.
    const beats = [3, 9, 0, 5, 1, 8, 2, 7, 4, 6].map((n) =>
      heartbeat(account, 'eu-west-1', new Date(start + n * 60_000), `beat-${account.awsId}-${n}`),
    );
    const answers = await Promise.all(beats.map((beat) => ingest(account, beat)));
    expect(answers.map((a) => a.status)).toEqual(beats.map(() => 202));
    const region = await ctx.db
      .selectFrom('event_forwarding_regions')
      .select(['first_heartbeat_at', 'last_heartbeat_at'])
      .where('account_id', '=', account.id)
      .where('region', '=', 'eu-west-1')
      .executeTakeFirstOrThrow();
    expect(region.first_heartbeat_at).toEqual(new Date(start));
    expect(region.last_heartbeat_at).toEqual(new Date(start + 9 * 60_000));
    expect(await storedIds(account)).toEqual([]);
  });

  it('fails a request the database refuses alone: the others of its group are stored and answered', async () => {
    const account = await connect();
    const request = (accountId: string, eventId: string) => ({
      tenantId: owner.tenantId,
      accountId,
      count: { key: `events:${accountId}`, limit: EVENTS_PER_ACCOUNT_PER_MINUTE, hits: 1 },
      bytes: { key: `event-kib:${accountId}`, limit: 4096, hits: 1 },
      touches: [],
      events: [
        {
          account_id: accountId,
          event_id: eventId,
          tenant_id: owner.tenantId,
          source: 'aws.ec2',
          detail_type: 'AWS API Call via CloudTrail',
          event_name: 'AuthorizeSecurityGroupIngress',
          region: 'us-east-1',
          event_time: new Date().toISOString(),
          actor: null,
          source_ip: null,
          detections: [],
          detail: '{}',
          suppressed: null,
        },
      ],
    });
    // Written in the same turn, so in one group: the middle one names no account (its foreign key fails).
    const outcomes = await Promise.allSettled([
      storeInGroup(ctx.db, request(account.id, 'alone-1')),
      storeInGroup(ctx.db, request('acc_that_does_not_exist', 'alone-2')),
      storeInGroup(ctx.db, request(account.id, 'alone-3')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await storedIds(account)).sort()).toEqual(['alone-1', 'alone-3']);
    const first = outcomes[0] as PromiseFulfilledResult<{ stored: Set<string>; count: { count: number } }>;
    const third = outcomes[2] as PromiseFulfilledResult<{ stored: Set<string>; count: { count: number } }>;
    expect([...first.value.stored]).toEqual(['alone-1']);
    expect([...third.value.stored]).toEqual(['alone-3']);
    // Each counted once: the group's attempt was rolled back before each was written alone.
    expect(third.value.count.count).toBe(2);
  });

  it('loses no acknowledged event when its API process is killed in the middle of a burst', async () => {
    const account = await connect();
    const api = await startSandboxApi(ctx);
    const ids = Array.from({ length: 400 }, (_, n) => `killed-${account.awsId}-${n}`);
    let answered = 0;
    let killing: Promise<void> | undefined;
    const outcomes = await Promise.all(
      ids.map(async (id) => {
        try {
          const res = await fetch(`${api.url}/ingest/aws/events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', [HEADER]: account.key },
            body: JSON.stringify(quiet(account, id)),
          });
          const body = (await res.json()) as { accepted?: number };
          answered += 1;
          // Killed outright once a few dozen are answered: the rest are in flight, in a group or waiting for one.
          if (answered === 40) killing = api.kill();
          return { id, acknowledged: res.status === 202 && body.accepted === 1 };
        } catch {
          return { id, acknowledged: false };
        }
      }),
    );
    await (killing ?? api.kill());
    const acknowledged = outcomes.filter((o) => o.acknowledged).map((o) => o.id);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    // The kill did cut requests off: not everything was answered.
    expect(acknowledged.length).toBeLessThan(ids.length);
    const stored = new Set(await storedIds(account));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });
});
