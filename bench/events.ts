import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type autocannon from 'autocannon';
import { sql } from 'kysely';
import {
  EVENT_API_KEY_HEADER,
  EVENT_INGEST_PATH,
  HEARTBEAT_INTERVAL_MINUTES,
  HEARTBEAT_RULE_NAME,
  SCHEDULED_EVENT,
  SCHEDULED_EVENT_SOURCE,
} from '../domain/events/forwarding-rules';
import type { Db } from '../db/client';
import { compileSigmaYaml } from '../core/detections/sigma-yaml';
import { EVENTS_PER_ACCOUNT_PER_MINUTE } from '../domain/tenancy/limits';
import { freePort } from '../scripts/local-services';
import { connectAccounts, signUpTenants, verifyAccounts } from './accounts';
import { measure, type ThroughputRow } from './api';
import type { BenchEnvironment } from './environment';
import { type CpuRoles, cpuMeter, startHelloWorld } from './processes';
import { firstScansDone } from './scans';

// The account's EventBridge events (POST /ingest/aws/events), through the real API and worker processes, as the
// customer's API destination sends them: one envelope a request, authenticated by the account's event key.
// - Event to alert: events that each open a new signal, sent at a steady rate; the tenant's alert rule delivers to a
//   Slack incoming webhook that is a loopback server here, which notes when each event's alert arrives.
// - The same again with the forwarders' heartbeats on top: every account's scheduled rule in each of the 17 default
//   regions sends a Scheduled Event every HEARTBEAT_INTERVAL_MINUTES, spread over the interval as EventBridge spreads
//   rules created at different times; the alerts' latency is compared with the run without them.
// - Ingestion: events that set off no detection (only stored), under autocannon's load, and the same events
//   delivered again (duplicates), next to a bare Express server measured in the same run.
// The endpoint allows EVENTS_PER_ACCOUNT_PER_MINUTE events per account (a fixed window per account): the load is
// spread over an Enterprise tenant's 250 accounts, each with its own key, so the service's own limit is never what
// is measured; answers other than 202 (429 included) are counted.

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface AlertLatency {
  /** Accounts the events were spread over (verified: ACTIVE, as a forwarding customer's are). */
  accounts: number;
  events: number;
  /** Events sent a second (all accounts together). */
  rate: number;
  /** Events whose POST answered 202 with one signal opened. */
  opened: number;
  /** Of those, the ones whose alert reached the Slack webhook before the deadline. */
  arrived: number;
  /** POSTs that did not answer 202 with one signal opened, by status. */
  refused: Record<string, number>;
  /** From just before the POST until the Slack webhook received the alert naming the event's security group, ms. */
  latencyMs: Percentiles;
  /** The POST's own answer (202), ms. */
  postMs: Percentiles;
  /** Where each delivered alert's time went, from the rows the service wrote (alertStages). */
  stages: AlertStages;
  /** Requests the Slack webhook received during the run (one alert a message here). */
  slackMessages: number;
  timeoutSeconds: number;
  /** Cores busy from the first event until the last alert arrived. */
  cpu: CpuRoles;
  /** The heartbeats sent meanwhile; none in the run without them. */
  heartbeats: HeartbeatTraffic | null;
}

/**
 * The steps of an event's alert, each from the timestamps the service writes: the request's arrival (the batch's
 * `received_at`) to the alert rule firing (`fired_at`, after the answer), to the delivery's activity claiming it
 * (its attempt's `attempted_at`: the delivery workflow started and its activity scheduled), to the message sent
 * (`delivered_at`).
 */
export interface AlertStages {
  toFired: Percentiles;
  toClaimed: Percentiles;
  toDelivered: Percentiles;
}

export interface HeartbeatTraffic {
  /** Accounts x regions each sending one heartbeat every HEARTBEAT_INTERVAL_MINUTES. */
  forwarders: number;
  /** Heartbeats a second (all forwarders together). */
  rate: number;
  sent: number;
  /** Heartbeats answered other than 202, by status. */
  refused: Record<string, number>;
}

