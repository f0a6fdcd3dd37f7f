import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, type Worker } from '@temporalio/worker';
import type express from 'express';
import { createApp } from '../api/app';
import { createCloudProvider } from '../cloud';
import { type Config, loadConfig } from '../config/config';
import { createLogger } from '../config/logger';
import { createDb, type Db } from '../db/client';
import { migrateToLatest } from '../db/migrate';
import { ensureDatabase, freePort, startPostgres, startTemporalDevServer } from '../scripts/services';
import { createMailer } from '../notify/mailer';
import { createWorker, WORKFLOWS_PATH } from '../worker/worker';

// The whole service for benchmarks, in one process: embedded PostgreSQL, the Temporal dev server, a worker
// with the sandbox provider, and the API on a loopback port. Torn down afterwards.

export interface BenchEnvironment {
  db: Db;
  config: Readonly<Config>;
  temporal: Client;
  url: string;
  worker: Worker;
  close: () => Promise<void>;
}

export function listen(app: express.Express): Promise<{ url: string; close: () => void }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    });
  });
}

export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'sentinel-bench-'));
  chmodSync(scratch, 0o755);
  const [pgPort, temporalPort] = await Promise.all([freePort(), freePort()]);
  const [postgres, server] = await Promise.all([
    startPostgres({ dataDir: path.join(scratch, 'pg'), port: pgPort, persistent: false }),
    startTemporalDevServer({ port: temporalPort }),
  ]);
  await ensureDatabase(postgres.url('postgres'), 'bench');
  const log = createLogger({ level: 'silent', name: 'bench' });
  const config = loadConfig({
    DATABASE_URL: postgres.url('bench'), JWT_SECRET: 'b'.repeat(48), LOG_LEVEL: 'silent', CLOUD_PROVIDER: 'sandbox',
    TEMPORAL_ADDRESS: server.address, DATABASE_POOL_MAX: '20',
  });
  const db = createDb({ url: config.database.url, maxConnections: config.database.poolMax });
  await migrateToLatest(db);
  const cloud = createCloudProvider({ config: config.cloud, log });
  const connection = await Connection.connect({ address: server.address });
  const temporal = new Client({ connection });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} } });
  const mailer = createMailer({ config: config.email, db, log });
  const worker = await createWorker({
    connection: nativeConnection, namespace: 'default', taskQueue: config.temporal.taskQueue, db, log, cloud, config, mailer,
    workflowBundle: { code: bundle.code },
  });
  const running = worker.run();
  const api = await listen(createApp({ db, config, log, temporal, cloud, mailer }));
  return {
    db, config, temporal, url: api.url, worker,
    close: async () => {
      api.close();
      worker.shutdown();
      await running;
      await nativeConnection.close();
      await connection.close();
      await db.destroy();
      await server.env.teardown();
      await postgres.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Signs a new tenant up and returns its bearer header. */
export async function tenantAuth(url: string, email: string): Promise<{ authorization: string }> {
  const post = (route: string, body: object) =>
    fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/auth/signup', { email, password: 'bench-password', name: 'Bench' });
  const login = (await (await post('/auth/login', { email, password: 'bench-password' })).json()) as { id_token: string };
  return { authorization: `Bearer ${login.id_token}` };
}
