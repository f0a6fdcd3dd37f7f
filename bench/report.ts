import { PLANS } from '../domain/tenancy/plans';
import { SCAN_RETENTION_DAYS } from '../domain/records/retention';
import type { BillableActions } from './actions';
import { type AlertLatency, type EventsResult, ingestCeilingPerSecond, WARM_UP_EVENTS } from './events';
import { HEARTBEAT_INTERVAL_MINUTES } from '../domain/events/forwarding-rules';
import type { FairnessResult } from './fairness';
import type { FleetResult, FleetTenantResult } from './fleet';
import { type ApiResult, CONNECTIONS, type ThroughputRow } from './api';
import { CALLS_BEFORE_CIS, type LargeAccountResult } from './large-account';
import { CALLS_GOAL, overGoal, PUBLIC_EVERY, RESOURCE_REGIONS } from './large-account-calls';
import type { CpuRoles } from './processes';
import type { ScanSizeResult } from './scans';
import { API_HEADING, withSection } from './sections';

export interface BenchReport {
  startedAt: Date;
  minutes: number;
  /** One-minute load average before and after the run. */
  load: [number, number];
  machine: { cores: number; model: string; memoryGiB: number; node: string };
  settings: { seconds: number; apiAccounts: number; concurrency: number; poolMax: number };
  api: ApiResult;
  pages: { count: number; page1Ms: number; page100Ms: number };
  actions: BillableActions;
  scans: ScanSizeResult[];
  largeAccount: LargeAccountResult;
  fairness: FairnessResult;
  fleet: FleetResult;
  events: EventsResult;
}

/**
 * The same benchmarks on this machine on 2026-11-24, before a scan became one activity of the account workflow
 * (each was a child workflow of three activities): the figures the design is compared with.
 */
export const BEFORE_SCAN_ACTIVITIES = {
  date: '2026-11-24',
  accounts: 1_000,
  scansPerSecond: 8.7,
  actionsPerRoutineScan: 6,
};

const n = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytes: number) => n(bytes / 2 ** 20);
const amount = (value: number) => n(value, value % 1 ? 1 : 0);
const cores = (cpu: CpuRoles, role: string) => (cpu[role] ?? 0).toFixed(2);
/** A throughput row's cells: its rate and its ratio to `base`, latencies, errors and the cores busy meanwhile. */
const throughputCells = (row: ThroughputRow, base: ThroughputRow) =>
  [
    row.name,
    n(row.requestsPerSecond),
    (row.requestsPerSecond / base.requestsPerSecond).toFixed(2),
    row.p50,
    row.p99,
    row.errors,
    cores(row.cpu, 'server'),
    cores(row.cpu, 'postgres'),
    cores(row.cpu, 'rest of machine'),
  ].join(' | ');

/** A goal of an issue, as the report states it next to the figures. */
const goal = (met: boolean) => (met ? 'met' : '**not met**');

const apiHeading = (seconds: number) => `${API_HEADING} (autocannon, ${CONNECTIONS} connections, ${seconds} s each)`;

/** The API part's section; `runNote` says when and where it ran when it ran apart from the rest of the report. */
export function apiSection(
  r: { api: ApiResult; settings: Pick<BenchReport['settings'], 'seconds' | 'poolMax' | 'apiAccounts'> },
  runNote = '',
): string {
  const { poolMax, apiAccounts, seconds } = r.settings;
  const base = r.api.saturated[0]!;
  const rows = r.api.saturated.map((row) => throughputCells(row, base));
  const reads = r.api.saturated.filter((row) => row.name.includes('(authenticated'));
  const ratioMet = reads.every((row) => row.requestsPerSecond / base.requestsPerSecond >= 0.4);
  const p99Met = reads.every((row) => row.p99 <= 25);
  return `${apiHeading(r.settings.seconds)}

The API process with \`DATABASE_POOL_MAX=${poolMax}\` and request logging off; its tenant has ${apiAccounts} accounts, which
\`GET /accounts\` lists; the signals endpoint returns a first page of 50. The baseline is a bare Express hello-world,
also in a process of its own; the second row is the same hello-world served as the API is. The last three columns
are cores busy during each measurement: the server under load,
PostgreSQL, and everything on the machine this run did not start.${runNote}

| endpoint | req/s | ratio to baseline | p50 ms | p99 ms | errors | server cores | PostgreSQL cores | rest of machine |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.map((row) => `| ${row} |`).join('\n')}

The goals for the three authenticated reads, at least 0.40 of the baseline: ${goal(ratioMet)}; a p99 of at most 25 ms at
${CONNECTIONS} connections: ${goal(p99Met)} (${reads.map((row) => `${row.p99} ms`).join(', ')}).

The three authenticated reads are answered from the API process's read cache (\`db/read-cache.ts\`): the caller, the
tenant \`GET /me\` shows, and the pages of \`GET /accounts\` and of an account's signals are kept until PostgreSQL
announces a change to them (triggers on the tables they come from, \`LISTEN\` in every API process; a caller's own
write through a process is forgotten there at once), and a kept page's JSON is written once, not per request. The first
request of a page, and every request while the process cannot listen, reads PostgreSQL as before: one statement whose
JSON PostgreSQL builds (\`sentinel_read_cache_lookups_total\` and \`sentinel_caller_cache_lookups_total\` show hits
and misses). The caller's session, though, is read from PostgreSQL on every authenticated request (\`isLiveSession\` in
\`api/middleware/auth.ts\`: a logout or a reused refresh token ends it on every API process before the next request,
which an announcement delivered after the commit could not promise): that one indexed lookup per request is the
PostgreSQL column of these rows. Before sessions were checked (the run of 2026-11-28, on Node 20), PostgreSQL was all
but idle here and these reads answered 1.25 to 1.51 times the first baseline.

The API runs as \`npm run start:api\` runs it in production, and so do both baselines. It is served by
\`api/http-server.ts\`, which creates each request and response with the prototypes Express gives them. Express
otherwise changes them per request with \`Object.setPrototypeOf\`, which on Node 20 kept every request's objects past
V8's young generation: in the run of 2026-11-28, on Node 20, the second baseline answered 3.12 times the first, and
before this server the API answered these reads at 0.60 to 0.70 of the first baseline. The service now runs on Node 24
(\`.node-version\`), where the two baselines' ratio is the table's.

The Temporal client carries each call's deadline and namespace header in an \`AsyncLocalStorage\`, which the client
enters on its first call. On Node 24 that storage is built on async context frames and runs no hook per promise, so
requests that do not call Temporal pay nothing for it. On Node 20 an entered one ran a hook for every promise the
process created, and the API kept it enabled only while a call to Temporal ran: in a profile with it left entered, the
hook took 3% of the API's busy time, and a handler with three awaits answered 12 to 20% more requests a second without
it.

A profile of the API process under this load (2026-11-28, on Node 20 and before the session check; run with \`BENCH_CPU_PROF=<dir>\` to write a
\`node --cpu-prof\` profile of it) puts a fifth of its busy time in writing the answers to the sockets (\`writev\`,
which on loopback includes the kernel's delivery to the load generator), about a sixth in Node's HTTP layer, a seventh
in Sentinel's own middleware and handlers (request id, metrics, token and caller, the cached answer), a twentieth in
Express's router, a tenth in garbage collection, and under 1% in the pg driver.

With 50 connections each sending its next request as soon as its answer arrives, the mean latency is 50 / throughput
whatever the server (Little's law), so the p99 above restates the throughput; on these two cores the load generator
and the server share the machine. The latency a caller sees under a given load is the next table's.

${steadySection(r.api.steady, seconds)}`;
}

