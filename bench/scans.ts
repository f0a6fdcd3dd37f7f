import { setTimeout as sleep } from 'node:timers/promises';
import {
  type BenchTenant,
  connectAccounts,
  firstScans,
  signUpTenants,
  useDailyInterval,
  verifyAccounts,
} from './accounts';
import type { BenchEnvironment } from './environment';
import { type CpuRoles, cpuMeter, sampleResident, type V8Memory, v8Memory } from './processes';

export interface ScanSizeResult {
  accounts: number;
  tenants: number;
  connectSeconds: number;
  seconds: number;
  scansPerSecond: number;
  /** Connect and verify requests answered 503 and retried (docs/operations.md, "Temporal Web UI": verification's priority). */
  unavailable: { connect: number; verify: number };
  /** Worker RSS in bytes: started and idle; with every account connected; median and peak during the scans; after. */
  rss: { idle: number; connected: number; median: number; peak: number; after: number };
  /** Of the worker's memory 5 s after the last first scan, what V8 holds (bytes), from its own metrics. */
  v8?: V8Memory;
  /** Cores busy from the first verification to the last first scan, by process. */
  cpu: CpuRoles;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Resolves once every first scan of the tenants succeeded; throws on a failed one or at the deadline. */
export async function firstScansDone(env: BenchEnvironment, tenants: BenchTenant[], timeoutMs: number): Promise<void> {
  const expected = tenants.reduce((n, t) => n + t.awsAccountIds.length, 0);
  const deadline = Date.now() + timeoutMs;
  let reported = Date.now();
  for (;;) {
    const { succeeded, failed } = await firstScans(env.db, tenants);
    if (failed > 0) throw new Error(`${failed} first scans failed`);
    if (succeeded >= expected) return;
    if (Date.now() > deadline) throw new Error(`only ${succeeded} of ${expected} first scans succeeded in time`);
    if (Date.now() - reported >= 60_000) {
      reported = Date.now();
      console.log(`  ${succeeded} of ${expected} first scans succeeded`);
    }
    await sleep(250);
  }
}

/**
 * `size` sandbox accounts connected through the API (spread over Enterprise tenants of 250), then all verified
 * with `concurrency` requests in flight: verification starts each first scan. Scans per second is the accounts
 * over the seconds from the first verification to the last first scan succeeded. A fresh API and worker process
 * on a task queue of their own, so the worker holds this size's accounts and no others; its RSS is sampled
 * from /proc throughout.
 */
export async function benchScanSize(
  env: BenchEnvironment,
  {
    size,
    concurrency,
    poolMax,
    timeoutMs,
    workerNodeArgs,
  }: {
    size: number;
    concurrency: number;
    poolMax: number;
    timeoutMs: number;
    workerNodeArgs?: string[];
  },
): Promise<ScanSizeResult> {
  const services = await env.startServices({ taskQueue: `bench-scans-${size}`, poolMax, workerNodeArgs });
  const rss = sampleResident(services.worker.pid);
  try {
    await sleep(2_000);
    const idle = median(rss.window());
    const tenants = await signUpTenants({
      db: env.db,
      url: services.url,
      prefix: `scans-${size}`,
      count: size,
      firstId: 600_000_000_000,
    });
    const connecting = Date.now();
    const connectUnavailable = await connectAccounts(services.url, tenants, concurrency);
    const connectSeconds = (Date.now() - connecting) / 1000;
    rss.window();
    const connected = rss.now();
    console.log(`${size} accounts connected in ${connectSeconds.toFixed(1)} s (${tenants.length} tenants)`);

    await useDailyInterval(env.db, tenants);
    const started = Date.now();
    const meter = cpuMeter({ worker: services.worker.pid, api: services.api.pid });
    const [verifyUnavailable] = await Promise.all([
      verifyAccounts(services.url, tenants, concurrency),
      firstScansDone(env, tenants, timeoutMs),
    ]);
    const seconds = (Date.now() - started) / 1000;
    const cpu = meter();
    const during = rss.window();
    await sleep(5_000);
    const after = median(rss.window());
    const v8 = await v8Memory(services.worker.metricsUrl());
    const result: ScanSizeResult = {
      accounts: size,
      tenants: tenants.length,
      connectSeconds,
      seconds,
      scansPerSecond: size / seconds,
      unavailable: { connect: connectUnavailable, verify: verifyUnavailable },
      rss: { idle, connected, median: median(during), peak: Math.max(...during), after },
      v8,
      cpu,
    };
    const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
    const busy = Object.entries(cpu)
      .map(([role, cores]) => `${role} ${cores.toFixed(2)}`)
      .join(', ');
    console.log(
      `${size} first scans in ${seconds.toFixed(1)} s: ${result.scansPerSecond.toFixed(1)} scans/s; ` +
        `worker RSS idle ${mib(idle)}, connected ${mib(connected)}, scans median ${mib(result.rss.median)} ` +
        `peak ${mib(result.rss.peak)}, after ${mib(after)}; cores: ${busy}; 503s retried: connect ${connectUnavailable}, ` +
        `verify ${verifyUnavailable}` +
        (v8 ? `; V8 heap used ${mib(v8.heapUsed)} of ${mib(v8.heapTotal)}, external ${mib(v8.external)}` : ''),
    );
    return result;
  } finally {
    rss.stop();
    await services.stop();
  }
}
