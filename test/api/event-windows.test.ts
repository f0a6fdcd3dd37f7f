import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { FIRST_USE_MEMORY_DAYS, WINDOWS_PER_ACCOUNT, windowStart } from '../../domain/events/windows';
import { ROLE_NAME } from '../../domain/onboarding/role';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import type { Envelope } from '../helpers/playbook-fixtures';
import { STRATUS_WINDOWED, windowEvent } from '../helpers/window-fixtures';

// The detections with memory through POST /ingest/aws/events (docs/decisions.md, "Detections with memory"), with real
// EventBridge envelopes (test/fixtures/aws-window-events): a window opens its signal at the request that takes it to
// its threshold, and at no other; failed calls count where they should; benign variants, another account's events and
// Sentinel's own role open nothing; the state an account can make Sentinel keep stays bounded. Each test has an AWS
// account of its own. Events are dated in a window that started half an hour ago, a few seconds apart.

const HEADER = 'X-Sentinel-Event-Key';
const MINUTE = 60_000;
const EVENTS = path.join(__dirname, '../fixtures/aws-events');

let ctx: TestContext;
let owner: TestUser;
let nextAccount = 0;

interface Account {
  awsId: string;
  key: string;
}

interface Signal {
  check_id: string;
  resource: string;
  description: string;
}

/** The start of the 10-minute window that began at least half an hour ago, and an instant `seconds` into it. */
const base = () => windowStart(new Date(Date.now() - 30 * MINUTE), 10);
const second = (start: Date, n: number) => new Date(start.getTime() + n * 1000);

async function connect(): Promise<Account> {
  nextAccount += 1;
  const awsId = `7${String(nextAccount).padStart(2, '0')}${String(Date.now()).slice(-9)}`;
  const res = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: awsId }).expect(201);
  return { awsId, key: res.body.event_forwarding.api_key };
}

/** A window fixture as an event of `account`. */
const of = (account: Account, name: string, time: Date, detail: Record<string, unknown> = {}): Envelope =>
  windowEvent(name, time, detail, account.awsId);

async function ingest(account: Account, body: unknown): Promise<{ accepted: number; signals_opened: number }> {
  const res = await ctx.http
    .post('/ingest/aws/events')
    .set('Content-Type', 'application/json')
    .set(HEADER, account.key)
    .send(JSON.stringify(body))
    .expect(202);
  return res.body;
}

/** Each body in a request of its own: how many signals each opened. */
async function oneByOne(account: Account, bodies: Envelope[]): Promise<number[]> {
  const opened: number[] = [];
  for (const body of bodies) opened.push((await ingest(account, body)).signals_opened);
  return opened;
}

async function signals(account: Account, checkId?: string): Promise<Signal[]> {
  const res = await ctx.http
    .get(`/accounts/${account.awsId}/signals`)
    .query({ ...(checkId ? { check_id: checkId } : {}), limit: 200 })
    .set(owner.auth)
    .expect(200);
  return res.body.signals;
}

async function internalId(account: Account): Promise<string> {
  const row = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('aws_account_id', '=', account.awsId)
    .executeTakeFirstOrThrow();
  return row.id;
}

const windowRows = async (account: Account) =>
  ctx.db
    .selectFrom('detection_windows')
    .select(['detection_id', 'key', 'count', 'signalled'])
    .where('account_id', '=', await internalId(account))
    .execute();

/** A failed sign-in of an IAM user, or of root, from `ip`. */
const failure = (account: Account, time: Date, ip = '198.51.100.23') =>
  of(account, 'console-login-failure-user', time, { sourceIPAddress: ip });
const rootFailure = (account: Account, time: Date, ip = '203.0.113.77') =>
  of(account, 'console-login-failure-root', time, { sourceIPAddress: ip });
const sentinelRole = {
  userIdentity: {
    type: 'AssumedRole',
    principalId: 'AROAZ3K7EXAMPLESENT01:sentinel-scan',
    arn: `arn:aws:sts::123456789012:assumed-role/${ROLE_NAME}/sentinel-scan`,
    accountId: '123456789012',
    sessionContext: {
      sessionIssuer: { type: 'Role', arn: `arn:aws:iam::123456789012:role/${ROLE_NAME}`, userName: ROLE_NAME },
    },
  },
};

beforeAll(async () => {
  ctx = await createTestContext({ config: { CLOUD_PROVIDER: 'sandbox' } });
  owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'agency' }).where('id', '=', owner.tenantId).execute();
});
afterAll(async () => {
  await ctx?.close();
});