/**
 * The latency at steady rates (bench/steady-load.ts). At full speed the p99 above restates the throughput: with
 * 50 connections always waiting, the mean latency is 50 / throughput, whatever the server.
 */
function steadySection(steady: ApiResult['steady'], seconds: number): string {
  const rates = [...new Set(steady.map((row) => row.rate))];
  const rows = steady.map((row) =>
    [
      row.name,
      n(row.rate),
      ms(row.p50),
      ms(row.p90),
      ms(row.p99),
      ms(row.max),
      row.errors,
      cores(row.cpu, 'server'),
      cores(row.cpu, 'rest of machine'),
    ].join(' | '),
  );
  return `### Latency at a steady load

The same endpoints at ${rates.map((rate) => n(rate)).join(' and ')} requests a second, ${seconds} s each: requests sent on a fixed
schedule whatever the server does, spread in turn over ${CONNECTIONS} keep-alive connections, one request at a time on each. A
latency runs from when its request was due, so a stall is charged to every request that queued behind it (autocannon
at full speed hides those requests, and its own rate mode bunches each second's requests together). The API is not
saturated here, so this is the latency a caller sees under that load rather than a restatement of the throughput.

| endpoint | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | server cores | rest of machine |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.map((row) => `| ${row} |`).join('\n')}

The median is a millisecond or two; the tail is made of pauses of the whole process: its garbage collections and, on
this shared virtual machine, moments it is not scheduled (\`nodejs_gc_duration_seconds\` and
\`nodejs_eventloop_lag_seconds\` show both in production).
`;
}

const FLEET_HEADING = '## Fleet: the portfolio reads';

/** The fleet part's section; `runNote` says when and where it ran when it ran apart from the rest of the report. */
export function fleetSection(f: FleetResult, settings: { seconds: number; poolMax: number }, runNote = ''): string {
  const [enterprise, agency] = f.tenants as [FleetTenantResult, FleetTenantResult];
  const base = enterprise.rows[0]!;
  const rows = f.tenants.flatMap((t) => t.rows.map((row) => throughputCells(row, base)));
  const reads = (t: FleetTenantResult) => t.rows.slice(1);
  const ratioMet = reads(enterprise).every((row) => row.requestsPerSecond >= 0.5 * base.requestsPerSecond);
  const tailMet = (t: FleetTenantResult, limit: number) => reads(t).every((row) => row.p99 <= limit);
  const tails = (t: FleetTenantResult) =>
    reads(t)
      .map((row) => `${row.p99} ms`)
      .join(', ');
  const seeded = (t: FleetTenantResult) =>
    `${n(t.accounts)} accounts and ${n(t.signals)} signals (seeded in ${n(t.seedSeconds, 1)} s; ${n(t.openSignals)} open and not accepted, as the overview counts them)`;
  return `${FLEET_HEADING}

Two tenants, each account with 30 days of score history and its share of the signals (detected over 90 days, one in
40 within the last day, a third resolved, one in 120 within the last day): an Enterprise tenant at its plan's limit,
${seeded(enterprise)}, and an agency on a custom plan ten times that, ${seeded(agency)}. \`GET /accounts\` answers its
first page, \`GET /overview\` the whole portfolio, \`GET /signals\` the first page of 50 across every account. The API
process with \`DATABASE_POOL_MAX=${settings.poolMax}\`, autocannon with ${CONNECTIONS} connections, ${settings.seconds} s
each; the ratios are to \`GET /accounts\` of the Enterprise tenant in the same run.${runNote}

| endpoint | req/s | ratio to GET /accounts | p50 ms | p99 ms | errors | server cores | PostgreSQL cores | rest of machine |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.map((row) => `| ${row} |`).join('\n')}

The goals: the overview and the cross-account signals of the Enterprise tenant at least 0.5 of its \`GET /accounts\`:
${goal(ratioMet)}, with a p99 of at most 50 ms: ${goal(tailMet(enterprise, 50))} (${tails(enterprise)}); the same for the
agency within 200 ms: ${goal(tailMet(agency, 200))} (${tails(agency)}).

The API process keeps each tenant's overview and pages of signals (\`db/read-cache.ts\`) until PostgreSQL announces a
change to what they show, so under this load they are read from the database once. That first read is the cost of a
change: the first overview after seeding took ${n(enterprise.firstOverviewMs)} ms for the Enterprise tenant and
${n(agency.firstOverviewMs)} ms for the agency. It reads the open signals as PostgreSQL keeps them counted per account,
severity and scenario (\`open_signal_counts\`, kept by triggers as signals are written), less the acceptances in force,
so its cost follows the number of accounts rather than the open signals; its five statements run at once on five
pool connections.
`;
}

