import path from 'node:path';
import { WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { toAppError } from '../../api/middleware/errors';
import { freePort } from '../../scripts/local-services';
import { stateQuery } from '../../workflows/contracts';
import { waitFor } from '../helpers/patience';
import { addUserWithRole, createTestContext, signupAndLogin, type TestContext } from '../helpers/context';
import { startTemporalServer, type TemporalServer } from '../helpers/temporal-server';
import { startSandboxWorker, type WorkerProcess } from '../helpers/worker-process';

const UNAVAILABLE = { error: 'The workflow service is unavailable; retry shortly', code: 'temporal_unavailable' };

async function answer(req: PromiseLike<{ status: number; body: unknown; headers: Record<string, string> }>) {
  const res = await req;
  return { status: res.status, body: res.body, retryAfter: res.headers['retry-after'] };
}

// A Temporal server of this suite's own (its state in a file) is stopped after the tenant has an active account,
// a pending one, signals, a score, an alert and a second user, then started again. While it is down every read
// answers from PostgreSQL, every command that needs Temporal answers 503 temporal_unavailable and leaves no
// trace (no row, no status change, no use of a rate limit); once it is back, the same commands succeed with
// nothing restarted.
describe('when the Temporal server is down', () => {
  const ACTIVE = '520000000001';
  const PENDING = '520000000002';
  const NEW = '520000000003';
  let port: number;
  let dbFile: string;
  let temporal: TemporalServer | undefined;
  let ctx: TestContext;

  beforeAll(async () => {
    port = await freePort();
    dbFile = path.join(process.env.TEST_SCRATCH_DIR as string, `temporal-outage-${port}.db`);
    temporal = await startTemporalServer({ port, dbFile });
    ctx = await createTestContext({
      withWorker: true,
      config: { CLOUD_PROVIDER: 'sandbox', TEMPORAL_ADDRESS: temporal.address },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await temporal?.stop();
  });

  /** Everything a half-done command could leave behind. */
  async function footprint(tenantId: string) {
    const [accounts, scans, exports, limits] = await Promise.all([
      ctx.db
        .selectFrom('accounts')
        .select(['aws_account_id', 'status', 'external_id', 'first_scan_id', 'updated_at'])
        .where('tenant_id', '=', tenantId)
        .orderBy('aws_account_id')
        .execute(),
      ctx.db.selectFrom('scans').select(['id', 'status']).where('tenant_id', '=', tenantId).orderBy('id').execute(),
      ctx.db.selectFrom('exports').select('id').where('tenant_id', '=', tenantId).execute(),
      ctx.db
        .selectFrom('rate_limits')
        .select(['key', 'count'])
        .where('count', '>', 0)
        .where('key', 'not like', 'login:%')
        .orderBy('key')
        .execute(),
    ]);
    return { accounts, scans, exports, limits };
  }

  it('keeps reads working and refuses commands cleanly, then recovers by itself', async () => {
    const owner = await signupAndLogin(ctx);
    await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
    await addUserWithRole(ctx, owner.tenantId, 'viewer');
    await ctx.http
      .post('/alert-rules')
      .set(owner.auth)
      .send({ name: 'Any risk', min_srs: 100, channels: [{ type: 'email', to: ['ops@example.com'] }] })
      .expect(201);
    await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: ACTIVE }).expect(201);
    await ctx.http.post(`/accounts/${ACTIVE}/verify`).set(owner.auth).expect(200);
    await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: PENDING }).expect(201);
    await waitFor(async () => (await ctx.http.get('/alerts').set(owner.auth).expect(200)).body.count === 1);

    const readPaths = [
      '/me',
      '/users',
      '/accounts',
      `/accounts/${ACTIVE}`,
      `/accounts/${ACTIVE}/signals`,
      `/accounts/${ACTIVE}/score-history`,
      `/accounts/${ACTIVE}/recovery-checklist`,
      `/accounts/${ACTIVE}/export`,
      '/alerts',
      '/alert-rules',
    ];
    const readAll = () =>
      Promise.all(
        readPaths.map(async (p) => {
          const res = await ctx.http.get(p).set(owner.auth);
          return { path: p, status: res.status, body: res.type === 'application/json' ? res.body : res.text };
        }),
      );
    const readsBefore = await readAll();
    expect(readsBefore.map((r) => r.status)).toEqual(readPaths.map(() => 200));

    await temporal?.stop();
    temporal = undefined;

    // Reads answer from PostgreSQL as before; readiness names Temporal.
    expect(await readAll()).toEqual(readsBefore);
    expect((await ctx.http.get('/readyz').expect(503)).body.checks).toEqual({
      database: 'ok',
      temporal: 'unavailable',
    });

    // Every command that goes through a workflow is refused, and leaves nothing behind.
    const before = await footprint(owner.tenantId);
    const commands = [
      ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: NEW }),
      ctx.http.post(`/accounts/${PENDING}/verify`).set(owner.auth),
      ctx.http.post(`/accounts/${ACTIVE}/scan`).set(owner.auth),
      ctx.http.delete(`/accounts/${ACTIVE}`).set(owner.auth),
      ctx.http.post(`/accounts/${ACTIVE}/panic`).set(owner.auth),
    ];
    expect(await Promise.all(commands.map(answer))).toEqual(
      commands.map(() => ({ status: 503, body: UNAVAILABLE, retryAfter: '5' })),
    );
    expect(await footprint(owner.tenantId)).toEqual(before);

    // Writes that need no workflow still work.
    const alert = (await ctx.http.get('/alerts').set(owner.auth).expect(200)).body.alerts[0] as { alert_id: string };
    await ctx.http.post(`/alerts/${alert.alert_id}/ack`).set(owner.auth).expect(200);
    await ctx.http.patch('/me').set(owner.auth).send({ name: 'Still here' }).expect(200);

    // Temporal is back with its state: the API and the worker reconnect by themselves, and the same commands succeed.
    temporal = await startTemporalServer({ port, dbFile });
    await waitFor(async () => (await ctx.http.get('/readyz')).status === 200);
    await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: NEW }).expect(201);
    await ctx.http.post(`/accounts/${PENDING}/verify`).set(owner.auth).expect(200);
    // The account's workflow was cached on the worker before the restart: its first task after it can wait out
    // the sticky queue's timeout, past the command's 5-second deadline. A client retries a 503 after Retry-After.
    let scan = await ctx.http.post(`/accounts/${ACTIVE}/scan`).set(owner.auth);
    for (let tries = 1; scan.status === 503 && tries < 6; tries += 1) {
      expect(scan.body).toEqual(UNAVAILABLE);
      scan = await ctx.http.post(`/accounts/${ACTIVE}/scan`).set(owner.auth);
    }
    expect(scan.status).toBe(202);
    const scanId = (scan.body.execution_arn as string).split('/').pop() as string;
    await waitFor(
      async () =>
        (await ctx.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirst())?.status ===
        'succeeded',
    );
    const limits = await ctx.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', 'like', 'scan:manual:%')
      .execute();
    expect(limits).toEqual([{ count: 1 }, { count: 1 }]); // only the scan that ran counts, for the account and the tenant
    await ctx.http.delete(`/accounts/${ACTIVE}`).set(owner.auth).expect(200);
  });
});

