import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The API, the worker and the hello-world baseline each run in a process of their own, as in production:
// the load generator in the bench process does not share their event loop, and the worker's memory is its own.

const ROOT = path.resolve(__dirname, '..');

export interface NodeProcess {
  pid: number;
  child: ChildProcess;
  /** Its Prometheus endpoint, once it has logged where (`metrics listening`). */
  metricsUrl: () => string | undefined;
  /** SIGTERM, then wait for the exit (the API and the worker drain first). */
  stop: () => Promise<void>;
}

/**
 * Runs a TypeScript entry point under node with tsx as its loader (the `tsx` binary would put the program in a
 * grandchild, whose memory we would not see), and waits until its output contains `ready` or, given a URL,
 * until that URL answers 200.
 */
export async function startNodeProcess({
  script,
  env,
  ready,
  nodeArgs = [],
  timeoutMs = 120_000,
}: {
  script: string;
  env: Record<string, string>;
  ready: string | URL;
  nodeArgs?: string[];
  timeoutMs?: number;
}): Promise<NodeProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    // Metrics on free ports: the bench runs several APIs and workers over its run.
    cwd: ROOT,
    env: { ...process.env, METRICS_PORT: '0', WORKER_METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // BENCH_LOG_DIR keeps each process's output, to see afterwards what a slow measurement's processes were doing.
  const logDir = process.env.BENCH_LOG_DIR;
  if (logDir) {
    mkdirSync(logDir, { recursive: true });
    const log = createWriteStream(path.join(logDir, `${path.basename(script, '.ts')}-${child.pid}.log`));
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let metricsUrl: string | undefined;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => settle(new Error(`${script} did not start in time`)), timeoutMs);
    const onExit = (code: number | null) =>
      settle(new Error(`${script} exited with ${code} before it was ready: ${stderr}`));
    child.once('exit', onExit);
    // The output is drained whatever happens (the worker logs a line per scan): a full pipe would stall the process.
    let pending = '';
    let lines = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      if (metricsUrl === undefined) {
        lines += chunk.toString();
        const found = /"url":"([^"]+)","msg":"metrics listening"/.exec(lines);
        if (found) metricsUrl = found[1];
        lines = lines.slice(lines.lastIndexOf('\n') + 1);
      }
      if (settled || typeof ready !== 'string') return;
      pending += chunk.toString();
      if (pending.includes(ready)) settle();
      else pending = pending.slice(-ready.length);
    });
    if (ready instanceof URL) {
      const probe = () => {
        if (settled) return;
        fetch(ready).then(
          (res) => (res.ok ? settle() : setTimeout(probe, 200)),
          () => setTimeout(probe, 200),
        );
      };
      probe();
    }
  });
  return {
    pid: child.pid as number,
    child,
    metricsUrl: () => metricsUrl,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The node flags production runs a process with: those of its npm script (package.json), between `node` and
 * `--import`, as the image's entrypoint passes them too.
 */
function nodeFlagsOf(script: string): readonly string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  // The project's Node runs it (scripts/with-node.sh), as it runs the bench.
  const words = (scripts[script] ?? '').replace(/^bash scripts\/with-node\.sh /, '').split(/\s+/);
  if (words[0] !== 'node' || !words.includes('--import'))
    throw new Error(`${script} is expected to be bash scripts/with-node.sh node [flags] --import tsx <entry point>`);
  return words.slice(1, words.indexOf('--import'));
}

/** The API's (`npm run start:api`): the bench runs the API, and the bare Express baseline beside it, with them. */
export const API_NODE_FLAGS = nodeFlagsOf('start:api');
/** The worker's (`npm run start:worker`): its heap ceiling (docs/operations.md, "Worker memory"). */
export const WORKER_NODE_FLAGS = nodeFlagsOf('start:worker');

/**
 * The baseline of the API benchmarks: a bare Express hello-world on `port`, run as the API is (API_NODE_FLAGS);
 * `appPrototypes`: served by api/http-server.ts, as the API is.
 */