/** BENCHMARKS.md with its fleet section replaced by `section` (or added before the scans' section). */
export const withFleetSection = (markdown: string, section: string): string =>
  withSection(markdown, FLEET_HEADING, section);

export const EVENTS_HEADING = '## Events: ingestion, and from an event to its alert';

const ms = (value: number) => n(value, value < 10 ? 1 : 0);

/** The events part's section; `runNote` says when and where it ran when it ran apart from the rest of the report. */
const alertRunName = (run: AlertLatency, sigmaRules = 0) =>
  run.heartbeats ? 'with heartbeats' : sigmaRules > 0 ? `with ${sigmaRules} Sigma rules` : 'events alone';

export function eventsSection(e: EventsResult, runNote = ''): string {
  const { alert: a, alertWithHeartbeats: h, alertWithSigma: g, sigmaRow } = e;
  const alertRuns: [AlertLatency, number][] = [
    [a, 0],
    [h, 0],
    [g, e.sigmaRules],
  ];
  const beats = h.heartbeats;
  const beatsRefused = Object.entries(beats?.refused ?? {})
    .map(([status, c]) => `${n(c)} answered ${status}`)
    .join(', ');
  const base = e.rows[0]!;
  const count = (row: ThroughputRow, match: (code: number) => boolean) =>
    Object.entries(row.statusCodes).reduce((sum, [code, c]) => sum + (match(Number(code)) ? c : 0), 0);
  const ingestionRows = [...e.rows.slice(0, 3), sigmaRow, ...e.rows.slice(3)];
  const rows = ingestionRows.map((row) => {
    const limited = count(row, (code) => code === 429);
    return [
      row.name,
      n(row.requestsPerSecond),
      (row.requestsPerSecond / base.requestsPerSecond).toFixed(2),
      row.p50,
      row.p99,
      n(count(row, (code) => code >= 200 && code < 300)),
      n(limited),
      n(row.errors - limited),
      cores(row.cpu, 'server'),
      cores(row.cpu, 'postgres'),
      cores(row.cpu, 'load generator'),
      cores(row.cpu, 'rest of machine'),
    ].join(' | ');
  });
  const ingestRows = e.rows.slice(2);
  const sent = ingestRows.reduce((sum, row) => sum + Object.values(row.statusCodes).reduce((s, c) => s + c, 0), 0);
  const limited = ingestRows.reduce((sum, row) => sum + count(row, (code) => code === 429), 0);
  const [stored, duplicate, ...steady] = ingestRows;
  const barePost = e.rows[1];
  const refused = Object.entries(a.refused)
    .map(([status, c]) => `${n(c)} answered ${status}`)
    .join(', ');
  const perAccountMinute = (a.rate / a.accounts) * 60;
  const other = (role: string) => cores(a.cpu, role);
  return `${EVENTS_HEADING}

\`POST /ingest/aws/events\` with one EventBridge envelope a request, as an API destination sends it, authenticated by the
account's key (\`X-Sentinel-Event-Key\`, from the \`event_forwarding\` of \`POST /accounts\`), through the API and worker
processes (\`DATABASE_POOL_MAX=${e.poolMax}\`, request logging off). One Enterprise tenant with ${n(e.accounts)} accounts connected through the API,
each with its own key. The endpoint allows ${n(ingestCeilingPerSecond(1) * 60)} events a minute per account (a fixed window per account, then 429),
so the load takes the accounts in turn: together they allow ${n(ingestCeilingPerSecond(e.accounts))} events a second over a minute.${runNote}

**From an event to its Slack alert.** ${n(a.events)} events from \`test/fixtures/aws-events/sg-open-ssh.json\`
(\`AuthorizeSecurityGroupIngress\` opening port 22 to 0.0.0.0/0), each with a fresh id and a security group of its own,
the resource of the signal its detection opens (\`event.security_group_admin_port_opened\`), so each opens a new HIGH
signal and fires the tenant's one alert rule (\`min_srs: 0\`, every scenario, one Slack incoming-webhook channel; an
unacknowledged alert silences nothing). Sent at ${n(a.rate)} a second on a schedule, not waiting for answers, over
${a.accounts} verified accounts in turn (${n(perAccountMinute)} events a minute each); the rule was created after their first
scans, so only the events alert. The latency runs from just before each POST until the Slack webhook, a loopback
server in the benchmark, receives the message naming the event's security group: the request's transaction (event,
signal, batch) and its answer, then, in the same API process, the alert rule fired, the delivery workflow started and
that workflow's activity's POST to Slack. Every event's alert must arrive; the benchmark waits ${a.timeoutSeconds} s after the last event.
Before the runs, ${WARM_UP_EVENTS} events over ${a.accounts} accounts of their own warm the processes up (their alerts awaited, not
counted): the first alerts compile the code they run, which would otherwise fall on the first run's tail alone.

| run | heartbeats sent | events sent | signals opened | alerts arrived | p50 ms | p95 ms | p99 ms | max ms | POST 202 p50 ms | POST 202 p99 ms | API cores | PostgreSQL cores |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${alertRuns
  .map(
    ([run, rules]) =>
      `| ${alertRunName(run, rules)} | ${n(run.heartbeats?.sent ?? 0)} | ${n(run.events)} | ${n(run.opened)} | ${n(run.arrived)} | ${ms(run.latencyMs.p50)} | **${ms(run.latencyMs.p95)}** | ${ms(run.latencyMs.p99)} | ${ms(run.latencyMs.max)} | ${ms(run.postMs.p50)} | ${ms(run.postMs.p99)} | ${cores(run.cpu, 'server')} | ${cores(run.cpu, 'postgres')} |`,
  )
  .join('\n')}

Where each alert's time went, from the timestamps the service writes: the request's arrival (its batch's \`received_at\`),
the alert rule fired after the answer (\`fired_at\`), the delivery claimed by its workflow's activity (its attempt's
\`attempted_at\`: the workflow started, its task and its activity's scheduled) and the message sent (\`delivered_at\`); p50 / p95 in ms.

| run | arrival to rule fired | rule fired to delivery claimed | claimed to sent |
| --- | ---: | ---: | ---: |
${alertRuns
  .map(([run, rules]) => {
    const step = (p: { p50: number; p95: number }) => `${ms(p.p50)} / ${ms(p.p95)}`;
    const { toFired, toClaimed, toDelivered } = run.stages;
    return `| ${alertRunName(run, rules)} | ${step(toFired)} | ${step(toClaimed)} | ${step(toDelivered)} |`;
  })
  .join('\n')}

${refused ? `Not opened: ${refused}. ` : ''}The webhook received ${n(a.slackMessages)} messages in the first run. Cores busy from the first event to the
last alert of the first run: API ${other('server')}, worker ${other('worker')}, PostgreSQL ${other('postgres')}, Temporal ${other('temporal')},
the rest of the machine ${other('rest of machine')}. The goal, p95 at most 5 s: ${goal(a.arrived === a.events && a.latencyMs.p95 <= 5000)}.

**With the forwarders' heartbeats.** The same events again, over ${h.accounts} other verified accounts (so that no
account's open signals from the first run weigh on its rescoring), while every one of the ${n(e.accounts)}
accounts' forwarders sends its heartbeat (\`sentinel-heartbeat\`, a Scheduled Event) from each of the 17 regions every
AWS account has enabled, once every ${HEARTBEAT_INTERVAL_MINUTES} minutes: ${n(beats?.forwarders ?? 0)} forwarders, ${(beats?.rate ?? 0).toFixed(1)} heartbeats a second,
spread evenly as rules created at different times fire. ${beatsRefused ? `Heartbeats refused: ${beatsRefused}. ` : 'Every heartbeat was answered 202. '}The goals, p95 at most
5 s and within 1.2 times the run without heartbeats: ${goal(h.arrived === h.events && h.latencyMs.p95 <= 5000)} and ${goal(h.latencyMs.p95 <= 1.2 * a.latencyMs.p95)} (${(h.latencyMs.p95 / Math.max(1, a.latencyMs.p95)).toFixed(2)} times).

**With the tenant's Sigma rules.** The same events again, over ${g.accounts} other verified accounts, once the tenant has
${e.sigmaRules} Sigma rules of its own (\`POST /detections\`: SigmaHQ's AWS CloudTrail rules of \`test/fixtures/sigma\` that
Sentinel runs, uploaded in turn until there are ${e.sigmaRules}), which ingestion runs on every event beside the built-in detections; none matches these events, so each
rule runs to its end. The goals, p95 at most 5 s and under 300 ms: ${goal(g.arrived === g.events && g.latencyMs.p95 <= 5000)} and ${goal(g.latencyMs.p95 < 300)} (p95 ${ms(g.latencyMs.p95)} ms, ${(g.latencyMs.p95 / Math.max(1, a.latencyMs.p95)).toFixed(2)} times the run without them).

**Ingestion.** Events from \`sg-open-https.json\` (port 443 open to the internet: no detection, so each request stores
its event and involves no workflow), a fresh id each request; autocannon with ${CONNECTIONS} connections, ${e.seconds} s each, each
request with the next account's key. The duplicate row sends each account's one event, delivered once before, again
(202, \`duplicates: 1\`). The last rows hold autocannon to ${e.steadyRates.map((rate) => n(rate)).join(' and ')} requests a second, below what
the API sustains, for the latency of a 202 at a steady load: one connection per 50 requests a second (autocannon paces
each connection on a timer of its own, all started together, so 50 connections at 50 requests a second would send
them 50 at once). The worker is stopped meanwhile (the ${4 * a.accounts} verified
accounts' debounced rescans would otherwise run). The accounts other than those ${4 * a.accounts} are not verified (PENDING):
ingestion takes the events of any account not disconnected, and an event without a detection is stored alike. The
baseline is the bare Express hello-world of the API part (GET), also in a process of its own; its POST route parses the
same events as JSON and answers 202. The ingestion rows sent ${n(sent)} requests, at most ${n(Math.ceil(sent / e.accounts) + 4)} per
account over about a minute, under the limit: ${limited === 0 ? 'no request was refused with 429' : `**${n(limited)} were refused with 429**`}.
Of the new events answered 202, ${n(e.stored.answered)}, ${n(e.stored.stored)} are stored (autocannon stops counting at the
deadline with requests still in flight). The row with ${e.sigmaRules} Sigma rules is the stored row again, measured right
after it with the tenant's rules enabled (they are disabled for the others): ${n(sigmaRow.requestsPerSecond)} req/s, ${(sigmaRow.requestsPerSecond / Math.max(1, stored?.requestsPerSecond ?? 1)).toFixed(2)} times the row
without them, p99 ${sigmaRow.p99} ms. The goal, within 0.8 times: ${goal(sigmaRow.requestsPerSecond >= 0.8 * (stored?.requestsPerSecond ?? Number.POSITIVE_INFINITY))}.

| endpoint | req/s | ratio to bare GET | p50 ms | p99 ms | 2xx | 429 | other errors | server cores | PostgreSQL cores | load generator cores | rest of machine |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.map((row) => `| ${row} |`).join('\n')}

The goal, a 202 within 20 ms at p99: ${
    steady.length > 0
      ? steady
          .map((row, i) => `${goal(row.p99 <= 20)} at ${n(e.steadyRates[i]!)} requests a second (p99 ${row.p99} ms)`)
          .join(', ')
      : 'not measured'
  }${
    stored
      ? `; with ${CONNECTIONS} connections as fast as the API answers, p99 ${stored.p99} ms (${n(stored.requestsPerSecond)} req/s)`
      : ''
  }${duplicate ? `, duplicates p99 ${duplicate.p99} ms` : ''}.
${
  stored && barePost
    ? `The goals of fleet ingestion (2026-12): new events at least 0.5 of the bare POST in the same run: ${goal(stored.requestsPerSecond >= 0.5 * barePost.requestsPerSecond)} (${(stored.requestsPerSecond / barePost.requestsPerSecond).toFixed(2)}); a p99 of at most 50 ms at ${CONNECTIONS} connections: ${goal(stored.p99 <= 50)} (${stored.p99} ms).
Requests that set off nothing are committed in groups (\`core/events/group-commit.ts\`), and the event key's account and
the tenant's Sigma rules are read once for the requests of the moment (\`core/batched-reads.ts\`): before either, the
same row was 302 req/s (0.04 of the bare POST), p99 343 ms.
`
    : ''
}`;
}

export const SCANS_HEADING = '## Scans and worker memory';

/** The scans part's section; `runNote` says when and where it ran when it ran apart from the rest of the report. */
export function scansSection(
  r: Pick<BenchReport, 'scans'> & { machine: { cores: number }; settings: { concurrency: number } },
  runNote = '',
): string {
  const { concurrency } = r.settings;
  const rows = r.scans.map((s) =>
    [
      n(s.accounts),
      s.tenants,
      n(s.connectSeconds, 1),
      n(s.seconds, 1),
      `**${n(s.scansPerSecond, 1)}**`,
      mib(s.rss.idle),
      mib(s.rss.connected),
      mib(s.rss.median),
      `**${mib(s.rss.peak)}**`,
      mib(s.rss.after),
      `${s.unavailable.connect} / ${s.unavailable.verify}`,
    ].join(' | '),
  );
  const cpuRows = r.scans.map((s) =>
    [
      n(s.accounts),
      cores(s.cpu, 'temporal'),
      cores(s.cpu, 'worker'),
      cores(s.cpu, 'postgres'),
      cores(s.cpu, 'api'),
      cores(s.cpu, 'load generator'),
      cores(s.cpu, 'rest of machine'),
    ].join(' | '),
  );
  const v8Rows = r.scans.flatMap((s) =>
    s.v8
      ? [
          [
            n(s.accounts),
            mib(s.rss.after),
            mib(s.v8.heapTotal),
            mib(s.v8.heapUsed),
            mib(s.v8.external),
            mib(Math.max(0, s.rss.after - s.v8.heapTotal - s.v8.external)),
          ].join(' | '),
        ]
      : [],
  );
  const v8Table =
    v8Rows.length === 0
      ? ''
      : `
Where the worker's memory is 5 s after the last first scan: the main thread's V8 heap (reserved, and in use then,
garbage included), where the activities run, and the memory it tracks outside the heap (buffers), from the worker's
own metrics. The rest of its RSS is what those metrics do not see: the heaps of the workflow threads (the Temporal SDK
runs workflows in worker threads, each with a V8 heap of its own, where every cached account workflow lives), the
Temporal core SDK's native state of each cached workflow, and the allocator's.

| accounts | RSS after MiB | main heap MiB | of it in use MiB | main external MiB | the rest MiB |
| ---: | ---: | ---: | ---: | ---: | ---: |
${v8Rows.map((row) => `| ${row} |`).join('\n')}
`;
  const small = r.scans.find((s) => s.accounts === 1_000);
  const large = r.scans.find((s) => s.accounts === 10_000);
  const goals =
    small && large
      ? `
The goals of a worker holding 10,000 accounts (2026-12): scans per second at least 0.9 of the figure at 1,000:
${goal(large.scansPerSecond >= 0.9 * small.scansPerSecond)} (${(large.scansPerSecond / small.scansPerSecond).toFixed(3)}); its peak RSS at most 1.5 GiB: ${goal(large.rss.peak <= 1.5 * 2 ** 30)} (${mib(large.rss.peak)} MiB).
`
      : '';
  return `${SCANS_HEADING}

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
${v8Table}${goals}${beforeComparison(r)}
A scan with the sandbox provider does no network I/O, so these figures are the platform's overhead per scan: each
takes a verification Update and its activity, the scan's activity and their workflow tasks through one Temporal server and one worker
(which loads the prebuilt workflow bundle), and a few writes to PostgreSQL. Against AWS a scan spends minutes waiting
on AWS APIs instead, and throughput is set by the worker's activity slots (100 by default, up to 500 with
\`TEMPORAL_WORKER_SLOTS=resource-based\`). The worker keeps up to \`TEMPORAL_MAX_CACHED_WORKFLOWS\` (10,000) workflows in
its sticky cache, one per account it holds; an account's workflow evicted from it is replayed from its history when it
next has work.${runNote}
`;
}