export interface EventsResult {
  /** The tenant's accounts, each with its own event key; the load generator takes them in turn. */
  accounts: number;
  alert: AlertLatency;
  /** The same, with the heartbeats of every account's forwarder in every default region on top. */
  alertWithHeartbeats: AlertLatency;
  /** The same, alone, with the tenant's Sigma rules enabled (they run on every event, beside the built-ins). */
  alertWithSigma: AlertLatency;
  /** How many Sigma rules the tenant has for alertWithSigma and sigmaRow. */
  sigmaRules: number;
  /** The stored row again, with the Sigma rules enabled, measured right after it. */
  sigmaRow: ThroughputRow;
  /** Bare Express GET and POST, then the ingestion rows. */
  rows: ThroughputRow[];
  /** The fixed rates of the last rows, requests a second. */
  steadyRates: number[];
  /** New events answered 202 by the ingestion rows, and how many of them are stored. */
  stored: { answered: number; stored: number };
  seconds: number;
  poolMax: number;
}

export interface EventsOptions {
  seconds: number;
  poolMax: number;
  concurrency: number;
  /** Events of the latency part (each opens a new signal, so each alerts). */
  alertEvents: number;
  /** Their rate, events a second over all `alertAccounts`. */
  alertRate: number;
  alertAccounts: number;
  /** How long after the last event its alerts may take to arrive. */
  alertTimeoutSeconds: number;
  /** The rates of the fixed-rate ingestion rows, requests a second. */
  steadyRates: number[];
  apiNodeArgs?: string[];
}

const ACCOUNTS = 250;
/** Events sent before the latency runs, their alerts awaited and not counted. */
export const WARM_UP_EVENTS = 100;
/** The tenant's own detections of the Sigma part: SigmaHQ's AWS CloudTrail rules of the test fixtures, in turn. */
const SIGMA_FIXTURES = path.join(__dirname, '../test/fixtures/sigma');
const SIGMA_RULES = 20;

/** Uploads SIGMA_RULES rules as the tenant's admin (POST /detections); their ids. */
async function uploadSigmaRules(url: string, auth: Record<string, string>): Promise<string[]> {
  // The fixtures include a rule asking for a modifier Sentinel refuses (fieldref): only those it runs are uploaded.
  const rules = readdirSync(SIGMA_FIXTURES)
    .filter((f) => f.endsWith('.yml'))
    .map((file) => ({ file, sigma: readFileSync(path.join(SIGMA_FIXTURES, file), 'utf8') }))
    .filter(({ sigma }) => compileSigmaYaml(sigma).ok);
  const ids: string[] = [];
  for (let i = 0; i < SIGMA_RULES; i++) {
    const { file, sigma } = rules[i % rules.length]!;
    const res = await fetch(`${url}/detections`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `${file} #${i}`, sigma }),
    });
    if (res.status !== 201) throw new Error(`POST /detections answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { detection_id: string }).detection_id);
  }
  return ids;
}

/** Enables or disables the rules (PATCH /detections/{id}): each request of every process reads which are enabled. */
async function setSigmaRules(url: string, auth: Record<string, string>, ids: string[], enabled: boolean) {
  for (const id of ids) {
    const res = await fetch(`${url}/detections/${id}`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled }),
    });
    if (res.status !== 200) throw new Error(`PATCH /detections answered ${res.status}: ${await res.text()}`);
  }
}
/** The 17 regions every AWS account has enabled (the others are opt-in): where each forwarder sends heartbeats from. */
const DEFAULT_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ap-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
  'ca-central-1',
  'eu-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'sa-east-1',
] as const;
/** Requests a second one connection of a fixed-rate row sends (one every 20 ms). */
const STEADY_RATE_PER_CONNECTION = 50;
const steadyConnections = (rate: number) => Math.max(1, Math.ceil(rate / STEADY_RATE_PER_CONNECTION));
const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures', 'aws-events');
const ID_PLACEHOLDER = 'BENCH_EVENT_ID';

type Envelope = Record<string, unknown> & { detail: Record<string, unknown> };

const fixture = (name: string): Envelope =>
  JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Envelope;
/** EventBridge writes whole seconds. */
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * The fixture as an event of `awsAccountId`, happening now; `groupId` (when given) is the security group the rule is
 * added to: the resource of the signal its detection opens, so a new group is a new signal.
 */
function eventOf(
  template: Envelope,
  { id, awsAccountId, groupId }: { id: string; awsAccountId: string; groupId?: string },
): Envelope {
  const event = structuredClone(template);
  const time = now();
  Object.assign(event, { id, account: awsAccountId, time });
  const { detail } = event;
  Object.assign(detail, { eventTime: time, recipientAccountId: awsAccountId });
  Object.assign(detail.userIdentity as object, { accountId: awsAccountId });
  if (groupId) Object.assign(detail.requestParameters as object, { groupId });
  return event;
}

/** A forwarder's heartbeat, as the scheduled rule's Scheduled Event reaches the API destination. */
function heartbeatOf({ id, awsAccountId, region }: { id: string; awsAccountId: string; region: string }): string {
  return JSON.stringify({
    version: '0',
    id,
    'detail-type': SCHEDULED_EVENT,
    source: SCHEDULED_EVENT_SOURCE,
    account: awsAccountId,
    time: now(),
    region,
    resources: [`arn:aws:events:${region}:${awsAccountId}:rule/${HEARTBEAT_RULE_NAME}`],
    detail: {},
  });
}

/**
 * Sends every account's heartbeat in every default region once per interval, at the steady rate that makes, until
 * `stop` is called; answers what was sent.
 */
function sendHeartbeats(url: string, keys: readonly [string, string][]) {
  const forwarders = keys.flatMap(([awsAccountId, key]) =>
    DEFAULT_REGIONS.map((region) => ({ awsAccountId, key, region })),
  );
  const rate = forwarders.length / (HEARTBEAT_INTERVAL_MINUTES * 60);
  const refused: Record<string, number> = {};
  const requests: Promise<void>[] = [];
  let sent = 0;
  let stopped = false;
  const started = performance.now();
  const loop = (async () => {
    while (!stopped) {
      const wait = started + (sent * 1000) / rate - performance.now();
      if (wait > 0) await sleep(wait);
      if (stopped) break;
      const { awsAccountId, key, region } = forwarders[sent % forwarders.length]!;
      const body = heartbeatOf({ id: `bench-heartbeat-${sent}`, awsAccountId, region });
      sent += 1;
      requests.push(
        (async () => {
          const res = await fetch(`${url}${EVENT_INGEST_PATH}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', [EVENT_API_KEY_HEADER]: key },
            body,
          });
          await res.text();
          if (res.status !== 202) refused[res.status] = (refused[res.status] ?? 0) + 1;
        })(),
      );
    }
  })();
  return {
    stop: async (): Promise<HeartbeatTraffic> => {
      stopped = true;
      await loop;
      await Promise.all(requests);
      return { forwarders: forwarders.length, rate, sent, refused };
    },
  };
}