describe('failed console sign-ins from one address', () => {
  it('open one signal at the fifth failure in the window, not before, and none for the failures after it', async () => {
    const account = await connect();
    const start = base();
    const opened = await oneByOne(
      account,
      [0, 1, 2, 3, 4, 5, 6].map((i) => failure(account, second(start, i * 20))),
    );
    expect(opened).toEqual([0, 0, 0, 0, 1, 0, 0]);
    const [signal, ...more] = await signals(account, 'event.console_sign_in_failures');
    expect(more).toEqual([]);
    expect(signal).toMatchObject({ resource: '198.51.100.23' });
    expect(signal!.description).toContain('5 failed console sign-ins from 198.51.100.23 within 10 minutes');
    // The event that reached the threshold names the detection, as an event a detection found does.
    const listed = await ctx.http
      .get(`/accounts/${account.awsId}/events`)
      .query({ detection: 'event.console_sign_in_failures' })
      .set(owner.auth)
      .expect(200);
    expect(listed.body.events).toHaveLength(1);
    expect(signal!.description).toContain(listed.body.events[0].event_id);
  });

  it("open at root's third failure", async () => {
    const account = await connect();
    const start = base();
    expect(
      await oneByOne(
        account,
        [0, 1, 2].map((i) => rootFailure(account, second(start, i))),
      ),
    ).toEqual([0, 0, 1]);
    expect(await signals(account, 'event.root_sign_in_failures')).toHaveLength(1);
  });

  it('open nothing for failures from different addresses, spread beyond the window, or sign-ins that worked', async () => {
    const account = await connect();
    const start = new Date(base().getTime() - 20 * MINUTE);
    const sources = [1, 2, 3, 4, 5, 6].map((i) => failure(account, second(start, i), `198.51.100.${i}`));
    // Four in each of three windows, never five in one.
    const spread = [0, 10, 20].flatMap((m) =>
      [0, 1, 2, 3].map((i) => failure(account, new Date(start.getTime() + m * MINUTE + i * 1000), '192.0.2.9')),
    );
    const worked = [0, 1, 2, 3, 4, 5].map((i) =>
      of(account, 'console-login-failure-user', second(start, 100 + i), {
        responseElements: { ConsoleLogin: 'Success' },
        errorMessage: undefined,
        // With MFA: a sign-in without it is a detection of its own.
        additionalEventData: { MobileVersion: 'No', MFAUsed: 'Yes' },
      }),
    );
    expect((await ingest(account, [...sources, ...spread])).signals_opened).toBe(0);
    expect((await ingest(account, worked)).signals_opened).toBe(0);
    expect(await signals(account)).toEqual([]);
  });

  it("count per account: another account's failures from the same address add nothing", async () => {
    const [first, other] = [await connect(), await connect()];
    const start = base();
    expect(
      (
        await ingest(
          first,
          [0, 1, 2].map((i) => failure(first, second(start, i))),
        )
      ).signals_opened,
    ).toBe(0);
    expect(
      (
        await ingest(
          other,
          [0, 1, 2].map((i) => failure(other, second(start, i))),
        )
      ).signals_opened,
    ).toBe(0);
    expect([...(await signals(first)), ...(await signals(other))]).toEqual([]);
  });

  it('count an event delivered again once', async () => {
    const account = await connect();
    const start = base();
    const events = [0, 1, 2, 3].map((i) => failure(account, second(start, i)));
    await ingest(account, events);
    // Redelivered: stored before, counted before.
    expect(await ingest(account, events)).toEqual({ accepted: 0, duplicates: 4, signals_opened: 0 });
    expect(await windowRows(account)).toEqual([
      { detection_id: 'event.console_sign_in_failures', key: '198.51.100.23', count: 4, signalled: false },
    ]);
  });
});