function beforeComparison(r: Pick<BenchReport, 'scans'>): string {
  const same = r.scans.find((s) => s.accounts === BEFORE_SCAN_ACTIVITIES.accounts);
  if (!same) return '';
  return `
Against the design before (each scan a child workflow of three activities), measured with the same benchmark on
this machine on ${BEFORE_SCAN_ACTIVITIES.date} (not in this run: that design no longer runs; the machine's load then
was 2.2 to 4.1): ${n(BEFORE_SCAN_ACTIVITIES.accounts)} accounts at ${BEFORE_SCAN_ACTIVITIES.scansPerSecond} scans/s, now
${n(same.scansPerSecond, 1)}, **${(same.scansPerSecond / BEFORE_SCAN_ACTIVITIES.scansPerSecond).toFixed(1)}×**.
`;
}

const weight = (plan: string) => PLANS.find((p) => p.id === plan)?.fairness_weight;

function fairnessSection({ fairness: f }: BenchReport): string {
  const rows = f.runs.map((run) =>
    [
      run.fairness ? 'tenant fairness keys (default)' : 'none (first-in first-out)',
      n(run.backlog),
      n(run.p50 / 1000, 1),
      n(run.p95 / 1000, 1),
      `**${n(run.max / 1000, 1)}**`,
      run.unavailable,
    ].join(' | '),
  );
  const [off, on] = [f.runs.find((r) => !r.fairness), f.runs.find((r) => r.fairness)];
  const ratio =
    off && on && on.max > 0 ? `\nWith the keys, tenant B's longest wait is ${n(off.max / on.max, 0)}× shorter.\n` : '';
  return `## Fairness: one tenant's backlog and another tenant's scans

Two tenants on one task queue and one worker, the dev server with task-queue fairness enabled (as production needs
it, docs/operations.md, "Fairness"). Tenant A (${f.plans.a}, weight ${weight(f.plans.a)}) has ${n(f.backlogAccounts)} accounts whose scans all fall
due while no worker runs, as after a worker outage (more accounts than a plan allows: its ACTIVE rows are inserted and
its workflows started as a connect does, carrying a due scan as a workflow that continued as new would). A worker
starts and queues them; tenant B (${f.plans.b}, weight ${weight(f.plans.b)}) then asks for a manual scan of each of its ${f.samples}
accounts, one every 250 ms. The figure is B's wait from the request until its scan started (runScan recorded it). Run
twice in this run, with a fresh API and worker each: without fairness keys (\`TEMPORAL_FAIRNESS=false\`) and with
them. The backlog column is A's scans not started when B asked. With the sandbox a scan takes milliseconds, so the
worker's 100 activity slots are seldom full and what waits is A's workflow tasks, each of which queues its scan;
against AWS a scan holds its slot for minutes and the scans' activities wait too. Both carry the tenant's key. B's wait counts from its first request: a request
the API answered 503 (its account's workflow did not take the scan within the 5-second deadline, its task queued
behind A's) was retried after its \`Retry-After\`, as a client does. B's requests go one after another, so without
the keys the first waits out A's backlog and the ones after it find the queue drained: the longest wait is the
figure to compare, the percentiles show how B fared once A's backlog was gone.

| fairness keys | A's scans waiting | B p50 s | B p95 s | B max s | B's 503s retried |
| --- | ---: | ---: | ---: | ---: | ---: |
${rows.map((row) => `| ${row} |`).join('\n')}
${ratio}
`;
}

