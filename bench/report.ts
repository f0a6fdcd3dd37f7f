import type { BillableActions } from './actions';
import { CONNECTIONS, type ThroughputRow } from './api';
import { CALLS_BEFORE_CIS, type LargeAccountResult } from './large-account';
import type { CpuRoles } from './processes';
import type { ScanSizeResult } from './scans';

export interface BenchReport {
  startedAt: Date;
  minutes: number;
  /** One-minute load average before and after the run. */
  load: [number, number];
  machine: { cores: number; model: string; memoryGiB: number; node: string };
  settings: { seconds: number; apiAccounts: number; concurrency: number; poolMax: number };
  api: ThroughputRow[];
  pages: { count: number; page1Ms: number; page100Ms: number };
  actions: BillableActions;
  scans: ScanSizeResult[];
  largeAccount: LargeAccountResult;
}

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytes: number) => n(bytes / 2 ** 20);
const amount = (value: number) => n(value, value % 1 ? 1 : 0);
const cores = (cpu: CpuRoles, role: string) => (cpu[role] ?? 0).toFixed(2);

function apiSection(r: BenchReport): string {
  const { poolMax, apiAccounts } = r.settings;
  const base = r.api[0]!;
  const rows = r.api.map((row) => [
    row.name, n(row.requestsPerSecond), (row.requestsPerSecond / base.requestsPerSecond).toFixed(2), row.p50, row.p99, row.errors,
    cores(row.cpu, 'server'), cores(row.cpu, 'postgres'), cores(row.cpu, 'rest of machine'),
  ].join(' | '));
  return `## API throughput (autocannon, ${CONNECTIONS} connections, ${r.settings.seconds} s each)

The API process with \`DATABASE_POOL_MAX=${poolMax}\` and request logging off; its tenant has ${apiAccounts} accounts, which
\`GET /accounts\` lists; the signals endpoint returns a first page of 50. The baseline is a bare Express hello-world,
also in a process of its own. The last three columns are cores busy during each measurement: the server under load,
PostgreSQL, and everything on the machine this run did not start.

| endpoint | req/s | ratio to baseline | p50 ms | p99 ms | errors | server cores | PostgreSQL cores | rest of machine |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.map((row) => `| ${row} |`).join('\n')}

Where an authenticated request's time went in a profile taken on 2026-11-22 (not re-measured by each run; run with
\`BENCH_CPU_PROF=<dir>\` to write a \`node --cpu-prof\` profile of the API process under this load): the API process
is the bottleneck, one core fully busy (Node runs the requests on one thread) while PostgreSQL uses about a third of
a core, so a larger pool changes nothing (pools of 20 and 50 connections measured the same within the noise). Each
request makes two queries, the caller's user row (so a removed user is refused at once) and the listing. The pg
driver took about 45% of the busy time: sending the queries, decoding the rows and parsing their timestamps
(\`GET /accounts\` reads every column of 50 accounts, six timestamps each). Then garbage collection about 13%,
Express routing 12%, pino-http 5%, Kysely 4%, the JWT check 4%, our own code 5%. The JWT check was the largest single
item (about 30% of the busy time) until \`verifyIdToken\` passed jsonwebtoken a secret \`KeyObject\`: given a
string, jsonwebtoken first tries to parse it as a PEM public key, and that throws on every request. What would still
help: listing only the columns the summary shows, or paging \`GET /accounts\`.
`;
}

