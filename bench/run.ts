import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { connectAccounts, signUpTenants, useDailyInterval, verifyAccounts } from './accounts';
import { benchBillableActions } from './actions';
import { benchFairness } from './fairness';
import { benchApi } from './api';
import { type BenchEnvironment, startBenchEnvironment } from './environment';
import { ATTACK_PATHS_HEADING, attackPathsSection, benchAttackPaths } from './attack-paths';
import { benchEvents } from './events';
import { benchFleet } from './fleet';
import { benchLargeAccount } from './large-account';
import {
  apiSection,
  type BenchReport,
  EVENTS_HEADING,
  eventsSection,
  fleetSection,
  LARGE_ACCOUNT_HEADING,
  largeAccountSection,
  renderReport,
  SCANS_HEADING,
  scansSection,
  withFleetSection,
} from './report';
import { benchScanSize, firstScansDone } from './scans';
import { benchSignalPages } from './signals';
import { API_HEADING, withSection } from './sections';

// `npm run bench`: every figure comes from one run on this machine, next to a baseline measured in the same
// run, because the machines are shared and noisy: compare ratios over time, not absolute numbers.
// Results go to BENCHMARKS.md with the machine and the date. `npm run bench -- fleet` (or `-- events`) runs that
// part alone and replaces only its section of BENCHMARKS.md (its ratios are measured within that part; `-- scans` too);
// `npm run bench -- large-account` prints each scan's calls by service next to the fewest the checks need as it goes.