/**
 * A paper estimate for a million accounts, from this run's figures per scan and an assumed mix of plans (accounts,
 * not tenants: enterprise and agency tenants hold most accounts).
 */
const MILLION_MIX: Record<string, number> = { solo: 0.05, team: 0.2, agency: 0.35, enterprise: 0.4 };
const ASSUMED_AWS_SCAN_SECONDS = 60;

function millionSection(r: BenchReport): string {
  const accounts = 1_000_000;
  const byPlan = PLANS.map((p) => {
    const share = MILLION_MIX[p.id] ?? 0;
    return {
      plan: p.id,
      accounts: accounts * share,
      interval: p.scan_interval_minutes,
      scansPerSecond: (accounts * share) / (p.scan_interval_minutes * 60),
    };
  });
  const scansPerSecond = byPlan.reduce((sum, p) => sum + p.scansPerSecond, 0);
  const { perRoutineScan, workflowTasksPerScan, rowsWrittenPerScan, scanRowBytes } = r.actions;
  const month = 30 * 24 * 3600;
  const scanDays = SCAN_RETENTION_DAYS;
  const scanStorage = scansPerSecond * scanDays * 24 * 3600 * scanRowBytes;
  const sized = r.scans.at(-1);
  const workerCoresPerScan = sized ? (sized.cpu.worker ?? 0) / sized.scansPerSecond : 0;
  const temporalCoresPerScan = sized ? (sized.cpu.temporal ?? 0) / sized.scansPerSecond : 0;
  const slotWorkers = Math.ceil((scansPerSecond * ASSUMED_AWS_SCAN_SECONDS) / 500);
  const tb = (bytes: number) => n(bytes / 1e12, 1);
  const planRows = byPlan.map((p) => `| ${p.plan} | ${n(p.accounts)} | ${p.interval} | ${n(p.scansPerSecond, 1)} |`);
  return `## A million accounts: a paper estimate

From this run's figures per scan, for 1,000,000 connected accounts in an assumed mix of plans (by accounts):

| plan | accounts | scan interval (min) | scans/s |
| --- | ---: | ---: | ---: |
${planRows.join('\n')}

- **Scans**: ${n(scansPerSecond)} routine scans/s (manual scans are capped per plan and add at most a few percent).
- **Temporal**: ${n(scansPerSecond * perRoutineScan)} billable actions/s (${amount(perRoutineScan)} per routine scan), about
  ${n((scansPerSecond * perRoutineScan * month) / 1e9, 1)} billion a month; ${n(scansPerSecond * workflowTasksPerScan)} workflow tasks/s
  (${workflowTasksPerScan} per scan). The dev server here used ${n(temporalCoresPerScan * 1000, 0)} millicores per scan/s: a
  production cluster needs its history and matching services sized for that rate, with the task queue's partitions
  raised (fairness holds per partition).
- **PostgreSQL**: about ${n(scansPerSecond * rowsWrittenPerScan)} rows written/s (${rowsWrittenPerScan} per scan measured on
  manual scans, including their two rate-limit counters; a routine scan that changes no finding writes fewer). The
  scan rows dominate storage: ${n(scanRowBytes)} bytes each (their check outcomes included) kept ${scanDays} days
  (domain/records/retention.ts) is about **${tb(scanStorage)} TB** at steady state, growing ${tb(scansPerSecond * month * scanRowBytes)} TB a
  month until retention catches up. Signals, score history (one point a day per account) and deliveries are small
  next to it. At this scale the check outcomes of all but each account's latest scans (or of all but one scan a day)
  would have to go sooner: that is the lever.
- **Workers**: the worker here spent ${n(workerCoresPerScan * 1000, 0)} millicores per scan/s of platform overhead (sandbox scans,
  no AWS I/O), so ${n(Math.ceil(scansPerSecond * workerCoresPerScan))} cores for ${n(scansPerSecond)} scans/s; against AWS a scan waits
  on AWS for minutes: at an assumed ${ASSUMED_AWS_SCAN_SECONDS} s per scan and 500 activity slots a worker
  (\`TEMPORAL_WORKER_SLOTS=resource-based\`), ${n(slotWorkers)} workers by concurrency, each holding about
  ${n(Math.ceil(accounts / slotWorkers))} cached account workflows (set \`TEMPORAL_MAX_CACHED_WORKFLOWS\` to match). The
  collection's own CPU (parsing AWS's answers) is not in these figures: measure it on real accounts before sizing.
`;
}