function scansSection(r: BenchReport): string {
  const { concurrency } = r.settings;
  const rows = r.scans.map((s) => [
    n(s.accounts), s.tenants, n(s.connectSeconds, 1), n(s.seconds, 1), `**${n(s.scansPerSecond, 1)}**`,
    mib(s.rss.idle), mib(s.rss.connected), mib(s.rss.median), `**${mib(s.rss.peak)}**`, mib(s.rss.after),
    `${s.unavailable.connect} / ${s.unavailable.verify}`,
  ].join(' | '));
  const cpuRows = r.scans.map((s) => [
    n(s.accounts), cores(s.cpu, 'temporal'), cores(s.cpu, 'worker'), cores(s.cpu, 'postgres'), cores(s.cpu, 'api'),
    cores(s.cpu, 'load generator'), cores(s.cpu, 'rest of machine'),
  ].join(' | '));
  return `## Scans and worker memory

For each size, a fresh API and worker process on a task queue of their own, so the worker holds that size's accounts
and no others. The accounts are connected with \`POST /accounts\` (Enterprise tenants of 250 accounts,
${concurrency} requests in flight), then all verified with \`POST /accounts/{id}/verify\` (${concurrency} in flight);
verification starts each account's first scan. Scans per second is the accounts divided by the seconds from the first
verification until every first scan succeeded (its results saved). The tenants are moved to a daily scan interval
before verification, so no routine scan runs among the first scans. Worker RSS is the worker process's VmRSS from
\`/proc\`, sampled every 250 ms: idle after start-up, with every account connected (each account's workflow started),
median and peak while verifying and scanning, and 5 s after the last first scan. The load generator behaves as the
API asks clients to: a 503 is retried after its \`Retry-After\`; the last column counts those answers (connect /
verify). Verification's activity shares the task queue with the scans' activities but goes ahead of them (task-queue
priority 1, see docs/operations.md): without that, once thousands of first scans are queued a verification waits behind them all
and the API answers 503 at its 60-second deadline.

| accounts | tenants | connect s | first scans s | scans/s | RSS idle MiB | connected MiB | scans median MiB | scans peak MiB | after MiB | 503s retried |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.map((row) => `| ${row} |`).join('\n')}

Cores busy while verifying and scanning, of ${r.machine.cores}:

| accounts | Temporal dev server | worker | PostgreSQL | API | load generator | rest of machine |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${cpuRows.map((row) => `| ${row} |`).join('\n')}

A scan with the sandbox provider does no network I/O, so these figures are the platform's overhead per scan: each
takes a verification Update, a child workflow, three activities and their workflow tasks through one Temporal
server and one worker, and a few writes to PostgreSQL. Against AWS a scan spends minutes waiting on AWS APIs
instead, and throughput is set by the worker's activity slots (100 by default). The worker keeps up to its sticky
cache size of workflows in memory (the SDK's default follows the worker's heap limit); an account's
workflow evicted from it is replayed from its history when it next has work.
`;
}

function largeAccountSection({ largeAccount: l }: BenchReport): string {
  const total = (scan: LargeAccountResult['scans'][number], key: 'calls' | 'minimum') => scan.calls.reduce((sum, c) => sum + c[key], 0);
  const scanRows = l.scans.map((scan, i) => [
    i === 0 ? 'first (verification)' : 'second (manual)', scan.seconds.toFixed(1), n(total(scan, 'calls')), n(total(scan, 'minimum')),
    (total(scan, 'calls') / total(scan, 'minimum')).toFixed(2), scan.costExplorer, `${scan.coverage.evaluated} / ${scan.coverage.total}`,
  ].join(' | '));
  const [first] = l.scans;
  const serviceRows = (first?.calls ?? []).map((c) => [
    c.service, n(CALLS_BEFORE_CIS[c.service] ?? 0), n(c.calls), n(c.minimum), c.minimum ? (c.calls / c.minimum).toFixed(2) : '-',
  ].join(' | '));
  const before = Object.values(CALLS_BEFORE_CIS).reduce((sum, calls) => sum + calls, 0);
  const after = first ? total(first, 'calls') : 0;
  return `## A large AWS account (moto)

One account seeded in moto, the AWS emulator the tests use: ${n(l.size.users)} IAM users (every other with an access key,
every twentieth an administrator), ${n(l.size.buckets)} buckets over 4 regions (one in a hundred public) and
${n(l.size.securityGroups)} security groups over its ${l.size.regions} enabled regions (one in a hundred with SSH open to
the internet). Seeding took ${n(l.seedSeconds)} s, moto's pace (\`BENCH_LARGE_USERS\`, \`BENCH_LARGE_BUCKETS\`,
\`BENCH_LARGE_GROUPS\` set the sizes). The account is connected and scanned twice through the real API and worker
processes with the AWS provider; every call goes through the tests' front to moto, which counts them. Wall time is
from the verify (or scan) request until the scan's row is saved.

| scan | wall s | calls | fewest the checks need | ratio | Cost Explorer calls | checks evaluated |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${scanRows.map((row) => `| ${row} |`).join('\n')}

Calls of the first scan by service, next to the fewest the checks need and to the same scan before the CIS AWS
Foundations collectors (2026-11-24): one list per part (per region for the regional ones), the credential report
(generated, then read), \`GetAccountAuthorizationDetails\`, one \`ListAccessKeys\` per user, and per bucket its region
(moto's \`ListBuckets\` does not give it; AWS's does, which saves one call a bucket), its Block Public Access, ACL and
policy (the policy status only for a bucket that has a policy). The CIS collectors took the first scan from
${n(before)} calls to ${n(after)} (${(after / before).toFixed(2)}×): they read per region, and share the calls already made
(security groups, instances, trails, IAM's authorization details, each bucket's policy).

| service | before the CIS checks | calls | fewest | ratio |
| --- | ---: | ---: | ---: | ---: |
${serviceRows.map((row) => `| ${row} |`).join('\n')}

The second scan reads no Cost Explorer: it reuses the first scan's answers (AWS bills each request to the customer;
see docs/decisions.md, "Plans"). Worker RSS: ${mib(l.rss.before)} MiB before the first scan, ${mib(l.rss.peak)} MiB at its peak during the scans (pages are
folded as they arrive: of the security groups only the internet-open ones are kept). Checks not evaluated here are
the ones moto cannot answer (AWS Health needs a Business support plan; its Cost Explorer has no costs, so the spend
spike has no complete day).
`;
}