export function startHelloWorld(port: number, { appPrototypes = false } = {}): Promise<NodeProcess> {
  return startNodeProcess({
    script: 'bench/hello-world.ts',
    env: { PORT: String(port), APP_PROTOTYPES: String(appPrototypes) },
    ready: 'hello-world listening',
    nodeArgs: [...API_NODE_FLAGS],
  });
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** Samples a process's RSS every `everyMs` until stopped; `window()` starts a new window of samples. */
export function sampleResident(pid: number, everyMs = 250) {
  let samples: number[] = [];
  const take = () => {
    try {
      samples.push(residentBytes(pid));
    } catch {
      // The process is gone: what waits on it fails on its own, with a better message.
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    now: () => residentBytes(pid),
    /** Samples since the last call (or the start), then a fresh window. */
    window: (): number[] => {
      take();
      const taken = samples;
      samples = [];
      return taken;
    },
    stop: () => clearInterval(timer),
  };
}

/** What V8 holds in a process's main thread, bytes. */
export interface V8Memory {
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** What V8 holds in a process, read from its Prometheus endpoint (prom-client's default metrics). */
export async function v8Memory(url: string | undefined): Promise<V8Memory | undefined> {
  if (!url) return undefined;
  const text = await (await fetch(url)).text();
  // A sample without labels is `<name> <value>` on a line of its own.
  const value = (name: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${name} `))
        ?.split(' ')[1],
    );
  const memory = {
    heapUsed: value('nodejs_heap_size_used_bytes'),
    heapTotal: value('nodejs_heap_size_total_bytes'),
    external: value('nodejs_external_memory_bytes'),
  };
  return Object.values(memory).every(Number.isFinite) ? memory : undefined;
}

/**
 * Reads a process's V8 memory every `everyMs` while it runs: the most of each figure in a window, to set beside
 * the RSS peak (how much of it the main thread's heap was).
 */
export function sampleV8(url: () => string | undefined, everyMs = 1_000) {
  let most: V8Memory | undefined;
  const take = async () => {
    const now = await v8Memory(url()).catch(() => undefined);
    if (!now) return;
    most = most
      ? {
          heapUsed: Math.max(most.heapUsed, now.heapUsed),
          heapTotal: Math.max(most.heapTotal, now.heapTotal),
          external: Math.max(most.external, now.external),
        }
      : now;
  };
  const timer = setInterval(() => void take(), everyMs);
  return {
    /** The most of each figure since the last call (or the start), then a fresh window. */
    window: async (): Promise<V8Memory | undefined> => {
      await take();
      const taken = most;
      most = undefined;
      return taken;
    },
    stop: () => clearInterval(timer),
  };
}

// CPU time, in clock ticks (USER_HZ, 100 a second on Linux), of the processes this run started, by role, and of
// the whole machine: shows what a measurement was bound by, and how busy the rest of the shared machine was.

const TICKS_PER_SECOND = 100;

interface ProcessInfo {
  pid: number;
  ppid: number;
  ticks: number;
  ownTicks: number;
  cmdline: string;
}

function processes(): ProcessInfo[] {
  const all: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      // utime + stime, plus cutime + cstime: the time of children it has reaped. PostgreSQL's backends come and go
      // with the pools' connections; without their time once they exit, the tree's total would drop.
      const ownTicks = Number(fields[11]) + Number(fields[12]);
      all.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        ticks: ownTicks + Number(fields[13]) + Number(fields[14]),
        ownTicks,
        cmdline,
      });
    } catch {
      // The process ended while we read it.
    }
  }
  return all;
}

function machineBusyTicks(): number {
  const [, ...values] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle + iowait
  return values.reduce((sum, v) => sum + v, 0) - idle;
}

export type CpuRoles = Record<string, number>;

/** CPU ticks by role: the named pids, PostgreSQL (the postmaster's tree), Temporal, and this process (the load generator). */
function snapshot(named: Record<string, number>): { roles: CpuRoles; machine: number } {
  const all = processes();
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const roles: CpuRoles = {};
  const add = (role: string, p: ProcessInfo) => {
    roles[role] = (roles[role] ?? 0) + p.ticks;
    for (const child of children.get(p.pid) ?? []) add(role, child);
  };
  const byPid = new Map(Object.entries(named).map(([role, pid]) => [pid, role]));
  for (const p of children.get(process.pid) ?? []) {
    const role =
      byPid.get(p.pid) ?? (/postgres/.test(p.cmdline) ? 'postgres' : /temporal/.test(p.cmdline) ? 'temporal' : 'other');
    add(role, p);
  }
  // Its own time only: the processes it started and reaped are not load it generated.
  roles['load generator'] = all.find((p) => p.pid === process.pid)?.ownTicks ?? 0;
  return { roles, machine: machineBusyTicks() };
}

/**
 * Measures cores busy over a window, by role; `rest of machine` is everything this run did not start (other
 * people's tests on a shared machine).
 */
export function cpuMeter(named: Record<string, number>) {
  const start = snapshot(named);
  const started = Date.now();
  return (): CpuRoles => {
    const end = snapshot(named);
    const seconds = (Date.now() - started) / 1000;
    const cores = (ticks: number) => Math.max(0, ticks) / TICKS_PER_SECOND / seconds;
    const result: CpuRoles = {};
    let ours = 0;
    for (const role of Object.keys(end.roles)) {
      const ticks = (end.roles[role] ?? 0) - (start.roles[role] ?? 0);
      ours += ticks;
      result[role] = cores(ticks);
    }
    result['rest of machine'] = cores(end.machine - start.machine - ours);
    return result;
  };
}