const numberFrom = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = numberFrom('BENCH_DURATION', 10);
const API_ACCOUNTS = numberFrom('BENCH_API_ACCOUNTS', 50);
const API_STEADY_RATES = (process.env.BENCH_API_STEADY_RATES ?? '500,1000').split(',').filter(Boolean).map(Number);
const SIGNALS = numberFrom('BENCH_SIGNALS', 100_000);
const SCAN_SIZES = (process.env.BENCH_SCAN_SIZES ?? '1000,10000').split(',').filter(Boolean).map(Number);
const CONCURRENCY = numberFrom('BENCH_CONCURRENCY', 20);
const POOL_MAX = numberFrom('BENCH_POOL_MAX', 20);
const SCAN_TIMEOUT_MS = numberFrom('BENCH_SCAN_TIMEOUT', 3600) * 1000;
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
const LARGE_ACCOUNT = {
  users: numberFrom('BENCH_LARGE_USERS', 500),
  buckets: numberFrom('BENCH_LARGE_BUCKETS', 2000),
  securityGroups: numberFrom('BENCH_LARGE_GROUPS', 10_000),
  functions: numberFrom('BENCH_LARGE_FUNCTIONS', 500),
  queues: numberFrom('BENCH_LARGE_QUEUES', 200),
  topics: numberFrom('BENCH_LARGE_TOPICS', 200),
  snapshots: numberFrom('BENCH_LARGE_SNAPSHOTS', 500),
  secrets: numberFrom('BENCH_LARGE_SECRETS', 100),
  repositories: numberFrom('BENCH_LARGE_REPOSITORIES', 100),
  documents: numberFrom('BENCH_LARGE_DOCUMENTS', 50),
  keys: numberFrom('BENCH_LARGE_KEYS', 20),
};
const MANUAL_SCANS = 10;
const cpuProfile = CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROFILE_DIR)}`] : [];
const FAIRNESS = {
  backlogAccounts: numberFrom('BENCH_FAIRNESS_BACKLOG', 5_000),
  samples: numberFrom('BENCH_FAIRNESS_SAMPLES', 20),
};
const EVENTS = {
  alertEvents: numberFrom('BENCH_EVENT_ALERTS', 1_000),
  alertRate: numberFrom('BENCH_EVENT_RATE', 10),
  alertAccounts: numberFrom('BENCH_EVENT_ACCOUNTS', 20),
  alertTimeoutSeconds: numberFrom('BENCH_EVENT_ALERT_TIMEOUT', 120),
  steadyRates: (process.env.BENCH_EVENT_STEADY_RATES ?? '50,200').split(',').map(Number),
};

const REPORT = path.join(__dirname, '..', 'BENCHMARKS.md');
const PARTS: Record<string, () => Promise<void>> = {
  api: () =>
    partAlone('api', async (env, note) => {
      const { api } = await apiPart(env);
      const section = apiSection(
        { api, settings: { seconds: SECONDS, apiAccounts: API_ACCOUNTS, poolMax: POOL_MAX } },
        note(),
      );
      return withSection(readFileSync(REPORT, 'utf8'), API_HEADING, section);
    }),
  fleet: () =>
    partAlone('fleet', async (env, note) => {
      const fleet = await benchFleet(env, {
        seconds: SECONDS,
        poolMax: POOL_MAX,
        signals: SIGNALS,
        apiNodeArgs: cpuProfile,
      });
      return withFleetSection(
        readFileSync(REPORT, 'utf8'),
        fleetSection(fleet, { seconds: SECONDS, poolMax: POOL_MAX }, note()),
      );
    }),
  // Pure computation: no services to start.
  'attack-paths': async () => {
    const startedAt = new Date();
    const runs = benchAttackPaths();
    const note = `\n\nMeasured on its own by \`npm run bench -- attack-paths\` on ${startedAt.toISOString().slice(0, 10)} (${cpus().length} cores, one-minute load ${loadavg()[0]!.toFixed(1)}).`;
    writeFileSync(
      REPORT,
      withSection(readFileSync(REPORT, 'utf8'), ATTACK_PATHS_HEADING, attackPathsSection(runs, note)),
    );
    console.log('\nattack-paths section written to BENCHMARKS.md');
  },
  'large-account': () =>
    partAlone('large-account', async (env, note) => {
      const section = largeAccountSection(await benchLargeAccount(env, LARGE_ACCOUNT), note());
      return withSection(readFileSync(REPORT, 'utf8'), LARGE_ACCOUNT_HEADING, section);
    }),
  scans: () =>
    partAlone('scans', async (env, note) => {
      const scans = await scanSizes(env);
      const section = scansSection(
        { scans, machine: { cores: cpus().length }, settings: { concurrency: CONCURRENCY } },
        note(),
      );
      return withSection(readFileSync(REPORT, 'utf8'), SCANS_HEADING, section);
    }),
  events: () =>
    partAlone('events', async (env, note) => {
      const events = await benchEvents(env, {
        ...EVENTS,
        seconds: SECONDS,
        poolMax: POOL_MAX,
        concurrency: CONCURRENCY,
        apiNodeArgs: cpuProfile,
      });
      return withSection(readFileSync(REPORT, 'utf8'), EVENTS_HEADING, eventsSection(events, note()));
    }),
};

/**
 * The API's tenant (its accounts are what GET /accounts lists, the first one gets the seeded signals), the billable
 * actions of manual scans, the signal pages, then the API's throughput with the worker stopped.
 */
async function apiPart(env: BenchEnvironment) {
  const services = await env.startServices({ taskQueue: 'bench-api', poolMax: POOL_MAX, apiNodeArgs: cpuProfile });
  const [tenant] = await signUpTenants({
    db: env.db,
    url: services.url,
    prefix: 'api',
    count: API_ACCOUNTS,
    firstId: 500_000_000_000,
  });
  if (!tenant || tenant.awsAccountIds.length < MANUAL_SCANS)
    throw new Error(`BENCH_API_ACCOUNTS must be ${MANUAL_SCANS} to 250`);
  await connectAccounts(services.url, [tenant], CONCURRENCY);
  await useDailyInterval(env.db, [tenant]);
  await verifyAccounts(services.url, [tenant], CONCURRENCY);
  await firstScansDone(env, [tenant], SCAN_TIMEOUT_MS);
  const actions = await benchBillableActions(env, { url: services.url, tenant, scans: MANUAL_SCANS });
  const awsAccountId = tenant.awsAccountIds[0]!;
  const pages = await benchSignalPages(env, {
    url: services.url,
    auth: tenant.auth,
    awsAccountId,
    count: SIGNALS,
    samples: 50,
  });
  await services.worker.stop(); // idle anyway: one process less on the cores while the API is measured
  const api = await benchApi({
    url: services.url,
    apiPid: services.api.pid,
    seconds: SECONDS,
    auth: tenant.auth,
    awsAccountId,
    steadyRates: API_STEADY_RATES,
  });
  await services.stop();
  return { api, pages, actions };
}