// Temporal is up but no worker polls: a command that waits for its workflow cannot be confirmed. The API answers
// 503 at its deadline, whichever side of the call gives up first, and does not count the request. Temporal may
// still hand such a request to the next worker (it holds updates for a few seconds): asked for twelve times at
// once, at most one scan comes of it.
describe('when no worker is running', () => {
  const AWS_ID = '530000000001';
  let ctx: TestContext;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    ctx = await createTestContext({ config: { CLOUD_PROVIDER: 'sandbox' } });
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
  });

  const startWorker = () => startSandboxWorker(ctx);

  it('answers 503, never 500, counts nothing, and queues at most one scan', async () => {
    worker = await startWorker();
    const owner = await signupAndLogin(ctx);
    await ctx.db.updateTable('tenants').set({ plan: 'enterprise' }).where('id', '=', owner.tenantId).execute();
    await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: AWS_ID }).expect(201);
    await ctx.http.post(`/accounts/${AWS_ID}/verify`).set(owner.auth).expect(200);
    const account = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'workflow_id'])
      .where('aws_account_id', '=', AWS_ID)
      .executeTakeFirstOrThrow();
    const handle = ctx.temporal.workflow.getHandle(account.workflow_id);
    await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1);
    // Stopped cleanly, so Temporal hands the workflow's next task to any worker at once (there is none).
    await worker.stop();
    worker = undefined;

    const requests = Array.from({ length: 12 }, () => ctx.http.post(`/accounts/${AWS_ID}/scan`).set(owner.auth));
    expect(await Promise.all(requests.map(answer))).toEqual(
      requests.map(() => ({ status: 503, body: UNAVAILABLE, retryAfter: '5' })),
    );
    // Neither the account's nor the tenant's count kept any of them.
    const limits = await ctx.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', 'like', `scan:manual:${owner.tenantId}%`)
      .execute();
    expect(limits).toEqual([{ count: 0 }, { count: 0 }]);
    expect(await ctx.db.selectFrom('scans').select('id').where('trigger', '=', 'manual').execute()).toEqual([]);

    worker = await startWorker();
    const next = await ctx.http.post(`/accounts/${AWS_ID}/scan`).set(owner.auth).expect(202);
    const nextId = (next.body.execution_arn as string).split('/').pop() as string;
    await waitFor(
      async () =>
        (await ctx.db.selectFrom('scans').select('status').where('id', '=', nextId).executeTakeFirst())?.status ===
        'succeeded',
    );
    await waitFor(async () => (await handle.query(stateQuery)).pendingScans.length === 0);
    const manual = await ctx.db.selectFrom('scans').select('status').where('trigger', '=', 'manual').execute();
    expect(manual.length).toBeLessThanOrEqual(2);
    expect(manual.every((m) => m.status === 'succeeded')).toBe(true);
  });

  it('maps an update cut off at the deadline to 503, whether the client or the server ended the call', () => {
    // What the Temporal client throws when the server resets the call (CANCELLED) a moment before our deadline fires.
    const reset = Object.assign(new Error('1 CANCELLED: Call cancelled'), {
      code: 1,
      details: 'Call cancelled',
      metadata: {},
    });
    const cut = new WorkflowUpdateRPCTimeoutOrCancelledError('Call cancelled', { cause: reset });
    expect(toAppError(cut)).toMatchObject({ status: 503, code: 'temporal_unavailable' });
  });
});