describe('denied calls from one principal', () => {
  it('count failed calls: the twentieth refusal in the window opens one signal', async () => {
    const account = await connect();
    const start = base();
    const refusals = Array.from({ length: 19 }, (_, i) => of(account, 'iam-list-users-denied', second(start, i)));
    const answer = await ingest(account, refusals);
    expect(answer).toMatchObject({ accepted: 19, signals_opened: 0 });
    expect((await ingest(account, of(account, 'iam-list-users-denied', second(start, 30)))).signals_opened).toBe(1);
    const [signal] = await signals(account, 'event.access_denied_burst');
    expect(signal).toMatchObject({ resource: 'arn:aws:iam::123456789012:user/mallory' });
  });

  it("never count Sentinel's own role, which keeps no state either", async () => {
    const account = await connect();
    const start = base();
    const scan = Array.from({ length: 30 }, (_, i) =>
      of(account, 'iam-list-users-denied', second(start, i), sentinelRole),
    );
    const secrets = Array.from({ length: 30 }, (_, i) =>
      of(account, 'secretsmanager-get-secret-value', second(start, i), {
        ...sentinelRole,
        requestParameters: { secretId: `app-${i}` },
      }),
    );
    expect((await ingest(account, [...scan, ...secrets])).signals_opened).toBe(0);
    expect(await windowRows(account)).toEqual([]);
  });
});

describe('trusted automation', () => {
  it("opens no window signal for a trusted principal's refusals, while the window still counts", async () => {
    const account = await connect();
    const trusted = await ctx.http
      .post('/trusted-principals')
      .set(owner.auth)
      .send({
        principal: 'arn:aws:iam::123456789012:user/mallory',
        detections: ['event.access_denied_burst'],
        reason: 'the nightly permissions audit probes what it may call',
        expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      })
      .expect(201);
    const start = base();
    const refusals = Array.from({ length: 25 }, (_, i) => of(account, 'iam-list-users-denied', second(start, i)));
    expect(await ingest(account, refusals)).toMatchObject({ accepted: 25, signals_opened: 0 });
    expect(await signals(account, 'event.access_denied_burst')).toEqual([]);
    expect((await windowRows(account)).find((w) => w.detection_id === 'event.access_denied_burst')).toMatchObject({
      count: 25,
    });

    // Revoked, the trust ends at once: the next window's burst opens its signal.
    await ctx.http.delete(`/trusted-principals/${trusted.body.trusted_principal_id}`).set(owner.auth).expect(200);
    const next = new Date(start.getTime() + 10 * MINUTE);
    const more = Array.from({ length: 20 }, (_, i) => of(account, 'iam-list-users-denied', second(next, i)));
    expect((await ingest(account, more)).signals_opened).toBe(1);
  });
});

describe("Stratus Red Team's techniques that only a window sees", () => {
  const threshold: Record<string, [string, number]> = {
    'aws.credential-access.secretsmanager-retrieve-secrets': ['event.secret_retrieval_burst', 9],
    'aws.credential-access.ssm-retrieve-securestring-parameters': ['event.secret_retrieval_burst', 0],
    'aws.discovery.ec2-enumerate-from-instance': ['event.discovery_burst', 7],
    // The fiftieth of the 51 objects deleted one by one; the one DeleteObjects batch.
    'aws.impact.s3-ransomware-individual-deletion': ['event.s3_objects_mass_deleted', 49],
    'aws.impact.s3-ransomware-batch-deletion': ['event.s3_objects_mass_deleted', 0],
  };

  it.each(Object.entries(STRATUS_WINDOWED))('%s opens its signal at its threshold', async (technique, events) => {
    const account = await connect();
    const [detection, at] = threshold[technique]!;
    const bodies = events(base()).map((body) => ({ ...body, account: account.awsId }));
    const opened = await oneByOne(account, bodies);
    expect(opened).toEqual(opened.map((_, i) => (i === at ? 1 : 0)));
    expect((await signals(account)).map((s) => s.check_id)).toEqual([detection]);
  });
});

describe("an instance's credentials used from another address", () => {
  it('open a signal when the session calls from a second public address, not for the instance itself', async () => {
    const account = await connect();
    const start = windowStart(new Date(Date.now() - 20 * MINUTE), 360);
    const own = [0, 1, 2].map((i) => of(account, 'instance-role-call', second(start, i)));
    const vpc = of(account, 'instance-role-call', second(start, 5), { sourceIPAddress: '10.0.1.5' });
    expect(await oneByOne(account, [...own, vpc])).toEqual([0, 0, 0, 0]);
    const outside = of(account, 'instance-role-call', second(start, 60), {
      sourceIPAddress: '198.51.100.200',
      eventSource: 'ec2.amazonaws.com',
      eventName: 'CreateTags',
      readOnly: false,
    });
    expect((await ingest(account, outside)).signals_opened).toBe(1);
    const [signal] = await signals(account, 'event.instance_credentials_outside_aws');
    expect(signal).toMatchObject({ resource: 'ASIAZ3K7EXAMPLESESS1' });
  });
});

