import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createDb, type Db } from '../db/client';
import { migrateToLatest } from '../db/migrate';
import { ensureDatabase, freePort, startPostgres, startTemporalDevServer } from '../scripts/services';
import { buildWorkflowBundle } from '../worker/bundle';
import { API_NODE_FLAGS, type NodeProcess, startNodeProcess, WORKER_NODE_FLAGS } from './processes';

// The service for benchmarks, on this machine: embedded PostgreSQL and the Temporal dev server shared by the
// whole run, and the API and the worker (sandbox provider) as processes of their own, started per part of the
// run on a task queue of their own, so one part's accounts never reach another part's worker. The dev server runs
// with task-queue fairness enabled, as production should (docs/operations.md, "Fairness").

export interface BenchEnvironment {
  /** A small pool for seeding and reading results, apart from the API's and the worker's pools. */
  db: Db;
  temporal: Client;
  /** The dev server's billable `action` counter in the default namespace, by action type. */
  actionCounts: () => Promise<Map<string, number>>;
  close: () => Promise<void>;
  /** Starts an API and a worker process on `taskQueue`. */
  startServices: (options: ServiceOptions) => Promise<BenchServices>;
}

export interface ServiceOptions {
  taskQueue: string;
  /** DATABASE_POOL_MAX of the API and the worker. */
  poolMax: number;
  /** Extra node flags for the API process (e.g. --cpu-prof). */
  apiNodeArgs?: string[];
  /** Extra node flags for the worker process. */
  workerNodeArgs?: string[];
  /** Environment of both processes on top of the defaults (e.g. the AWS provider instead of the sandbox). */
  env?: Record<string, string>;
}

export interface BenchServices {
  url: string;
  taskQueue: string;
  /** TEMPORAL_FAIRNESS of both processes. */
  fairness: boolean;
  /** Stops the worker, and starts a new one once `whileStopped` is done. */
  restartWorker: (whileStopped?: () => Promise<void>) => Promise<void>;
  api: NodeProcess;
  worker: NodeProcess;
  stop: () => Promise<void>;
}

const JWT_SECRET = 'b'.repeat(48);

export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'sentinel-bench-'));
  chmodSync(scratch, 0o755);
  const [pgPort, temporalPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort()]);
  // Workers load a prebuilt workflow bundle, as in production (npm run build:workflows).
  const workflowBundle = path.join(scratch, 'workflow-bundle.js');
  const [postgres, server] = await Promise.all([
    startPostgres({ dataDir: path.join(scratch, 'pg'), port: pgPort, persistent: false }),
    startTemporalDevServer({ port: temporalPort, metricsPort }),
    buildWorkflowBundle(workflowBundle),
  ]);
  await ensureDatabase(postgres.url('postgres'), 'bench');
  const databaseUrl = postgres.url('bench');
  const db = createDb({ url: databaseUrl, maxConnections: 5 });
  await migrateToLatest(db);
  const connection = await Connection.connect({ address: server.address });
  const temporal = new Client({ connection });
  const running = new Set<BenchServices>();

  const startServices = async ({
    taskQueue,
    poolMax,
    apiNodeArgs = [],
    workerNodeArgs = [],
    env: extra = {},
  }: ServiceOptions): Promise<BenchServices> => {
    const port = await freePort();
    const env = {
      NODE_ENV: 'production',
      CLOUD_PROVIDER: 'sandbox',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: String(poolMax),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      JWT_SECRET,
      TEMPORAL_WORKFLOW_BUNDLE: workflowBundle,
      // The benchmarks sign up a tenant per 250 accounts, all from one address.
      SIGNUPS_PER_CLIENT_PER_HOUR: '100000',
      ...extra,
    };
    const url = `http://127.0.0.1:${port}`;
    // Request logging off: the API is measured, not pino writing to a pipe.
    const api = await startNodeProcess({
      script: 'api/main.ts',
      env: { ...env, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: String(port) },
      ready: new URL('/healthz', url),
      nodeArgs: [...API_NODE_FLAGS, ...apiNodeArgs],
    });
    const startWorker = () =>
      startNodeProcess({
        script: 'worker/main.ts',
        env: { ...env, LOG_LEVEL: 'info' },
        ready: '"msg":"worker started"',
        nodeArgs: [...WORKER_NODE_FLAGS, ...workerNodeArgs],
      });
    const worker = await startWorker().catch(async (err: unknown) => {
      await api.stop();
      throw err;
    });
    const services: BenchServices = {
      url,
      api,
      worker,
      taskQueue,
      fairness: extra.TEMPORAL_FAIRNESS !== 'false',
      restartWorker: async (whileStopped) => {
        await services.worker.stop();
        await whileStopped?.();
        services.worker = await startWorker();
      },
      stop: async () => {
        running.delete(services);
        await Promise.all([api.stop(), services.worker.stop()]);
      },
    };
    running.add(services);
    return services;
  };

  const actionCounts = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const counts = new Map<string, number>();
    for (const [, labels, value] of text.matchAll(/^action\{([^}]*)\} (\S+)$/gm)) {
      if (!labels?.includes('namespace="default"')) continue;
      const type = /action_type="([^"]+)"/.exec(labels)?.[1] ?? 'unknown';
      counts.set(type, (counts.get(type) ?? 0) + Number(value));
    }
    return counts;
  };

  return {
    db,
    temporal,
    startServices,
    actionCounts,
    close: async () => {
      await Promise.all([...running].map((s) => s.stop()));
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
    fetch(`${url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const signup = await post('/auth/signup', { email, password: 'bench-password', name: 'Bench' });
  if (!signup.ok) throw new Error(`signup of ${email} answered ${signup.status}`);
  const login = (await (await post('/auth/login', { email, password: 'bench-password' })).json()) as {
    id_token: string;
  };
  return { authorization: `Bearer ${login.id_token}` };
}
