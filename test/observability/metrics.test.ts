import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { PROJECT_ROOT } from '../../scripts/tools';
import { waitFor } from '../helpers/patience';
import { ROUTING_KEY, startAlertPeers, type AlertPeers } from '../helpers/alerts';
import {
  accessDenied,
  type AwsFront,
  customerAccount,
  motoGaps,
  queryError,
  runAsCustomer,
  startAwsFront,
} from '../helpers/aws';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { confirmRecipients } from '../helpers/email-trust';
import { deliveriesSettled } from '../helpers/scans';
import { type ApiProcess, SandboxWorkers, startSandboxApi } from '../helpers/worker-process';

// The API and the worker as production runs them, each in a process of its own with its /metrics on a port of its
// own: a scripted sign-up → connect → verify → scan (the AWS provider on moto, one throttled call, GuardDuty
// denied) → alert → deliveries to e-mail, Slack and PagerDuty moves every metric, and Prometheus's own parser
// (prometheus-client) reads what both answer.

const RECIPIENT = 'oncall-metrics@example.com';

let ctx: TestContext;
let peers: AlertPeers;
let front: AwsFront;
let api: ApiProcess;
let workerMetricsUrl: string;
const workers = new SandboxWorkers();

beforeAll(async () => {
  peers = await startAlertPeers();
  front = await startAwsFront();
  let throttled = false;
  front.answer = (req) => {
    if (req.service === 'guardduty') return accessDenied(req);
    if (!throttled && req.service === 'iam' && req.operation === 'GetAccountSummary') {
      throttled = true; // once: the SDK's retry gets moto's answer
      return queryError({ service: 'iam', status: 400, code: 'Throttling', message: 'Rate exceeded' });
    }
    return motoGaps(req);
  };
  const env = {
    ...peers.config,
    SLACK_WEBHOOK_URL_PREFIX: `${peers.slack.url}/`,
    CLOUD_PROVIDER: 'aws',
    AWS_ENDPOINT_URL: front.endpoint,
  };
  ctx = await createTestContext({ config: env });
  [api, { metricsUrl: workerMetricsUrl }] = await Promise.all([startSandboxApi(ctx, env), workers.start(ctx, env)]);
});