export const LARGE_ACCOUNT_HEADING = '## A large AWS account (moto)';

/** The large account's section; `runNote` says when and where it ran when it ran apart from the rest of the report. */
export function largeAccountSection(l: LargeAccountResult, runNote = ''): string {
  const total = (scan: LargeAccountResult['scans'][number], key: 'calls' | 'minimum') =>
    scan.calls.reduce((sum, c) => sum + c[key], 0);
  const scanRows = l.scans.map((scan, i) =>
    [
      i === 0 ? 'first (verification)' : 'second (manual)',
      scan.seconds.toFixed(1),
      n(total(scan, 'calls')),
      n(total(scan, 'minimum')),
      (total(scan, 'calls') / total(scan, 'minimum')).toFixed(2),
      scan.costExplorer,
      `${scan.coverage.evaluated} / ${scan.coverage.total}`,
    ].join(' | '),
  );
  const [first] = l.scans;
  const serviceRows = (first?.calls ?? []).map((c) =>
    [
      c.service,
      n(CALLS_BEFORE_CIS[c.service] ?? 0),
      n(c.calls),
      n(c.retries),
      n(c.minimum),
      c.minimum ? (c.calls / c.minimum).toFixed(2) : '-',
      overGoal(c)
        ? `**over ${CALLS_GOAL}×**: ${c.operations
            .slice(0, 3)
            .map(([op, count]) => `\`${op}\` ${n(count)}`)
            .join(', ')}`
        : '',
    ].join(' | '),
  );
  const over = (first?.calls ?? []).filter(overGoal).length;
  const before = Object.values(CALLS_BEFORE_CIS).reduce((sum, calls) => sum + calls, 0);
  const after = first ? total(first, 'calls') : 0;
  const s = l.size;
  return `${LARGE_ACCOUNT_HEADING}

One account seeded in moto, the AWS emulator the tests use: ${n(s.users)} IAM users (every other with an access key,
every twentieth an administrator), ${n(s.buckets)} buckets over 4 regions (one in a hundred public) and
${n(s.securityGroups)} security groups over its ${s.regions} enabled regions (one in a hundred with SSH open to
the internet); over the first ${RESOURCE_REGIONS} regions ${n(s.functions)} Lambda functions (environment variables, a small code
package), ${n(s.queues)} SQS queues, ${n(s.topics)} SNS topics, ${n(s.snapshots)} EBS snapshots, ${n(s.secrets)} secrets, ${n(s.repositories)} ECR
repositories, ${n(s.documents)} SSM documents (one in ${PUBLIC_EVERY} of each of these public or shared with everyone) and ${n(s.keys)}
customer managed KMS keys. Seeding took ${n(l.seedSeconds)} s, moto's pace (\`BENCH_LARGE_USERS\`, \`BENCH_LARGE_BUCKETS\`,
\`BENCH_LARGE_GROUPS\`, \`BENCH_LARGE_FUNCTIONS\` and the others in docs/operations.md set the sizes). The account is
connected and scanned twice through the real API and worker processes with the AWS provider; every call goes through
the tests' front to moto, which counts them. Wall time is from the verify (or scan) request until the scan's row is
saved.

| scan | wall s | calls | fewest the checks need | ratio | Cost Explorer calls | checks evaluated |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${scanRows.map((row) => `| ${row} |`).join('\n')}

Calls of the first scan by service, next to the fewest the checks need (\`minimumCalls\` in bench/large-account.ts
says what each count is: one list per part and enabled region, as many pages as the API's largest page needs, and
the per-resource calls the checks read) and to the same scan before the CIS AWS Foundations collectors
(2026-11-24). CloudTrail's count is mostly the threat checks' \`LookupEvents\`, one per API name and region by
design. ${over} of ${first?.calls.length ?? 0} services exceed ${CALLS_GOAL}× the fewest without the SDK's retries of calls moto failed
(their busiest operations named); the ratio counts the retries too. The first scan
of 2026-11-24 made ${n(before)} calls at the default sizes of that day (500 users, 2,000 buckets, 10,000 security
groups; compare at those sizes only); this one made ${n(after)}. The code packages the functions' GetFunction points to are downloaded from S3's
presigned URLs, not counted as calls: ${n(first?.codeDownloads ?? 0)} in the first scan. moto ignores DescribeSnapshots'
\`RestorableByUserIds\` (it answers every snapshot the account owns), so the scan confirms every snapshot's
\`createVolumePermission\` with \`DescribeSnapshotAttribute\`, where AWS names only the public candidates: EC2's calls
over the fewest are these.

| service | before the CIS checks | calls | of which retries | fewest | ratio | over the goal |
| --- | ---: | ---: | ---: | ---: | ---: | --- |
${serviceRows.map((row) => `| ${row} |`).join('\n')}

The second scan reads no Cost Explorer: it reuses the first scan's answers (AWS bills each request to the customer;
see docs/decisions.md, "Plans"). Worker RSS: ${mib(l.rss.before)} MiB before the first scan, ${mib(l.rss.peak)} MiB at its peak during the scans${
    l.v8
      ? `, of which the main thread's V8 heap (where the scan's activity runs) used at most ${mib(l.v8.heapUsed)} MiB of ${mib(l.v8.heapTotal)} MiB reserved, and ${mib(l.v8.external)} MiB outside it (buffers)`
      : ''
  } (pages are
folded as they arrive: of the security groups only the internet-open ones are kept). Checks not evaluated here are
the ones moto cannot answer (AWS Health needs a Business support plan; its Cost Explorer has no costs, so the spend
spike has no complete day).

The goals of the scan's breadth (2026-12): the first scan within 2× the 45.8 s of 2026-11-24 (65 checks then):
${goal((l.scans[0]?.seconds ?? Number.POSITIVE_INFINITY) <= 2 * 45.8)} (${(l.scans[0]?.seconds ?? 0).toFixed(1)} s, ${((l.scans[0]?.seconds ?? 0) / 45.8).toFixed(2)}×; the account also holds the new
services' resources, and moto answers one call at a time); worker memory at the peak under 1 GiB:
${goal(l.rss.peak < 1024 * 1024 * 1024)} (${mib(l.rss.peak)} MiB).${runNote}
`;
}

