import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createSandboxProvider } from '../../cloud/sandbox/provider';
import { createLogger } from '../../config/logger';
import { createDb, type Db } from '../../db/client';
import { isDatabaseUnavailable } from '../../db/errors';
import { migrateToLatest } from '../../db/migrate';
import { ALERT_RULES_PER_TENANT } from '../../domain/tenancy/limits';
import { createExportStorage } from '../../exports/storage';
import { createMailer } from '../../notify/mailer';
import { ensureDatabase, freePort } from '../../scripts/local-services';
import { waitFor } from '../helpers/patience';
import { signupAndLogin, testConfig, type TestUser } from '../helpers/context';
import { PostgresProcess } from '../helpers/postgres-process';

// PostgreSQL stopped and started again while writes keep coming. While it is down every request answers a JSON
// 503 database_unavailable (never a 500, never a hang); the pool reconnects by itself when it is back; every
// write that was acknowledged (2xx) is there afterwards, and no write was left half-done.

/** Twelve times the pool's 5-second connection timeout: a request still unanswered by then hangs, however busy the machine. */
const HANG_MS = 60_000;

interface Outcome {
  status: number | 'no answer';
  body: { error?: string; code?: string; rule_id?: string; name?: string; tenant_id?: string; user_id?: string };
  retryAfter?: string;
  contentType?: string;
  /** What the request wrote: the rule name, the new display name, the signed-up e-mail. */
  key: string;
}

let postgres: PostgresProcess;
let db: Db;
let temporalConnection: Connection;
let http: ReturnType<typeof request>;
const unhandled: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  postgres = new PostgresProcess(path.join(process.env.TEST_SCRATCH_DIR as string, `fault-outage-${port}`), port);
  await postgres.start();
  await ensureDatabase(postgres.url('postgres'), 'sentinel');
  // A small pool, so requests queue for connections as they would under real load.
  db = createDb({ url: postgres.url('sentinel'), maxConnections: 4 });
  await migrateToLatest(db);
  const config = testConfig({ DATABASE_URL: postgres.url('sentinel'), CLOUD_PROVIDER: 'sandbox' });
  temporalConnection = await Connection.connect({ address: config.temporal.address });
  // Errors the app could not classify (its 500s) are kept, to name them if the test fails.
  const log = createLogger({
    level: 'error',
    name: 'test',
    destination: {
      write: (line: string) => {
        const entry = JSON.parse(line) as { msg: string; err?: { type: string; message: string } };
        if (entry.msg === 'unhandled error') unhandled.push(`${entry.err?.type}: ${entry.err?.message}`);
      },
    },
  });
  http = request(
    createApp({
      db,
      config,
      log,
      temporal: new Client({ connection: temporalConnection }),
      cloud: createSandboxProvider(),
      mailer: createMailer({ config: config.email, db, log }),
      storage: createExportStorage(config),
    }),
  );
});
afterAll(async () => {
  await temporalConnection?.close();
  await db?.destroy();
  await postgres?.stop();
});

