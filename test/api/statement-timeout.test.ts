import { sql } from 'kysely';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createDb, type Db, poolOf } from '../../db/client';
import { createTestContext, signupAndLogin, testConfig, type TestContext, type TestUser } from '../helpers/context';
import { RowLock } from '../helpers/row-lock';

// The API's statement timeout (docs/operations.md, "Statement timeout"): every statement of a request is bounded by
// the pool's statement_timeout, and a statement PostgreSQL cancels for it answers 503 database_timeout, not 500.

const AWS_ID = '210987654321';
let ctx: TestContext;
let owner: TestUser;
let timed: Db;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx);
  await ctx.db
    .insertInto('accounts')
    .values({
      id: 'acc_timeout',
      tenant_id: owner.tenantId,
      aws_account_id: AWS_ID,
      display_name: null,
      tags: [],
      status: 'ACTIVE',
      external_id: `acc_timeout-${'x'.repeat(40)}`,
      role_name: 'SentinelReadOnly',
      workflow_id: 'wf-acc_timeout',
    })
    .execute();
  // As api/main.ts builds the API's pool, with a bound a test can reach quickly.
  timed = createDb({ url: ctx.database.url, maxConnections: 2, statementTimeoutMs: 300 });
});
afterAll(async () => {
  await timed.destroy();
  await ctx.close();
});

describe('the API statement timeout', () => {
  it('is 10 seconds by default, set on every connection of the pool that has one', async () => {
    expect(testConfig().database.apiStatementTimeoutMs).toBe(10_000);
    expect(testConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).database.apiStatementTimeoutMs).toBe(0);
    const shown = async (db: Db) =>
      (await sql<{ t: string }>`select current_setting('statement_timeout') as t`.execute(db)).rows[0]?.t;
    expect(await shown(timed)).toBe('300ms');
    // The pool without one (the worker's, the tests') waits as long as a statement takes.
    expect(await shown(ctx.db)).toBe('0');
  });

  it('answers 503 database_timeout for a request whose statement waits past it, and the process serves the next one', async () => {
    const app = request(createApp({ ...ctx, db: timed }));
    // Another transaction holds the signals table: the request's read of it waits for the lock, past the bound.
    const lock = await RowLock.holdTable(ctx.database.url, 'signals');
    let res: request.Response;
    try {
      res = await app.get(`/accounts/${AWS_ID}/signals`).set(owner.auth);
    } finally {
      await lock.release();
    }
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: expect.stringContaining('took too long'), code: 'database_timeout' });
    expect(res.headers['retry-after']).toBe('5');
    // PostgreSQL cancelled the statement, not the connection: the pool keeps it and the next request is served.
    expect(poolOf(timed)?.totalCount).toBeGreaterThan(0);
    const next = await app.get(`/accounts/${AWS_ID}/signals`).set(owner.auth).expect(200);
    expect(next.body.signals).toEqual([]);
    expect((await app.get('/readyz').expect(200)).body.checks.database).toBe('ok');
  });

  it('answers the same code through tRPC', async () => {
    const app = request(createApp({ ...ctx, db: timed }));
    const lock = await RowLock.holdTable(ctx.database.url, 'signals');
    let res: request.Response;
    try {
      res = await app
        .get('/trpc/signals.list')
        .query({ input: JSON.stringify({ account_id: AWS_ID }) })
        .set(owner.auth);
    } finally {
      await lock.release();
    }
    expect(res.status).toBe(503);
    expect(res.body.error.data.code).toBe('database_timeout');
  });
});