afterAll(async () => {
  await workers.killAll();
  await api?.stop();
  await ctx?.close();
  await Promise.all([peers?.close(), front?.close()]);
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Family {
  name: string;
  type: string;
  samples: Sample[];
}

// Prometheus's text format as the reference client library reads it: anything it cannot parse fails here.
const PARSE = `
import sys, json
from prometheus_client.parser import text_string_to_metric_families
families = [{"name": f.name, "type": f.type, "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]}
            for f in text_string_to_metric_families(sys.stdin.read())]
print(json.dumps(families))
`;

async function scrape(url: string): Promise<{ text: string; families: Map<string, Family> }> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const run = spawnSync(path.join(PROJECT_ROOT, '.tools/venv/bin/python'), ['-c', PARSE], {
    input: text,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`prometheus-client could not parse ${url}:\n${run.stderr}`);
  const families = JSON.parse(run.stdout) as Family[];
  return { text, families: new Map(families.map((f) => [f.name, f])) };
}

/** Whether a family has a sample with these labels (a gauge may read 0). */
function sampled(families: Map<string, Family>, family: string, labels: Record<string, string>): boolean {
  return (families.get(family)?.samples ?? []).some((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of a family's samples whose name is `sampleName` and whose labels include `labels`. */
function total(
  families: Map<string, Family>,
  family: string,
  labels: Record<string, string> = {},
  sampleName?: string,
): number {
  const found = families.get(family);
  if (!found) throw new Error(`no metric ${family}`);
  const wanted =
    sampleName ??
    (found.type === 'counter' ? `${family}_total` : found.type === 'histogram' ? `${family}_count` : family);
  return found.samples
    .filter((s) => s.name === wanted && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

describe('/metrics on the API and the worker', () => {
  let owner: TestUser;

  it('moves every metric through sign-up, connect, verify, scan, alert and delivery', async () => {
    const http = request(api.url);
    owner = await signupAndLogin({ http, db: ctx.db });
    await http
      .post('/alert-rules')
      .set(owner.auth)
      .send({
        name: 'Any risk',
        min_srs: 100,
        channels: [
          { type: 'email', to: [RECIPIENT] },
          { type: 'slack', webhook_url: `${peers.slack.url}/services/T000/B000/metrics` },
          { type: 'pagerduty', routing_key: ROUTING_KEY },
        ],
      })
      .expect(201);
    await confirmRecipients(ctx.db, owner.tenantId, [RECIPIENT]);
    const customer = await customerAccount();
    const connected = await http
      .post('/accounts')
      .set(owner.auth)
      .send({ aws_account_id: customer.accountId, event_forwarding: false })
      .expect(201);
    await runAsCustomer({ script: connected.body.fallback_cli_script, customer });
    await http.post(`/accounts/${customer.accountId}/verify`).set(owner.auth).expect(200);
    await waitFor(async () =>
      (await ctx.db.selectFrom('scans').select('status').where('tenant_id', '=', owner.tenantId).execute()).some(
        (s) => s.status !== 'running',
      ),
    );
    await deliveriesSettled(ctx.db, owner.tenantId);

    const { families: apiMetrics } = await scrape(api.metricsUrl);
    const route = { method: 'POST', route: '/accounts/{account_id}/verify', status: '200' };
    expect(total(apiMetrics, 'sentinel_http_request_duration_seconds', route)).toBeGreaterThanOrEqual(1);
    expect(total(apiMetrics, 'sentinel_http_request_duration_seconds', { route: '/alert-rules', status: '201' })).toBe(
      1,
    );
    // Every request of the script has ended (the scrape is on the metrics port, not the API's).
    expect(apiMetrics.get('sentinel_http_requests_in_flight')?.type).toBe('gauge');
    expect(total(apiMetrics, 'sentinel_http_requests_in_flight')).toBe(0);
    // Idle connections close after 10 s: the pool may be empty by now, but it is reported.
    for (const state of ['total', 'idle', 'waiting'])
      expect(sampled(apiMetrics, 'sentinel_db_pool_connections', { state })).toBe(true);
    expect(total(apiMetrics, 'sentinel_caller_cache_lookups', {})).toBeGreaterThan(0);
    // Every JSON body of the script was read within its budget; the read cache says what it keeps.
    expect(total(apiMetrics, 'sentinel_request_bodies', { reader: 'json', outcome: 'read' })).toBeGreaterThan(0);
    expect(sampled(apiMetrics, 'sentinel_read_cache_page_bytes', {})).toBe(true);
    expect(total(apiMetrics, 'process_cpu_seconds')).toBeGreaterThan(0);

    const { families: worker } = await scrape(workerMetricsUrl);
    expect(total(worker, 'sentinel_scans_started', { provider: 'aws' })).toBe(1);
    // GuardDuty refused: the scan is scored with some checks not evaluated.
    expect(total(worker, 'sentinel_scans_completed', { provider: 'aws', outcome: 'partial' })).toBe(1);
    expect(total(worker, 'sentinel_scan_duration_seconds', { provider: 'aws', outcome: 'partial' })).toBe(1);
    expect(total(worker, 'sentinel_checks_not_evaluated', { reason: 'denied' })).toBeGreaterThan(0);
    expect(total(worker, 'sentinel_aws_api_calls', { service: 'IAM' })).toBeGreaterThan(0);
    expect(total(worker, 'sentinel_aws_api_throttles', { service: 'IAM' })).toBe(1);
    expect(total(worker, 'sentinel_alert_events_fired')).toBe(1);
    for (const channel of ['email', 'slack', 'pagerduty']) {
      expect(total(worker, 'sentinel_deliveries', { channel, outcome: 'delivered' })).toBe(1);
    }
    expect(worker.has('sentinel_delivery_retries')).toBe(true);
    expect(sampled(worker, 'sentinel_db_pool_connections', { state: 'total' })).toBe(true);
    // The Temporal SDK's own worker metrics, appended to ours.
    const temporal = [...worker.keys()].filter((name) => name.startsWith('temporal_'));
    expect(temporal).toEqual(
      expect.arrayContaining([
        'temporal_worker_task_slots_available',
        'temporal_sticky_cache_size',
        'temporal_workflow_task_schedule_to_start_latency',
      ]),
    );
    expect(
      total(worker, 'temporal_workflow_task_execution_latency', { workflow_type: 'accountWorkflow' }),
    ).toBeGreaterThan(0);
    expect(total(worker, 'temporal_activity_execution_latency', { activity_type: 'runScan' })).toBe(1);
  });

  it("counts the events the account's forwarder delivers, and the signals and alerts they open, on the API", async () => {
    const http = request(api.url);
    const { aws_account_id: awsAccountId } = (await http.get('/accounts').set(owner.auth).expect(200)).body.accounts[0];
    const rotated = await http.post(`/accounts/${awsAccountId}/event-key`).set(owner.auth).expect(200);
    const { api_key_header: header, api_key: key } = rotated.body.event_forwarding;
    const fixture = JSON.parse(
      readFileSync(path.join(__dirname, '../fixtures/aws-events/root-console-sign-in.json'), 'utf8'),
    );
    const event = JSON.stringify({
      ...fixture,
      id: 'metrics-root-sign-in',
      account: awsAccountId,
      time: new Date().toISOString(),
    });
    const send = () =>
      http.post('/ingest/aws/events').set(header, key).set('Content-Type', 'application/json').send(event).expect(202);
    expect((await send()).body).toMatchObject({ accepted: 1, signals_opened: 1 });
    expect((await send()).body).toMatchObject({ duplicates: 1 });

    const { families: apiMetrics } = await scrape(api.metricsUrl);
    expect(total(apiMetrics, 'sentinel_aws_events_received', { outcome: 'stored' })).toBe(1);
    expect(total(apiMetrics, 'sentinel_aws_events_received', { outcome: 'duplicate' })).toBe(1);
    expect(total(apiMetrics, 'sentinel_event_signals_opened', { detection: 'event.root_console_sign_in' })).toBe(1);
    // The rule covers every scenario: the new finding fires it, from the API that took the event, once it has answered.
    await waitFor(async () => total((await scrape(api.metricsUrl)).families, 'sentinel_alert_events_fired') === 1);
  });

  it('keeps tenant data and secrets out of every label', async () => {
    const texts = [(await scrape(api.metricsUrl)).text, (await scrape(workerMetricsUrl)).text];
    const secrets = [owner.email, owner.tenantId, owner.userId, owner.idToken, RECIPIENT, ROUTING_KEY, peers.slack.url];
    const external = await ctx.db
      .selectFrom('accounts')
      .select(['external_id', 'aws_account_id', 'id'])
      .where('tenant_id', '=', owner.tenantId)
      .execute();
    for (const a of external) secrets.push(a.external_id, a.aws_account_id, a.id);
    for (const text of texts) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/@example\.com/);
    }
  });

  it('is served only on the metrics port: the public API answers 404 for /metrics', async () => {
    await request(api.url).get('/metrics').expect(404);
    const res = await fetch(api.metricsUrl.replace(/\/metrics$/, '/anything'));
    expect(res.status).toBe(404);
    expect(new URL(api.metricsUrl).hostname).toBe('127.0.0.1');
  });
});