/** Sends requests one after another until stopped, recording every outcome. */
function stream(send: (n: number) => { req: request.Test; key: string }): {
  outcomes: Outcome[];
  stop: () => Promise<void>;
} {
  const outcomes: Outcome[] = [];
  let running = true;
  const done = (async () => {
    for (let n = 0; running; n++) {
      const { req, key } = send(n);
      try {
        const res = await req.timeout(HANG_MS);
        outcomes.push({
          status: res.status,
          body: res.body,
          retryAfter: res.headers['retry-after'],
          contentType: res.headers['content-type'],
          key,
        });
      } catch {
        outcomes.push({ status: 'no answer', body: {}, key });
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    outcomes,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

// Runs first: the load test below would hit this only by chance.
it('fails a transaction cut off by the outage as database unavailable, without taking the process down', async () => {
  // The transaction holds its connection, between two statements, while the server stops. A connection that is
  // checked out reports the loss as an 'error' event too: unheard, it would end the whole process.
  const cut = db.transaction().execute(async (trx) => {
    await trx.selectFrom('tenants').select('id').execute();
    await postgres.stop();
    await new Promise((r) => setTimeout(r, 200)); // the client sees its socket close
    return trx.selectFrom('tenants').select('id').execute();
  });
  const failure = await cut.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(isDatabaseUnavailable(failure)).toBe(true);
  await postgres.start();
  await db.selectFrom('tenants').select('id').execute();
});

const acknowledged = (outcomes: Outcome[]) => outcomes.filter((o) => typeof o.status === 'number' && o.status < 300);
const unavailable = (outcomes: Outcome[]) => outcomes.filter((o) => o.status === 503);

it('answers JSON 503 while PostgreSQL is down, recovers by itself and keeps every acknowledged write', async () => {
  const owner: TestUser = await signupAndLogin(http);
  // A tenant holds ALERT_RULES_PER_TENANT live rules: the rule stream moves to the next tenant when one is full.
  const ruleOwners = [owner, ...(await Promise.all(Array.from({ length: 19 }, () => signupAndLogin(http))))];
  const ruleOwnerOf = new Map<string, TestUser>();
  const ruleOwner = () => {
    const full = Math.floor(ruleOwnerOf.size / ALERT_RULES_PER_TENANT);
    if (full >= ruleOwners.length) throw new Error('the rule stream filled every tenant: add tenants');
    return ruleOwners[full] as TestUser;
  };
  const streams = {
    // Rules are new rows; display names overwrite one another; signups write a tenant and its owner together.
    rules: stream((n) => {
      const by = ruleOwner();
      const req = http
        .post('/alert-rules')
        .set(by.auth)
        .send({ name: `rule ${n}`, channels: [{ type: 'email', to: ['ops@example.com'] }] });
      return {
        key: `rule ${n}`,
        req: req.on('response', (res: { status: number; body: { rule_id?: string } }) => {
          if (res.status === 201 && res.body.rule_id) ruleOwnerOf.set(res.body.rule_id, by);
        }),
      };
    }),
    renames: stream((n) => ({
      key: `Owner ${n}`,
      req: http
        .patch('/me')
        .set(owner.auth)
        .send({ name: `Owner ${n}` }),
    })),
    signups: stream((n) => {
      const email = `outage-${n}@example.com`;
      return {
        key: email,
        req: http.post('/auth/signup').send({ email, password: 'correct horse battery', name: `Signup ${n}` }),
      };
    }),
    reads: stream(() => ({ key: '', req: http.get('/alert-rules').set(owner.auth) })),
  };
  const all = () => Object.values(streams).flatMap((s) => s.outcomes);
  const everyStream = (check: (outcomes: Outcome[]) => boolean) =>
    Object.values(streams).every((s) => check(s.outcomes));

  try {
    await waitFor(async () => everyStream((o) => acknowledged(o).length >= 3));
    await postgres.stop();
    await waitFor(async () => everyStream((o) => unavailable(o).length >= 3));
    const answeredBefore = Object.values(streams).map((s) => s.outcomes.length);
    await postgres.start();
    // Recovered: every stream has writes acknowledged after the restart, with nothing done to the app.
    await waitFor(async () =>
      Object.values(streams).every((s, i) => acknowledged(s.outcomes.slice(answeredBefore[i])).length >= 3),
    );
  } finally {
    await Promise.all(Object.values(streams).map((s) => s.stop()));
  }

  // Every answer was either a success or a JSON 503 naming the database, with Retry-After; none hung.
  const json = (o: Outcome) => /^application\/json/.test(o.contentType ?? '');
  const expected = (o: Outcome) =>
    ((o.status === 200 || o.status === 201) && json(o)) ||
    (o.status === 503 &&
      json(o) &&
      o.retryAfter === '5' &&
      o.body.code === 'database_unavailable' &&
      typeof o.body.error === 'string');
  expect(unhandled).toEqual([]);
  expect(all().filter((o) => !expected(o))).toEqual([]);

  // Every acknowledged rule is there, as acknowledged.
  const lists = await Promise.all(ruleOwners.map((o) => http.get('/alert-rules').set(o.auth).expect(200)));
  const stored = new Map(
    lists.flatMap((l) => l.body.rules as { rule_id: string; name: string }[]).map((r) => [r.rule_id, r.name]),
  );
  for (const outcome of acknowledged(streams.rules.outcomes))
    expect(stored.get(outcome.body.rule_id as string)).toBe(outcome.key);

  // The last rename was acknowledged (the stream ended on successes), and it is the name that stayed.
  const lastRename = streams.renames.outcomes.at(-1) as Outcome;
  expect(lastRename.status).toBe(200);
  expect((await http.get('/me').set(owner.auth).expect(200)).body.user.name).toBe(lastRename.key);

  // Every acknowledged signup has its owner in its tenant (and can log in); no tenant was left without its owner.
  const signedUp = acknowledged(streams.signups.outcomes);
  const owners = await db
    .selectFrom('users')
    .select(['email', 'tenant_id', 'id'])
    .where('role', '=', 'owner')
    .where(
      'email',
      'in',
      signedUp.map((o) => o.key),
    )
    .execute();
  const byEmail = (a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email);
  expect(owners.sort(byEmail)).toEqual(
    signedUp.map((o) => ({ email: o.key, tenant_id: o.body.tenant_id, id: o.body.user_id })).sort(byEmail),
  );
  await http
    .post('/auth/login')
    .send({ email: signedUp.at(-1)?.key, password: 'correct horse battery' })
    .expect(200);
  const orphans = await db
    .selectFrom('tenants')
    .select('id')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('users').select('users.id').whereRef('users.tenant_id', '=', 'tenants.id'))),
    )
    .execute();
  expect(orphans).toEqual([]);
});