function actionsSection(r: BenchReport): string {
  const { fromHistory, fromServer, perRoutineScan, perMonth } = r.actions;
  const byType = fromServer.byType.map(([type, count]) => `\`${type}\` ${amount(count)}`).join(', ');
  const months = perMonth.map((p) => `| ${p.plan} | ${p.interval} | ${n(p.actions)} |`);
  return `## Temporal billable actions

Per routine scan: **${amount(perRoutineScan)}** (${BEFORE_SCAN_ACTIVITIES.actionsPerRoutineScan} when each scan was a child workflow of three activities,
${BEFORE_SCAN_ACTIVITIES.date}). The account workflow's history of a first scan shows ${fromHistory.perScan}: the timer that schedules a
routine scan and the scan's ${fromHistory.activities === 1 ? 'activity' : `${fromHistory.activities} activities`} (runScan, which records the scan, collects, evaluates and saves it, and fires the
alert rules). The dev server's own \`action\` counter, over
${fromServer.scans} manual scans, counted ${amount(fromServer.perManualScan)} per scan: ${byType}; a manual scan's Update takes
the place of a routine scan's timer. The counter would also count runScan's heartbeats, which leave no history event:
runScan sends none in its first 10 seconds, so a sandbox scan sends none; against AWS it heartbeats every 10 seconds,
which the SDK sends at most every 48 seconds (0.8 of the 1-minute heartbeat timeout), so a scan of a few minutes adds
a few. A scan whose alert rules fire adds a delivery workflow per alert (its start and its activities); the
benchmark's tenants have no rules. Verification (one Update, one activity, a search attribute upsert) happens once
per account and is not included. Per account-month (30 days) at each plan's interval:

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

${fleetSection(r.fleet, r.settings)}
${eventsSection(r.events)}
${scansSection(r)}
${fairnessSection(r)}
${largeAccountSection(r.largeAccount)}
${actionsSection(r)}
${millionSection(r)}`;
}