function actionsSection(r: BenchReport): string {
  const { fromHistory, fromServer, perRoutineScan, perMonth } = r.actions;
  const byType = fromServer.byType.map(([type, count]) => `\`${type}\` ${amount(count)}`).join(', ');
  const months = perMonth.map((p) => `| ${p.plan} | ${p.interval} | ${n(p.actions)} |`);
  return `## Temporal billable actions

Per routine scan: **${amount(perRoutineScan)}**. The histories of a first scan show ${fromHistory.perScan}: the timer in the account
workflow that schedules it, the child workflow start, and the scan's ${fromHistory.activities} activities (recordScanStarted, runScan, and
evaluateAlerts, which fires the alert rules once the score is saved). The dev server's own \`action\` counter, over
${fromServer.scans} manual scans, counted ${amount(fromServer.perManualScan)} per scan: ${byType}.
It also counts runScan's heartbeat, which leaves no history event, and counts a child workflow start twice
(\`_Extra\`); a manual scan's Update takes the place of a routine scan's timer. With the sandbox, runScan heartbeats
once; against AWS it heartbeats every 10 seconds, which the SDK sends at most every 48 seconds (0.8 of the 1-minute
heartbeat timeout), so a scan of a few minutes adds a few. A scan whose alert rules fire adds a delivery workflow per alert (its
start and its activities); the benchmark's tenants have no rules. Verification (one Update, one activity, a search
attribute upsert) happens once per account and is not included. Per account-month (30 days) at each plan's interval:

| plan | scan interval (min) | actions / account-month |
| --- | ---: | ---: |
${months.join('\n')}
`;
}

export function renderReport(r: BenchReport): string {
  const { cores: coreCount, model, memoryGiB, node } = r.machine;
  const [loadBefore, loadAfter] = r.load.map((l) => l.toFixed(1));
  const { page1Ms, page100Ms } = r.pages;
  return `# Benchmarks

Written by \`npm run bench\` on ${r.startedAt.toISOString().slice(0, 10)} (the run took ${n(r.minutes, 1)} minutes).
Machine: ${coreCount} cores (${model}), ${memoryGiB} GiB, Node ${node}. Everything ran on this one machine: embedded
PostgreSQL, the Temporal dev server (in-memory), the API and the worker (sandbox provider) as processes of their own,
and the load generator. The machine is shared: the one-minute load average was ${loadBefore} at the start and ${loadAfter}
at the end, on ${coreCount} cores, and the "rest of machine" columns show how much CPU everything this run did not start
took during each measurement. Absolute numbers move from run to run; compare the ratios, which are measured in the
same run.

${apiSection(r)}
## Signals: keyset pagination

Page 1 vs page 100 (limit 50) of ${n(r.pages.count)} signals, mean of 50 requests each:
page 1 ${page1Ms.toFixed(2)} ms, page 100 ${page100Ms.toFixed(2)} ms, ratio ${(page100Ms / page1Ms).toFixed(2)}.

${scansSection(r)}
${largeAccountSection(r)}
${actionsSection(r)}`;
}
