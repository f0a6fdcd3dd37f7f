import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { benchApi, CONNECTIONS, type ThroughputRow } from './api';
import { startBenchEnvironment, tenantAuth } from './environment';
import { benchScans } from './scans';
import { benchSignalPages } from './signals';

// `npm run bench`: every figure comes from one run on this machine, next to a baseline measured in the same
// run, because the machines are shared and noisy: compare ratios over time, not absolute numbers.
// Results go to BENCHMARKS.md with the machine and the date.

const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 50);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 100_000);

async function main(): Promise<void> {
  const env = await startBenchEnvironment();
  try {
    const email = 'bench@example.com';
    const auth = await tenantAuth(env.url, email);
    const scans = await benchScans(env, { auth, tenantEmail: email, accounts: ACCOUNTS });
    const awsAccountId = '500000000000';
    const pages = await benchSignalPages(env, { auth, awsAccountId, count: SIGNALS, samples: 50 });
    const api = await benchApi(env, { seconds: SECONDS, auth, awsAccountId });
    writeReport({ api, pages, scans });
  } finally {
    await env.close();
  }
}

function writeReport({ api, pages, scans }: {
  api: ThroughputRow[];
  pages: Awaited<ReturnType<typeof benchSignalPages>>;
  scans: Awaited<ReturnType<typeof benchScans>>;
}): void {
  const base = api[0]!;
  const rows = api.map((r) =>
    `| ${r.name} | ${r.requestsPerSecond.toFixed(0)} | ${(r.requestsPerSecond / base.requestsPerSecond).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  const months = scans.perMonth.map((p) => `| ${p.plan} | ${p.interval} | ${p.actions.toLocaleString('en-US')} |`);
  const report = `# Benchmarks

Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}),
${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Everything ran in one process tree on this machine: embedded
PostgreSQL, the Temporal dev server, one worker with the sandbox provider, the API. Absolute numbers depend on the (shared)
machine; compare the ratios.

## API throughput (autocannon, ${CONNECTIONS} connections, ${SECONDS} s each)

| endpoint | req/s | ratio to baseline | p50 ms | p99 ms | errors |
| --- | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

## Signals: keyset pagination

Page 1 vs page 100 (limit 50) of ${pages.count.toLocaleString('en-US')} signals, mean of 50 requests each:
page 1 ${pages.page1Ms.toFixed(2)} ms, page 100 ${pages.page100Ms.toFixed(2)} ms, ratio ${(pages.page100Ms / pages.page1Ms).toFixed(2)}.

## Scans

${scans.accounts} sandbox accounts verified at once: their first scans completed in ${scans.seconds.toFixed(1)} s,
${scans.scansPerSecond.toFixed(1)} scans/s through one worker.

Temporal billable actions per routine scan: ${scans.actionsPerScan} (the timer that schedules it, the child workflow start,
and ${scans.childActions} activities in the scan, counted from the histories). Per account-month:

| plan | scan interval (min) | actions / account-month |
| --- | ---: | ---: |
${months.join('\n')}
`;
  writeFileSync(path.join(__dirname, '..', 'BENCHMARKS.md'), report);
  console.log('\nWritten to BENCHMARKS.md');
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
