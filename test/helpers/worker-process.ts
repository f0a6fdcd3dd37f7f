import { type ChildProcess, spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../scripts/tools';
import { TEST_JWT_SECRET, type TestContext } from './context';

export interface WorkerProcess {
  process: ChildProcess;
  /** SIGKILL: no draining, no goodbye to Temporal; in-flight activities are cut off mid-way. */
  kill(): Promise<void>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
}

/**
 * A worker process for a test context: its database, Temporal server and task queue, the sandbox cloud, and
 * `extra` settings (the test's peers).
 */
export function startSandboxWorker(ctx: TestContext, extra: Record<string, string> = {}): Promise<WorkerProcess> {
  return startWorkerProcess({
    DATABASE_URL: ctx.database.url,
    TEMPORAL_ADDRESS: ctx.config.temporal.address,
    TEMPORAL_TASK_QUEUE: ctx.config.temporal.taskQueue,
    JWT_SECRET: TEST_JWT_SECRET,
    CLOUD_PROVIDER: 'sandbox',
    ...extra,
  });
}

/**
 * The real worker (`worker/main.ts`) in a process of its own, configured through the environment as in
 * production, so tests can kill it outright.
 */
async function startWorkerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<WorkerProcess> {
  // node itself with tsx as its loader: the `tsx` binary would run the worker in a grandchild that a kill misses.
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_ENV: 'test', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker process did not start in time')), timeoutMs);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"worker started"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', () => undefined);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker process exited with ${code} before it started`));
    });
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return { process: child, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
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
