import { type ChildProcess, spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../scripts/tools';
import { TEST_JWT_SECRET, type TestContext } from './context';
import { CONDITION_CEILING_MS } from './patience';

export interface WorkerProcess {
  process: ChildProcess;
  /** SIGKILL: no draining, no goodbye to Temporal; in-flight activities are cut off mid-way. */
  kill(): Promise<void>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
  /** Its Prometheus endpoint, on a port of its own. */
  metricsUrl: string;
}

/**
 * A worker process for a test context: its database, Temporal server and task queue, the sandbox cloud, and
 * `extra` settings (the test's peers).
 */
export async function startSandboxWorker(ctx: TestContext, extra: Record<string, string> = {}): Promise<WorkerProcess> {
  const started = await startServiceProcess('worker/main.ts', 'worker started', processEnv(ctx, extra));
  return { ...started, metricsUrl: metricsUrlOf(started.urls) };
}

function metricsUrlOf(urls: Map<string, string>): string {
  const url = urls.get('metrics listening');
  if (!url) throw new Error('the process did not say where its metrics are');
  return url;
}

/** The settings an API or worker process of a test context needs: its database, Temporal and task queue, the sandbox. */
function processEnv(ctx: TestContext, extra: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: ctx.database.url,
    TEMPORAL_ADDRESS: ctx.config.temporal.address,
    TEMPORAL_TASK_QUEUE: ctx.config.temporal.taskQueue,
    JWT_SECRET: TEST_JWT_SECRET,
    CLOUD_PROVIDER: 'sandbox',
    ...extra,
  };
}

export interface ApiProcess extends WorkerProcess {
  /** Where the API listens, e.g. http://127.0.0.1:41234 */
  url: string;
}

/** The real API (`api/main.ts`) in a process of its own, on free ports. */
export async function startSandboxApi(ctx: TestContext, extra: Record<string, string> = {}): Promise<ApiProcess> {
  const started = await startServiceProcess('api/main.ts', 'api listening', processEnv(ctx, { PORT: '0', ...extra }));
  const url = started.urls.get('api listening');
  if (!url) throw new Error('the API process did not say where it listens');
  return { ...started, url, metricsUrl: metricsUrlOf(started.urls) };
}

/**
 * The real API or worker in a process of its own, configured through the environment as in production, so tests
 * can kill it outright. Ready when it logs `ready`; `urls` has the `url` of each log line that gave one, by message.
 */
async function startServiceProcess(script: string, ready: string, env: Record<string, string>) {
  // node itself with tsx as its loader: the `tsx` binary would run the process in a grandchild that a kill misses.
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: PROJECT_ROOT,
    // Metrics on free ports: several processes run at once in the suite.
    env: { ...process.env, NODE_ENV: 'test', METRICS_PORT: '0', WORKER_METRICS_PORT: '0', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const urls = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in time`)), CONDITION_CEILING_MS);
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const entry = parseLogLine(line);
        if (entry?.url && entry.msg) urls.set(entry.msg, entry.url);
        if (entry?.msg === ready) {
          clearTimeout(timer);
          resolve();
        }
      }
    });
    child.stderr?.on('data', () => undefined);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it started`));
    });
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return { process: child, urls, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

function parseLogLine(line: string): { msg?: string; url?: string } | undefined {
  try {
    return JSON.parse(line) as { msg?: string; url?: string };
  } catch {
    return undefined;
  }
}

/** The worker processes a test file starts, so that its teardown kills whichever are still running. */
export class SandboxWorkers {
  private readonly started: WorkerProcess[] = [];

  async start(ctx: TestContext, extra: Record<string, string> = {}): Promise<WorkerProcess> {
    const worker = await startSandboxWorker(ctx, extra);
    this.started.push(worker);
    return worker;
  }

  async killAll(): Promise<void> {
    await Promise.all(this.started.map((w) => w.kill()));
  }
}