describe('first use of a sensitive API', () => {
  const accessKey = (account: Account, user: string) => {
    const body = JSON.parse(readFileSync(path.join(EVENTS, 'create-access-key.json'), 'utf8')) as Envelope;
    const identity = body.detail.userIdentity as Record<string, unknown>;
    return {
      ...body,
      id: `create-access-key-${user}-${Date.now()}-${Math.random()}`,
      account: account.awsId,
      time: new Date().toISOString(),
      detail: {
        ...body.detail,
        userIdentity: { ...identity, arn: `arn:aws:iam::123456789012:user/${user}`, userName: user },
      },
    };
  };
  const firstUses = async (account: Account) =>
    (await signals(account, 'event.sensitive_api_first_use')).map((s) => s.resource);

  /** An account that has sent events for 15 days: its learning is over. */
  async function learned(): Promise<Account> {
    const account = await connect();
    await ingest(account, of(account, 'iam-list-users-denied', new Date()));
    await sql`update account_events set received_at = now() - interval '15 days'
      where account_id = ${await internalId(account)}`.execute(ctx.db);
    return account;
  }

  it("opens for a principal's first call, not its second, and for another principal's first", async () => {
    const account = await learned();
    await ingest(account, accessKey(account, 'alice'));
    expect(await firstUses(account)).toEqual(['arn:aws:iam::123456789012:user/alice']);
    await ingest(account, accessKey(account, 'alice'));
    await ingest(account, accessKey(account, 'bob'));
    expect((await firstUses(account)).sort()).toEqual([
      'arn:aws:iam::123456789012:user/alice',
      'arn:aws:iam::123456789012:user/bob',
    ]);
  });

  it('opens nothing while the account learns', async () => {
    const account = await connect();
    await ingest(account, accessKey(account, 'alice'));
    expect(await firstUses(account)).toEqual([]);
  });

  it(`opens again for a call last made more than ${FIRST_USE_MEMORY_DAYS} days ago, not for one within`, async () => {
    const [forgotten, remembered] = [await learned(), await learned()];
    for (const [account, days] of [
      [forgotten, FIRST_USE_MEMORY_DAYS + 1],
      [remembered, FIRST_USE_MEMORY_DAYS - 1],
    ] as const)
      await ctx.db
        .insertInto('principal_api_uses')
        .values({
          account_id: await internalId(account),
          tenant_id: owner.tenantId,
          principal: 'arn:aws:iam::123456789012:user/alice',
          api: 'iam.amazonaws.com:CreateAccessKey',
          last_used_at: new Date(Date.now() - days * 86_400_000),
        })
        .execute();
    await ingest(forgotten, accessKey(forgotten, 'alice'));
    await ingest(remembered, accessKey(remembered, 'alice'));
    expect(await firstUses(forgotten)).toEqual(['arn:aws:iam::123456789012:user/alice']);
    expect(await firstUses(remembered)).toEqual([]);
  });
});

describe('the state an account can make Sentinel keep', () => {
  it(`stays within ${WINDOWS_PER_ACCOUNT} windows under a flood of keys, the oldest evicted`, async () => {
    const account = await connect();
    const id = await internalId(account);
    const start = base();
    const batches = Math.ceil(WINDOWS_PER_ACCOUNT / 100) + 2;
    const ip = (n: number) => `198.${18 + Math.floor(n / 65_536)}.${Math.floor(n / 256) % 256}.${n % 256}`;
    for (let b = 0; b < batches; b++) {
      const events = Array.from({ length: 100 }, (_, i) => failure(account, second(start, i), ip(b * 100 + i)));
      expect((await ingest(account, events)).signals_opened).toBe(0);
      // The flood is many minutes' worth of events: each request starts a fresh minute of the account's rate limit.
      await ctx.db
        .deleteFrom('rate_limits')
        .where('key', 'in', [`events:${id}`, `event-kib:${id}`])
        .execute();
    }
    const rows = await windowRows(account);
    expect(rows).toHaveLength(WINDOWS_PER_ACCOUNT);
    const keys = new Set(rows.map((r) => r.key));
    expect(keys.has(ip(0))).toBe(false);
    expect(keys.has(ip(batches * 100 - 1))).toBe(true);
    // A burst after the flood is counted and opens as any other.
    const burst = [0, 1, 2, 3, 4].map((i) => failure(account, second(start, 200 + i), '203.0.113.250'));
    expect((await ingest(account, burst)).signals_opened).toBe(1);
  });
});
