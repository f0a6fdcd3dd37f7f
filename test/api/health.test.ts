import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import request from 'supertest';
import { createMailer } from '../../notify/mailer';
import { createApp } from '../../api/app';
import { createLogger } from '../../config/logger';
import { createDb } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';
import { newId } from '../../domain/ids';
import { ROLE_NAME } from '../../domain/onboarding/role';
import { accountWorkflowId } from '../../workflows/contracts';
import { createExportStorage } from '../../exports/storage';
import { ensureDatabase, freePort } from '../../scripts/local-services';
import { createTestContext, signupAndLogin, testConfig, type TestContext } from '../helpers/context';
import { PostgresProcess } from '../helpers/postgres-process';
import { ScriptedCloud } from '../helpers/scripted-cloud';

const log = createLogger({ level: 'silent', name: 'test' });

describe('GET /healthz and GET /readyz', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('/healthz answers while the process is up', async () => {
    expect((await ctx.http.get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
  });

  it('/readyz reports PostgreSQL and Temporal reachable', async () => {
    const res = await ctx.http.get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', temporal: 'ok' }, cloud_provider: 'aws' });
  });

  it("/readyz says when the service scans the sandbox's demo data rather than AWS", async () => {
    const sandbox = await createTestContext({ config: { CLOUD_PROVIDER: 'sandbox' } });
    try {
      expect((await sandbox.http.get('/readyz').expect(200)).body.cloud_provider).toBe('sandbox');
    } finally {
      await sandbox.close();
    }
  });
});

describe('when Temporal is unreachable', () => {
  let ctx: TestContext;
  let temporal: Client;
  beforeAll(async () => {
    ctx = await createTestContext();
    // A lazy connection to a port nobody listens on, as the API holds one while Temporal is down.
    const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}`, connectTimeout: 1_000 });
    temporal = new Client({ connection });
  });
  afterAll(async () => {
    await temporal.connection.close().catch(() => undefined);
    await ctx.close();
  });

  it('/readyz answers 503 naming Temporal, and reads keep working', async () => {
    const app = request(createApp({ ...ctx, temporal }));
    const ready = await app.get('/readyz').expect(503);
    expect(ready.body).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', temporal: 'unavailable' },
      cloud_provider: 'aws',
    });
    const owner = await signupAndLogin(app);
    await app.get('/me').set(owner.auth).expect(200);
    await app.get('/accounts').set(owner.auth).expect(200);
  });

  it('a command answers 503 and writes nothing', async () => {
    const app = request(createApp({ ...ctx, temporal }));
    const owner = await signupAndLogin(app);
    const res = await app.post('/accounts').set(owner.auth).send({ aws_account_id: '123456789012' }).expect(503);
    expect(res.body).toEqual({ error: expect.any(String), code: 'temporal_unavailable' });
    expect(res.headers['retry-after']).toBeDefined();
    const rows = await ctx.db.selectFrom('accounts').select('id').where('tenant_id', '=', owner.tenantId).execute();
    expect(rows).toHaveLength(0);
  });

  it('a reconnect answers 503 and leaves the disconnected account as it was', async () => {
    const app = request(createApp({ ...ctx, temporal }));
    const owner = await signupAndLogin(app);
    const disconnected = {
      id: newId('account'),
      tenant_id: owner.tenantId,
      aws_account_id: '123456789012',
      display_name: 'Old',
      tags: ['a'],
      external_id: 'y'.repeat(32),
      role_name: ROLE_NAME,
      workflow_id: accountWorkflowId(owner.tenantId, '123456789012'),
      status: 'DISCONNECTED' as const,
      connected_at: new Date('2026-11-01T00:00:00Z'),
      disconnected_at: new Date('2026-11-02T00:00:00Z'),
    };
    await ctx.db.insertInto('accounts').values(disconnected).execute();
    await app
      .post('/accounts')
      .set(owner.auth)
      .send({ aws_account_id: '123456789012', display_name: 'New' })
      .expect(503);
    const row = await ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', disconnected.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ...disconnected, tags: ['a'] });
  });
});

describe('when PostgreSQL goes away', () => {
  let postgres: PostgresProcess;

  beforeAll(async () => {
    const port = await freePort();
    postgres = new PostgresProcess(path.join(process.env.TEST_SCRATCH_DIR as string, `outage-${port}`), port);
    await postgres.start();
    await ensureDatabase(postgres.url('postgres'), 'sentinel');
  });
  afterAll(() => postgres.stop());

  it('answers JSON 503 while it is down and recovers by itself when it returns', async () => {
    const db = createDb({ url: postgres.url('sentinel'), maxConnections: 2 });
    await migrateToLatest(db);
    const config = testConfig({ DATABASE_URL: postgres.url('sentinel') });
    const connection = await Connection.connect({ address: config.temporal.address });
    const app = request(
      createApp({
        db,
        config,
        log,
        temporal: new Client({ connection }),
        cloud: new ScriptedCloud(),
        mailer: createMailer({ config: config.email, db, log }),
        storage: createExportStorage(config),
      }),
    );
    try {
      const owner = await signupAndLogin(app);

      await postgres.stop();
      const down = await app.get('/me').set(owner.auth).expect(503);
      expect(down.body).toEqual({ error: expect.any(String), code: 'database_unavailable' });
      const signup = await app
        .post('/auth/signup')
        .send({ email: 'during@example.com', password: 'password123', name: 'D' })
        .expect(503);
      expect(signup.body.code).toBe('database_unavailable');
      expect((await app.get('/readyz').expect(503)).body.checks.database).toBe('unavailable');

      await postgres.start();
      await app.get('/me').set(owner.auth).expect(200);
      await app.get('/readyz').expect(200);
    } finally {
      await connection.close();
      await db.destroy();
    }
  });
});
