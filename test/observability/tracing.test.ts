import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { Worker } from '@temporalio/worker';
import { startTracing } from '../../observability/tracing';
import { DROP_WORKFLOW_SPANS } from '../../worker/tracing';
import { accountWorkflowId } from '../../workflows/contracts';
import { createTestContext, signupAndLogin, type TestUser } from '../helpers/context';
import { scanResult } from '../helpers/scans';

// Traces, with the real API, a real worker on the Temporal dev server and the sandbox cloud, exported over OTLP/HTTP
// (JSON) to a receiver in this file. The tests run in order: the first one needs a process where no tracer
// provider was registered yet, and the second one registers it.

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: OtlpAttribute[] };
}
interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: (Omit<ExportedSpan, 'attributes' | 'resource'> & { attributes?: OtlpAttribute[] })[] }[];
  }[];
}

function valueOf(value: OtlpValue = {}): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values);
  return value.stringValue ?? value.boolValue ?? value.intValue ?? value.doubleValue;
}

function attributesOf(attributes: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(attributes.map((a) => [a.key, valueOf(a.value)]));
}

/** An OTLP/HTTP receiver on loopback: what the exporter posts to /v1/traces, as raw bodies and as spans. */
async function startReceiver() {
  const bodies: string[] = [];
  const spans: ExportedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      if (req.method === 'POST' && req.url === '/v1/traces') {
        for (const { resource, scopeSpans = [] } of (JSON.parse(body) as OtlpRequest).resourceSpans ?? []) {
          for (const scope of scopeSpans) {
            for (const span of scope.spans ?? []) {
              spans.push({
                ...span,
                attributes: attributesOf(span.attributes),
                resource: attributesOf(resource?.attributes),
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The spans named `names`, each the child of the one before it; the first is the first span of that name. */
function chainOf(spans: ExportedSpan[], names: string[]): ExportedSpan[] {
  const chain = [spans.find((s) => s.name === names[0])];
  if (!chain[0]) throw new Error(`no span ${names[0]} among ${spans.map((s) => s.name).join(', ')}`);
  for (const name of names.slice(1)) {
    const parent = chain[chain.length - 1]!;
    const child = spans.find((s) => s.name === name && s.parentSpanId === parent.spanId);
    if (!child) {
      const trace = spans
        .filter((s) => s.traceId === parent.traceId)
        .map((s) => `${s.name} (${s.spanId} under ${s.parentSpanId ?? 'none'})`);
      throw new Error(`no span ${name} under ${parent.name} (${parent.spanId}); its trace: ${trace.join(', ')}`);
    }
    chain.push(child);
  }
  return chain as ExportedSpan[];
}

const SANDBOX = { CLOUD_PROVIDER: 'sandbox' };
const AWS_ACCOUNT = '512345678901';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  await receiver.close();
});

it('registers no tracer and leaves no trace in the workflow while OTEL_EXPORTER_OTLP_ENDPOINT is unset', async () => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracing = startTracing({ serviceName: 'sentinel-api' });
  const probe = trace.getTracer('test').startSpan('probe');
  expect(probe.isRecording()).toBe(false);
  expect(isSpanContextValid(probe.spanContext())).toBe(false);

  const ctx = await createTestContext({ withWorker: true, config: SANDBOX });
  try {
    const owner = await signupAndLogin(ctx);
    await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: AWS_ACCOUNT }).expect(201);
    const verified = await ctx.http.post(`/accounts/${AWS_ACCOUNT}/verify`).set(owner.auth).expect(200);
    await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
    // The workflow interceptors are in the bundle, but a call without a trace context goes straight through: no
    // header on the workflow's start, its update or its activities.
    const { events } = await ctx.temporal.workflow
      .getHandle(accountWorkflowId(owner.tenantId, AWS_ACCOUNT))
      .fetchHistory();
    expect(events?.some((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runScan')).toBe(true);
    expect(JSON.stringify(events)).not.toContain('_tracer-data');
  } finally {
    await ctx.close();
  }
  await tracing.shutdown();
  expect(receiver.bodies).toEqual([]);
});

it('follows a request through the Temporal client into the workflow and its activities, in one trace', async () => {
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
  const tracing = startTracing({ serviceName: 'sentinel-api' });
  const ctx = await createTestContext({ withWorker: true, config: SANDBOX });
  let owner!: TestUser;
  let externalId: string;
  let accountId: string;
  try {
    owner = await signupAndLogin(ctx);
    externalId = (await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: AWS_ACCOUNT }).expect(201))
      .body.external_id;
    const verified = await ctx.http.post(`/accounts/${AWS_ACCOUNT}/verify`).set(owner.auth).expect(200);
    await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
    // Disconnecting ends the account's workflow, and with it the workflow's span.
    await ctx.http.delete(`/accounts/${AWS_ACCOUNT}`).set(owner.auth).expect(200);
    const workflow = ctx.temporal.workflow.getHandle(accountWorkflowId(owner.tenantId, AWS_ACCOUNT));
    await workflow.result();
    // The traced run's history replays: the workflow interceptors decide from what the history holds.
    const history = await workflow.fetchHistory();
    expect(JSON.stringify(history.events)).toContain('_tracer-data');
    await Worker.runReplayHistory(
      { workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE as string }, sinks: DROP_WORKFLOW_SPANS },
      history,
    );
    ({ id: accountId } = await ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('tenant_id', '=', owner.tenantId)
      .executeTakeFirstOrThrow());
  } finally {
    await ctx.close();
  }
  await tracing.shutdown(); // exports what is still buffered
  const { spans } = receiver;

  // Connect: the request starts the account's workflow, which runs the first scan's activity.
  const connect = chainOf(spans, [
    'POST /accounts',
    'StartWorkflow:accountWorkflow',
    'RunWorkflow:accountWorkflow',
    'StartActivity:runScan',
    'RunActivity:runScan',
  ]);
  // Verify: the request's update runs in the workflow, which runs the verification's activity.
  const verify = chainOf(spans, [
    'POST /accounts/{account_id}/verify',
    'StartWorkflowUpdate:verify',
    'HandleUpdate:verify',
    'StartActivity:verifyAccount',
    'RunActivity:verifyAccount',
  ]);
  for (const chain of [connect, verify]) {
    expect(new Set(chain.map((s) => s.traceId)).size).toBe(1);
    expect(chain[0]).toMatchObject({
      kind: 2, // SPAN_KIND_SERVER
      resource: expect.objectContaining({ 'service.name': 'sentinel-api' }),
      attributes: expect.objectContaining({ 'sentinel.tenant_id': owner.tenantId, 'sentinel.user_id': owner.userId }),
    });
    expect(chain[0]!.parentSpanId ?? '').toBe('');
    expect(chain[4]!.attributes).toMatchObject({
      'sentinel.tenant_id': owner.tenantId,
      'sentinel.account_id': accountId,
    });
  }
  expect(connect[0]!.traceId).not.toBe(verify[0]!.traceId);
  expect(connect[0]!.attributes).toMatchObject({ 'http.route': '/accounts', 'http.response.status_code': 201 });
  expect(verify[0]!.attributes).toMatchObject({
    'http.route': '/accounts/{account_id}/verify',
    'http.response.status_code': 200,
    'sentinel.aws_account_id': AWS_ACCOUNT,
  });

  // Ids only: nothing the caller proved itself with or told us about itself, in any span or resource.
  const exported = receiver.bodies.join('\n');
  for (const secret of [owner.idToken, owner.refreshToken, owner.password, owner.email, externalId]) {
    expect(exported).not.toContain(secret);
  }
});