/**
 * One part on its own: `run` answers BENCHMARKS.md with that part's section replaced, the rest kept; `note()` says
 * when and where it ran.
 */
/** The scans part: each size of SCAN_SIZES in turn, with a fresh API and worker of its own. */
async function scanSizes(env: BenchEnvironment) {
  const scans = [];
  for (const size of SCAN_SIZES) {
    scans.push(
      await benchScanSize(env, {
        size,
        concurrency: CONCURRENCY,
        poolMax: POOL_MAX,
        timeoutMs: SCAN_TIMEOUT_MS,
        workerNodeArgs: cpuProfile,
      }),
    );
  }
  return scans;
}

async function partAlone(
  name: string,
  run: (env: BenchEnvironment, note: () => string) => Promise<string>,
): Promise<void> {
  const startedAt = new Date();
  const loadBefore = loadavg()[0]!;
  const env = await startBenchEnvironment();
  try {
    const note = () =>
      `\n\nMeasured on its own by \`npm run bench -- ${name}\` on ${startedAt.toISOString().slice(0, 10)} (${cpus().length} cores, ` +
      `one-minute load ${loadBefore.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end), not in the run above.`;
    writeFileSync(REPORT, await run(env, note));
    console.log(`\n${name} section written to BENCHMARKS.md`);
  } catch (err) {
    console.error(err); // before the teardown, whose own errors could hide it
    throw err;
  } finally {
    await env.close();
  }
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = loadavg()[0]!;
  const env = await startBenchEnvironment();
  try {
    const { api, pages, actions } = await apiPart(env);
    const fleet = await benchFleet(env, {
      seconds: SECONDS,
      poolMax: POOL_MAX,
      signals: SIGNALS,
      apiNodeArgs: cpuProfile,
    });
    const events = await benchEvents(env, {
      ...EVENTS,
      seconds: SECONDS,
      poolMax: POOL_MAX,
      concurrency: CONCURRENCY,
      apiNodeArgs: cpuProfile,
    });

    const largeAccount = await benchLargeAccount(env, LARGE_ACCOUNT);
    const scans = await scanSizes(env);
    const fairness = await benchFairness(env, { ...FAIRNESS, concurrency: CONCURRENCY, poolMax: POOL_MAX });
    const attackPaths = benchAttackPaths();
    const report: BenchReport = {
      startedAt,
      minutes: (Date.now() - startedAt.getTime()) / 60_000,
      load: [loadBefore, loadavg()[0]!],
      machine: {
        cores: cpus().length,
        model: cpus()[0]?.model ?? 'unknown',
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        node: process.version,
      },
      settings: { seconds: SECONDS, apiAccounts: API_ACCOUNTS, concurrency: CONCURRENCY, poolMax: POOL_MAX },
      api,
      pages,
      actions,
      scans,
      largeAccount,
      fairness,
      fleet,
      events,
    };
    writeFileSync(REPORT, withSection(renderReport(report), ATTACK_PATHS_HEADING, attackPathsSection(attackPaths)));
    console.log('\nWritten to BENCHMARKS.md');
  } catch (err) {
    console.error(err); // before the teardown, whose own errors could hide it
    throw err;
  } finally {
    await env.close();
  }
}

const [part, ...extra] = process.argv.slice(2);
const run = part === undefined ? main : PARTS[part];
if (!run || extra.length > 0) {
  console.error(`usage: npm run bench [-- ${Object.keys(PARTS).join(' | ')}]`);
  process.exit(2);
}
run().then(
  () => process.exit(0),
  () => process.exit(1),
);