/** The security group of the latency part's event `i`, as AWS spells ids (17 hex digits); the Slack message names it. */
const groupIdOf = (i: number) => `sg-0be${i.toString(16).padStart(14, '0')}`;
const GROUP_ID = /sg-0be[0-9a-f]{14}/g;

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] ?? 0 };
}

/** A Slack incoming webhook on loopback: when the first message naming each security group arrived (performance.now()). */
async function startSlackReceiver() {
  const arrivals = new Map<string, number>();
  let messages = 0;
  const server = createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      messages += 1;
      for (const [group] of Buffer.concat(chunks).toString('utf8').matchAll(GROUP_ID)) {
        if (!arrivals.has(group)) arrivals.set(group, at);
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    arrivals,
    messages: () => messages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type SlackReceiver = Awaited<ReturnType<typeof startSlackReceiver>>;

/** The alert steps of the deliveries of these accounts' event batches received since `since`, ms. */
async function alertStages(db: Db, awsAccountIds: readonly string[], since: Date): Promise<AlertStages> {
  const ms = (from: string, to: string) => sql<number>`extract(epoch from ${sql.ref(to)} - ${sql.ref(from)}) * 1000`;
  const rows = await db
    .selectFrom('alert_deliveries as d')
    .innerJoin('alert_events as e', 'e.id', 'd.alert_id')
    .innerJoin('event_batches as b', 'b.id', 'd.event_batch_id')
    .innerJoin('accounts as a', 'a.id', 'b.account_id')
    // The delivery's claim is cleared once it is settled; its successful attempt keeps the time of the claim.
    .innerJoin('delivery_attempts as t', 't.delivery_id', 'd.id')
    .where('a.aws_account_id', 'in', [...awsAccountIds])
    .where('b.received_at', '>=', since)
    .where('t.outcome', '=', 'delivered')
    .select([
      ms('b.received_at', 'e.fired_at').as('fired'),
      ms('e.fired_at', 't.attempted_at').as('claimed'),
      ms('t.attempted_at', 'd.delivered_at').as('delivered'),
    ])
    .execute();
  return {
    toFired: percentiles(rows.map((r) => Number(r.fired))),
    toClaimed: percentiles(rows.map((r) => Number(r.claimed))),
    toDelivered: percentiles(rows.map((r) => Number(r.delivered))),
  };
}

/**
 * Sends `events` sg-open-ssh events at `rate` a second (on a schedule, not waiting for answers), taking the accounts
 * in turn, each event naming a security group of its own, then waits for every alert to reach the webhook.
 */
async function alertLatency({
  db,
  url,
  receiver,
  keys,
  options,
  pids,
  firstGroup,
  heartbeatKeys,
}: {
  db: Db;
  url: string;
  receiver: SlackReceiver;
  keys: [string, string][];
  pids: Record<string, number>;
  options: Pick<EventsOptions, 'alertEvents' | 'alertRate' | 'alertTimeoutSeconds'>;
  /** The first event's security group number: each run's events open signals of their own. */
  firstGroup: number;
  /** The accounts whose forwarders send heartbeats meanwhile; none: no heartbeats. */
  heartbeatKeys: [string, string][];
}): Promise<AlertLatency> {
  const { alertEvents: events, alertRate: rate, alertTimeoutSeconds } = options;
  const template = fixture('sg-open-ssh');
  const sentAt = new Map<string, number>();
  const postMs: number[] = [];
  const refused: Record<string, number> = {};
  const meter = cpuMeter(pids);
  const heartbeats = heartbeatKeys.length > 0 ? sendHeartbeats(url, heartbeatKeys) : null;
  const since = new Date();
  const messagesBefore = receiver.messages();
  const started = performance.now();
  const requests: Promise<void>[] = [];
  for (let i = 0; i < events; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    const [awsAccountId, key] = keys[i % keys.length]!;
    const group = groupIdOf(firstGroup + i);
    const body = JSON.stringify(
      eventOf(template, { id: `bench-alert-${firstGroup + i}`, awsAccountId, groupId: group }),
    );
    requests.push(
      (async () => {
        const t0 = performance.now();
        const res = await fetch(`${url}${EVENT_INGEST_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [EVENT_API_KEY_HEADER]: key },
          body,
        });
        const answer = await res.text();
        postMs.push(performance.now() - t0);
        const opened = res.status === 202 && (JSON.parse(answer) as { signals_opened: number }).signals_opened >= 1;
        if (opened) sentAt.set(group, t0);
        else refused[res.status] = (refused[res.status] ?? 0) + 1;
      })(),
    );
    if (i > 0 && i % 200 === 0)
      console.log(`  ${i} of ${events} events sent, ${receiver.arrivals.size} alerts arrived`);
  }
  await Promise.all(requests);
  const deadline = performance.now() + alertTimeoutSeconds * 1000;
  const arrived = () => [...sentAt.keys()].filter((group) => receiver.arrivals.has(group)).length;
  while (arrived() < sentAt.size && performance.now() < deadline) await sleep(50);
  const heartbeatTraffic = heartbeats ? await heartbeats.stop() : null;
  const cpu = meter();
  const latencies = [...sentAt].flatMap(([group, t0]) => {
    const at = receiver.arrivals.get(group);
    return at === undefined ? [] : [at - t0];
  });
  const result: AlertLatency = {
    accounts: keys.length,
    events,
    rate,
    opened: sentAt.size,
    arrived: latencies.length,
    refused,
    latencyMs: percentiles(latencies),
    postMs: percentiles(postMs),
    stages: await alertStages(
      db,
      keys.map(([id]) => id),
      since,
    ),
    slackMessages: receiver.messages() - messagesBefore,
    timeoutSeconds: alertTimeoutSeconds,
    cpu,
    heartbeats: heartbeatTraffic,
  };
  const { p50, p95, p99, max } = result.latencyMs;
  const beats = heartbeatTraffic
    ? ` with ${heartbeatTraffic.sent} heartbeats at ${heartbeatTraffic.rate.toFixed(1)}/s (refused ${JSON.stringify(heartbeatTraffic.refused)})`
    : '';
  console.log(
    `event to alert${beats}: ${result.arrived} of ${result.opened} arrived (${events} sent), p50 ${p50.toFixed(0)} ms, ` +
      `p95 ${p95.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${max.toFixed(0)} ms; refused ${JSON.stringify(refused)}`,
  );
  const step = (p: Percentiles) => `p50 ${p.p50.toFixed(0)} ms, p95 ${p.p95.toFixed(0)} ms`;
  console.log(
    `  arrival to rule fired ${step(result.stages.toFired)}; to delivery claimed ${step(result.stages.toClaimed)}; ` +
      `to sent ${step(result.stages.toDelivered)}`,
  );
  if (result.arrived < events) console.warn(`  ${events - result.arrived} of ${events} events' alerts did not arrive`);
  return result;
}

/**
 * One autocannon request that takes the accounts in turn: request n is `body(n)` with account n's key (mod the
 * number of accounts).
 */
function rotating(keys: readonly string[], body: (n: number, account: number) => string): autocannon.Request[] {
  let sent = 0;
  return [
    {
      method: 'POST',
      path: EVENT_INGEST_PATH,
      setupRequest: (request) => {
        const n = sent++;
        const account = n % keys.length;
        return {
          ...request,
          headers: { ...request.headers, 'content-type': 'application/json', [EVENT_API_KEY_HEADER]: keys[account]! },
          body: body(n, account),
        };
      },
    },
  ];
}

export async function benchEvents(env: BenchEnvironment, options: EventsOptions): Promise<EventsResult> {
  const { seconds, poolMax, concurrency, alertAccounts, steadyRates, apiNodeArgs } = options;
  const receiver = await startSlackReceiver();
  const services = await env.startServices({
    taskQueue: 'bench-events',
    poolMax,
    apiNodeArgs,
    env: { SLACK_WEBHOOK_URL_PREFIX: `${receiver.url}/` },
  });
  try {
    const [tenant] = await signUpTenants({
      db: env.db,
      url: services.url,
      prefix: 'events',
      count: ACCOUNTS,
      firstId: 700_000_000_000,
    });
    if (!tenant) throw new Error('no events tenant');
    const eventKeys = new Map<string, string>();
    await connectAccounts(services.url, [tenant], concurrency, eventKeys);
    const keys = tenant.awsAccountIds.map((id): [string, string] => [id, eventKeys.get(id)!]);

    // The latency part's accounts are verified (their first scans done) before the rule exists: only the events alert.
    // Each of its runs (and the warm-up) has accounts of its own, so a run's rescoring does not find an earlier run's
    // signals open on its accounts: the runs differ only by the heartbeats or the Sigma rules.
    const alerting = { ...tenant, awsAccountIds: tenant.awsAccountIds.slice(0, 4 * alertAccounts) };
    await verifyAccounts(services.url, [alerting], concurrency);
    await firstScansDone(env, [alerting], 600_000);
    const rule = await fetch(`${services.url}/alert-rules`, {
      method: 'POST',
      headers: { ...tenant.auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Every new signal',
        min_srs: 0,
        scenarios: [],
        channels: [{ type: 'slack', webhook_url: `${receiver.url}/services/T0BENCH/B0BENCH/events` }],
      }),
    });
    if (rule.status !== 201) throw new Error(`POST /alert-rules answered ${rule.status}: ${await rule.text()}`);
    const latency = {
      db: env.db,
      url: services.url,
      receiver,
      options,
      pids: { server: services.api.pid, worker: services.worker.pid },
    };
    // A warm-up over accounts of its own, not counted: the processes' first alerts compile the code they run (V8's,
    // and the worker's first delivery workflows), which would otherwise fall on the first run's tail alone.
    await alertLatency({
      ...latency,
      options: { ...options, alertEvents: WARM_UP_EVENTS },
      keys: keys.slice(3 * alertAccounts, 4 * alertAccounts),
      firstGroup: 3 * options.alertEvents,
      heartbeatKeys: [],
    });
    const alert = await alertLatency({
      ...latency,
      keys: keys.slice(0, alertAccounts),
      firstGroup: 0,
      heartbeatKeys: [],
    });
    const alertWithHeartbeats = await alertLatency({
      ...latency,
      keys: keys.slice(alertAccounts, 2 * alertAccounts),
      firstGroup: options.alertEvents,
      heartbeatKeys: keys,
    });
    // The tenant's own rules run on every event of its accounts: the third run has them, over accounts of its own.
    const sigmaIds = await uploadSigmaRules(services.url, tenant.auth);
    const alertWithSigma = await alertLatency({
      ...latency,
      keys: keys.slice(2 * alertAccounts, 3 * alertAccounts),
      firstGroup: 2 * options.alertEvents,
      heartbeatKeys: [],
    });
    await setSigmaRules(services.url, tenant.auth, sigmaIds, false);

    // Ingestion involves no workflow when nothing is detected: the worker (and the latency part's debounced rescans)
    // would only take cores from the measurement.
    await services.worker.stop();
    const port = await freePort();
    const bare = await startHelloWorld(port);
    try {
      const https = fixture('sg-open-https');
      // Per account, the event's JSON around its id: a request's body is the two halves and a fresh id.
      const halves = keys.map(([awsAccountId]) =>
        JSON.stringify(eventOf(https, { id: ID_PLACEHOLDER, awsAccountId })).split(ID_PLACEHOLDER),
      );
      const fresh = (tag: string) => (n: number, account: number) =>
        `${halves[account]![0]}bench-${tag}-${n}${halves[account]![1]}`;
      const keyList = keys.map(([, key]) => key);
      // The duplicates row re-sends one event per account, each delivered once before.
      const again = (_n: number, account: number) =>
        `${halves[account]![0]}bench-again-${account}${halves[account]![1]}`;
      for (let account = 0; account < keys.length; account++) {
        const res = await fetch(`${services.url}${EVENT_INGEST_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [EVENT_API_KEY_HEADER]: keyList[account]! },
          body: again(0, account),
        });
        if (res.status !== 202) throw new Error(`the first delivery answered ${res.status}: ${await res.text()}`);
      }
      const api = { seconds, serverPid: services.api.pid, url: services.url };
      const rows = [
        await measure({
          name: 'bare Express hello-world (GET)',
          url: `http://127.0.0.1:${port}/`,
          seconds,
          serverPid: bare.pid,
        }),
        await measure({
          name: 'bare Express POST of the same event (JSON parsed, 202)',
          url: `http://127.0.0.1:${port}/`,
          seconds,
          serverPid: bare.pid,
          requests: rotating(keyList, fresh('bare')).map((r) => ({ ...r, path: '/' })),
        }),
        await measure({
          ...api,
          name: 'POST /ingest/aws/events: new event, no detection (stored)',
          requests: rotating(keyList, fresh('store')),
        }),
      ];
      await setSigmaRules(services.url, tenant.auth, sigmaIds, true);
      const sigmaRow = await measure({
        ...api,
        name: `POST /ingest/aws/events: new event, no detection, ${SIGMA_RULES} Sigma rules`,
        requests: rotating(keyList, fresh('sigma')),
      });
      await setSigmaRules(services.url, tenant.auth, sigmaIds, false);
      rows.push(
        await measure({
          ...api,
          name: 'POST /ingest/aws/events: the same event again (duplicate)',
          requests: rotating(keyList, again),
        }),
      );
      // autocannon paces each connection on its own timer, all started together: 50 connections at 50 requests a
      // second would send 50 at once every second. A connection per STEADY_RATE_PER_CONNECTION spreads them.
      for (const rate of steadyRates) {
        const connections = steadyConnections(rate);
        rows.push(
          await measure({
            ...api,
            name: `POST /ingest/aws/events: new event, no detection, at ${rate} req/s (${connections} connection${connections === 1 ? '' : 's'})`,
            overallRate: rate,
            connections,
            requests: rotating(keyList, fresh(`steady-${rate}`)),
          }),
        );
      }
      const answered = [rows[2]!, ...rows.slice(4)].reduce((sum, row) => sum + (row.statusCodes['202'] ?? 0), 0);
      const stored = await sql<{ n: string }>`
        select count(*) as n from account_events
        where tenant_id = ${tenant.tenantId} and (event_id like 'bench-store-%' or event_id like 'bench-steady-%')`.execute(
        env.db,
      );
      return {
        accounts: keys.length,
        alert,
        alertWithHeartbeats,
        alertWithSigma,
        sigmaRules: SIGMA_RULES,
        sigmaRow,
        rows,
        steadyRates,
        stored: { answered, stored: Number(stored.rows[0]?.n ?? 0) },
        seconds,
        poolMax,
      };
    } finally {
      await bare.stop();
    }
  } finally {
    await services.stop();
    await receiver.close();
  }
}

/** The events a minute the accounts allow together, as events a second. */
export const ingestCeilingPerSecond = (accounts: number) => (accounts * EVENTS_PER_ACCOUNT_PER_MINUTE) / 60;
