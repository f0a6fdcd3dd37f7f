import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';
import { buildOpenApiDocument } from '../../api/openapi/document';
import { OPERATIONS } from '../../api/operations';
import { errorCodesOf, expressPath, pathsOf } from '../../api/openapi/registry';
import { ERROR_STATUS } from '../../core/errors';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { servedRoutes } from '../helpers/routes';
import { scanResult } from '../helpers/scans';

// The OpenAPI document against the running app: it names exactly the routes Express serves, it is valid
// OpenAPI 3.1, its request schemas refuse what the routes refuse, and every answer this suite provokes (all but
// a few operations, successes and errors) is one the document describes, body included.

type Json = Record<string, unknown>;
type Method = 'get' | 'post' | 'patch' | 'delete';
interface OperationObject {
  operationId: string;
  parameters: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  security: Json[];
}

const BASE = 'https://sentinel.test/openapi.json';
const AWS_ID = '123456789012';

let ctx: TestContext;
let doc: { paths: Record<string, Record<string, OperationObject>>; components: { schemas: Record<string, Json> } };
let owner: TestUser;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new Map<string, ValidateFunction>();

/** A validator for a schema of the document; its `#/components/...` references resolve into the document. */
function validatorFor(schema: unknown): ValidateFunction {
  const text = JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`);
  let validate = compiled.get(text);
  if (!validate) {
    validate = ajv.compile(JSON.parse(text));
    compiled.set(text, validate);
  }
  return validate;
}

function operationAt(method: string, documentPath: string): OperationObject {
  const op = doc.paths[documentPath]?.[method];
  if (!op) throw new Error(`the document has no ${method} ${documentPath}`);
  return op;
}

/** The answer is one the document lists for the operation, with a body its schema accepts. */
function expectDocumented(method: string, documentPath: string, res: Response): void {
  const op = operationAt(method, documentPath);
  const response = op.responses[String(res.status)] as { content?: Record<string, { schema: unknown }> } | undefined;
  if (!response)
    throw new Error(`${method} ${documentPath} answered ${res.status}, which the document does not list: ${res.text}`);
  const media = String(res.headers['content-type'] ?? '').split(';')[0] ?? '';
  if (!response.content) {
    expect({ status: res.status, body: res.text || '' }).toEqual({ status: res.status, body: '' });
    return;
  }
  const described = response.content[media];
  if (!described) {
    throw new Error(
      `${method} ${documentPath} answered ${res.status} as ${media}, not as ${Object.keys(response.content).join(', ')}`,
    );
  }
  if (media === 'application/json') {
    const validate = validatorFor(described.schema);
    if (!validate(res.body)) {
      const problems = ajv.errorsText(validate.errors);
      throw new Error(`${method} ${documentPath} ${res.status} does not match the document: ${problems}\n${res.text}`);
    }
  }
}

interface Call {
  auth?: TestUser | null;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  raw?: boolean;
}

/** Calls an operation of the document and checks the answer against it. */
async function call(
  method: Method,
  documentPath: string,
  { auth = owner, params = {}, query, body, raw }: Call = {},
): Promise<Response> {
  const url = documentPath.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  let req = ctx.http[method](url);
  if (auth) req = req.set(auth.auth);
  if (query) req = req.query(query);
  if (raw)
    req = req.buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  const res = body === undefined ? await req : await req.send(body as object);
  expectDocumented(method, documentPath, res);
  return res;
}

beforeAll(async () => {
  const exportsDir = mkdtempSync(path.join(os.tmpdir(), 'sentinel-openapi-'));
  ctx = await createTestContext({
    withWorker: true,
    // Stripe and PagerDuty point at a closed loopback port: billing gets past its configuration check, and any
    // call (a checkout, an alert delivery) fails fast without leaving the machine.
    config: {
      CLOUD_PROVIDER: 'sandbox',
      EXPORT_LOCAL_DIR: exportsDir,
      STRIPE_SECRET_KEY: 'sk_test_openapi',
      STRIPE_API_BASE_URL: 'http://127.0.0.1:9',
      PAGERDUTY_EVENTS_URL: 'http://127.0.0.1:9/v2/enqueue',
    },
  });
  doc = (await ctx.http.get('/openapi.json').expect(200)).body;
  ajv.addSchema({ $id: BASE, components: doc.components });
  owner = await signupAndLogin(ctx, 'Document Owner');
  // Room for several accounts and the CSV export.
  await ctx.db.updateTable('tenants').set({ plan: 'agency' }).where('id', '=', owner.tenantId).execute();
});
afterAll(() => ctx.close());

describe('/openapi.json', () => {
  it('is public JSON, the document the registry builds', async () => {
    const res = await ctx.http
      .get('/openapi.json')
      .expect(200)
      .expect('Content-Type', /^application\/json/);
    expect(res.body).toEqual(buildOpenApiDocument(OPERATIONS));
    expect(res.body.openapi).toBe('3.1.0');
    expectDocumented('get', '/openapi.json', res);
  });

  it('lists exactly the routes the app serves, aliases included', () => {
    const documented = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((method) => `${method} ${expressPath(p)}`),
    );
    expect(documented.sort()).toEqual(servedRoutes(ctx.app).sort());
    const registered = OPERATIONS.flatMap((op) => pathsOf(op).map((p) => `${op.method} ${p}`));
    expect(new Set(registered).size).toBe(registered.length);
  });

  it('is valid OpenAPI 3.1', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sentinel-openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const cli = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
    const run = spawnSync(process.execPath, [cli, file], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ valid: true });
  });

  it('holds schemas that compile as JSON Schema 2020-12 with no unknown keyword', () => {
    const strict = new Ajv2020({
      strict: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      logger: false,
    });
    addFormats(strict);
    const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'));
    strict.addSchema({ $id: 'https://sentinel.test/defs', $defs: defs });
    for (const name of Object.keys(defs))
      expect(() => strict.compile({ $ref: `https://sentinel.test/defs#/$defs/${name}` })).not.toThrow();
    const parameters = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => op.parameters));
    for (const parameter of parameters) expect(() => strict.compile(parameter.schema as object)).not.toThrow();
  });

  it('describes each operation: id, responses with errors, bearer scheme or none, every path parameter', () => {
    expect(doc.components).toMatchObject({
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    });
    const ids = new Set<string>();
    for (const op of OPERATIONS) {
      for (const documentPath of pathsOf(op)) {
        const documented = operationAt(op.method, documentPath);
        ids.add(documented.operationId);
        const statuses = Object.keys(documented.responses).map(Number);
        expect(statuses.filter((s) => s >= 200 && s < 300)).toEqual([op.success.status]);
        expect(statuses).toContain(500);
        if (op.access === 'public') {
          expect(documented.security).toEqual([]);
        } else {
          expect(documented.security).toEqual([{ bearerAuth: [] }]);
          expect(statuses).toContain(401);
          expect(statuses.includes(403)).toBe(
            op.access !== 'viewer' || op.errors.some((code) => code.startsWith('plan_') || code === 'forbidden'),
          );
        }
        if (op.body || op.query) expect(statuses).toContain(400);
        const pathParams = [...documentPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        expect(documented.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathParams);
        if (pathParams.length) expect(statuses).toContain(404);
        for (const code of errorCodesOf(op)) {
          const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
          expect(documented.responses[ERROR_STATUS[code]]).toMatchObject(error);
          expect(documented.responses[ERROR_STATUS[code]]?.description).toContain(`\`${code}\``);
        }
      }
    }
    expect(ids.size).toBe(OPERATIONS.reduce((n, op) => n + pathsOf(op).length, 0));
  });
});

describe('/docs', () => {
  it('serves Swagger UI from this origin only', async () => {
    const page = await call('get', '/docs', { auth: null });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(page.headers['content-security-policy']).not.toMatch(/https?:|\*/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/docs\/[\w.-]+$/);
      const res = await ctx.http.get(asset).expect(200);
      expect(res.headers['content-type']).toMatch(/^(text\/css|text\/javascript|application\/javascript|image\/png)/);
    }
    const init = await ctx.http.get('/docs/init.js').expect(200);
    expect(init.text).toContain("url: '/openapi.json'");
  });

  it('serves only the pinned assets under /docs/', async () => {
    await ctx.http.get('/docs/index.html').expect(404);
    await ctx.http.get('/docs/../package.json').expect(404);
    await ctx.http.get('/docs/swagger-initializer.js').expect(404);
  });
});

// Bodies and queries the routes refuse (400 validation_failed) must be refused by the document too, and the
// other way round: the document is exactly as strict as zod where JSON Schema can say it.
interface Sample {
  op: string;
  body?: unknown;
  query?: Record<string, string>;
  valid: boolean;
}
const email = { type: 'email', to: ['Ops@Example.com'] };
const hook = 'https://hooks.slack.com/services/x';
const paging = { type: 'paging', routing_key: 'a'.repeat(32) };
const SAMPLES: Sample[] = [
  { op: 'signup', body: { email: 'new@example.com', password: 'password123', name: 'New' }, valid: true },
  { op: 'signup', body: { email: 'nope', password: 'password123', name: 'New' }, valid: false },
  { op: 'signup', body: { email: 'a@example.com', password: 'short', name: 'New' }, valid: false },
  { op: 'signup', body: { email: 'a@example.com', password: 'password123', name: '   ' }, valid: false },
  { op: 'signup', body: { email: 'a@example.com', password: 'password123', name: 'x'.repeat(201) }, valid: false },
  { op: 'login', body: { email: 'new@example.com' }, valid: false },
  { op: 'login', body: { email: 'new@example.com', password: 'password123' }, valid: true },
  { op: 'refreshTokens', body: { refresh_token: 'rtk_unknown.secret' }, valid: true },
  { op: 'logout', body: { refresh_token: '' }, valid: false },
  { op: 'acceptInvitation', body: { token: 'unknown', password: 'short' }, valid: false },
  { op: 'acceptInvitation', body: { token: 'unknown', password: 'password123' }, valid: true },
  { op: 'requestPasswordReset', body: { email: 'nope' }, valid: false },
  { op: 'requestPasswordReset', body: { email: 'someone@example.com' }, valid: true },
  { op: 'confirmPasswordReset', body: { token: 'unknown', password: 'short' }, valid: false },
  { op: 'confirmPasswordReset', body: { token: 'unknown', password: 'password123' }, valid: true },
  { op: 'renameSelf', body: { name: '' }, valid: false },
  { op: 'renameSelf', body: { name: 'Renamed' }, valid: true },
  { op: 'connectAccount', body: {}, valid: false },
  { op: 'connectAccount', body: { aws_account_id: '1234' }, valid: false },
  { op: 'connectAccount', body: { aws_account_id: '210987654321', tags: [' '] }, valid: false },
  {
    op: 'connectAccount',
    body: { cloud_account_id: '210987654321', display_name: 'Prod', tags: ['prod'] },
    valid: true,
  },
  { op: 'createAlertRule', body: { name: 'r', channels: [] }, valid: false },
  { op: 'createAlertRule', body: { name: 'r', min_srs: 101, channels: [email] }, valid: false },
  { op: 'createAlertRule', body: { name: 'r', min_srs: '40', channels: [email] }, valid: false },
  { op: 'createAlertRule', body: { name: 'r', channels: [{ type: 'sms', to: ['a@example.com'] }] }, valid: false },
  {
    op: 'createAlertRule',
    body: { name: 'r', channels: [{ type: 'chat', webhook_url: hook, channel: '#a' }] },
    valid: false,
  },
  { op: 'createAlertRule', body: { name: 'r', channels: [{ type: 'slack', team_id: 'T0123' }] }, valid: false },
  { op: 'createAlertRule', body: { name: 'r', channels: [{ type: 'paging', routing_key: 'short' }] }, valid: false },
  { op: 'createAlertRule', body: { name: 'r', scenarios: ['iam', 'weather'], channels: [email] }, valid: false },
  { op: 'createAlertRule', body: { name: 'r', enabled: false, channels: [email, paging] }, valid: true },
  { op: 'patchAlertRule', body: {}, valid: false },
  { op: 'patchAlertRule', body: { enabled: 'no' }, valid: false },
  { op: 'patchAlertRule', body: { enabled: false }, valid: true },
  { op: 'inviteUser', body: { email: 'invitee@example.com', name: 'Invitee', role: 'owner' }, valid: false },
  { op: 'inviteUser', body: { email: 'invitee@example.com', name: 'Invitee' }, valid: true },
  { op: 'changeRole', body: { role: 'owner' }, valid: false },
  { op: 'changeRole', body: { role: 'viewer' }, valid: true },
  { op: 'panicExport', body: { reason: 'x' }, valid: false },
  {
    op: 'startCheckout',
    body: { plan_id: 'gold', success_url: 'https://x.example/ok', cancel_url: 'https://x.example/no' },
    valid: false,
  },
  {
    op: 'startCheckout',
    body: { plan_id: 'team', success_url: 'not a url', cancel_url: 'https://x.example/no' },
    valid: false,
  },
  { op: 'acceptSignal', body: {}, valid: false },
  { op: 'acceptSignal', body: { reason: '' }, valid: false },
  { op: 'acceptSignal', body: { reason: 'x'.repeat(501) }, valid: false },
  { op: 'acceptSignal', body: { reason: 'break-glass role', expires_at: 'next week' }, valid: false },
  {
    op: 'acceptSignal',
    body: { reason: 'x'.repeat(500), expires_at: new Date(Date.now() + 86_400_000).toISOString() },
    valid: true,
  },
  { op: 'listSignals', query: { limit: '0' }, valid: false },
  { op: 'listSignals', query: { severity: 'SEVERE' }, valid: false },
  { op: 'listSignals', query: { since: 'yesterday' }, valid: false },
  { op: 'listSignals', query: { status: 'open', limit: '200', since: '2026-01-01T00:00:00+02:00' }, valid: true },
  { op: 'getScoreHistory', query: { days: '366' }, valid: false },
  { op: 'getScoreHistory', query: { days: '365' }, valid: true },
  { op: 'listAlerts', query: { limit: '201' }, valid: false },
  { op: 'listAlerts', query: { limit: '1' }, valid: true },
];

const opById = (id: string) => {
  const op = OPERATIONS.find((o) => o.operationId === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
};

describe('request schemas', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await call('post', '/accounts', { body: { aws_account_id: AWS_ID } });
    ids.rule_id = (await call('post', '/alert-rules', { body: { name: 'Existing', channels: [email] } })).body.rule_id;
    ids.user_id = (
      await call('post', '/users/invite', { body: { email: 'existing@example.com', name: 'Existing' } })
    ).body.user_id;
    ids.account_id = AWS_ID;
    ids.signal_id = 'sig_01NOTHING0000000000000000';
    ids.org_id = (
      await call('post', '/organizations', { body: { management_account_id: '210987654321' } })
    ).body.org_id;
    const sigma =
      'title: Existing\nlogsource:\n  product: aws\n  service: cloudtrail\n' +
      'detection:\n  sel:\n    eventName: DeleteTrail\n  condition: sel\n';
    ids.detection_id = (await call('post', '/detections', { body: { name: 'Existing', sigma } })).body.detection_id;
  });

  /** Whether the document's schemas accept the input (body, or each query parameter and no unknown one). */
  function documentAccepts(op: OperationObject, sample: Sample): boolean {
    if (sample.body !== undefined) {
      const content = op.requestBody?.content as Record<string, { schema: unknown }>;
      return validatorFor(content['application/json']?.schema).call(undefined, sample.body) as boolean;
    }
    const declared = new Map(op.parameters.filter((p) => p.in === 'query').map((p) => [p.name as string, p.schema]));
    return Object.entries(sample.query ?? {}).every(([name, value]) => {
      if (!declared.has(name)) return false;
      const schema = declared.get(name) as { type?: string };
      return validatorFor(schema)(schema.type === 'integer' ? Number(value) : value);
    });
  }

  it.each(SAMPLES.map((s) => [s.op, JSON.stringify(s.body ?? s.query).slice(0, 100), s] as const))(
    '%s %s',
    async (_id, _text, sample) => {
      const op = opById(sample.op);
      const auth = op.access === 'public' ? null : owner;
      const res = await call(op.method, op.path, { params: ids, body: sample.body, query: sample.query, auth });
      const refused = res.status === 400 && res.body.code === 'validation_failed';
      const documented = documentAccepts(operationAt(op.method, op.path), sample);
      expect({ route: !refused, document: documented }).toEqual({ route: sample.valid, document: sample.valid });
    },
  );

  // Bodies read raw are another sender's format (Stripe's events, EventBridge's envelopes), checked by their handler.
  const withBody = OPERATIONS.filter((op) => op.body && !op.rawInput);
  it.each(withBody.map((op) => [op.operationId, op] as const))(
    '%s refuses unknown body fields, as documented',
    async (_id, op) => {
      const body = { zz_unknown: 1 };
      const res = await call(op.method, op.path, { params: ids, body, auth: op.access === 'public' ? null : owner });
      expect(res.status).toBe(400);
      expect(res.body.details).toContainEqual({ field: 'zz_unknown', message: 'unknown field' });
      expect(documentAccepts(operationAt(op.method, op.path), { op: op.operationId, body, valid: false })).toBe(false);
    },
  );

  const strictQueries = OPERATIONS.filter((op) => op.query?._zod.def.catchall?._zod.def.type === 'never');
  it.each(strictQueries.map((op) => [op.operationId, op] as const))(
    '%s refuses unknown query parameters',
    async (_id, op) => {
      const res = await call(op.method, op.path, {
        params: ids,
        query: { zz_unknown: '1' },
        auth: op.access === 'public' ? null : owner,
      });
      expect(res.status).toBe(400);
      expect(res.body.details).toContainEqual({ field: 'zz_unknown', message: 'unknown field' });
    },
  );
});

describe('answers', () => {
  it('match the document across the account flow', async () => {
    await call('get', '/healthz', { auth: null });
    await call('get', '/readyz', { auth: null });
    await call('get', '/billing/plans', { auth: null });
    await call('get', '/me');
    await call('get', '/me', { auth: null });
    const login = await call('post', '/auth/login', {
      auth: null,
      body: { email: owner.email, password: owner.password },
    });
    await call('post', '/auth/refresh', { auth: null, body: { refresh_token: login.body.refresh_token } });
    await call('post', '/auth/login', { auth: null, body: { email: owner.email, password: 'wrong-password' } });

    const account = '555555555555';
    await call('post', '/accounts', { body: { aws_account_id: account, display_name: 'Flow' } });
    await call('post', '/accounts', { body: { aws_account_id: account } });
    await call('post', '/accounts/{account_id}/scan', { params: { account_id: account } });
    const verified = await call('post', '/accounts/{account_id}/verify', { params: { account_id: account } });
    await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
    await call('post', '/accounts/{account_id}/verify', { params: { account_id: account } });
    await call('post', '/accounts/{account_id}/scan', { params: { account_id: account } });
    await call('get', '/accounts');
    for (const p of ['', '/signals', '/score-history', '/recovery-checklist', '/export', '/checks']) {
      await call('get', `/accounts/{account_id}${p}`, { params: { account_id: account } });
      await call('get', `/accounts/{account_id}${p}`, { params: { account_id: '999999999998' } });
    }
    const signals = await call('get', '/accounts/{account_id}/signals', {
      params: { account_id: account },
      query: { limit: '1' },
    });
    expect(signals.body).toMatchObject({ count: 1, next_token: expect.any(String) });
    const nextPage = { next_token: signals.body.next_token };
    await call('get', '/accounts/{account_id}/signals', { params: { account_id: account }, query: nextPage });
    await call('get', '/accounts/{account_id}/signals', {
      params: { account_id: account },
      query: { next_token: 'garbage' },
    });

    const panic = await call('post', '/accounts/{account_id}/panic', { params: { account_id: account } });
    const link = new URL(panic.body.download_url);
    const download = await call('get', '/exports/{export_id}/download', {
      auth: null,
      params: { export_id: panic.body.export_id },
      query: Object.fromEntries(link.searchParams),
      raw: true,
    });
    expect(download.status).toBe(200);
    await call('get', '/exports/{export_id}/download', {
      auth: null,
      params: { export_id: panic.body.export_id },
      query: { expires: '1', signature: 'forged' },
    });

    const rules = await call('get', '/alert-rules');
    const ruleId = rules.body.rules[0]?.rule_id as string;
    await call('patch', '/alert-rules/{rule_id}', { params: { rule_id: ruleId }, body: { min_srs: 100 } });
    await call('get', '/alerts');
    await call('post', '/alerts/{alert_id}/ack', { params: { alert_id: 'alrt_01NOTHING0000000000000000' } });
    await call('delete', '/alert-rules/{rule_id}', { params: { rule_id: ruleId } });
    await call('delete', '/alert-rules/{rule_id}', { params: { rule_id: ruleId } });

    const users = await call('get', '/users');
    const invited = users.body.users.find((u: { status: string }) => u.status === 'invited');
    await call('post', '/users/{user_id}/resend-invite', { params: { user_id: invited.user_id } });
    await call('patch', '/users/{user_id}', { params: { user_id: owner.userId }, body: { role: 'admin' } });
    await call('delete', '/users/{user_id}', { params: { user_id: invited.user_id } });
    await call('delete', '/users/{user_id}', { params: { user_id: invited.user_id } });

    await call('get', '/integrations/slack');
    await call('get', '/integrations/chat/oauth-start');
    await call('delete', '/integrations/chat/{team_id}', { params: { team_id: 'T0NOTHING' } });
    await call('get', '/webhooks/slack/install', { auth: null, query: { state: 'unknown', code: 'x' } });
    await call('get', '/billing/portal');
    await call('post', '/webhooks/stripe', { auth: null, body: { id: 'evt_1' } });
    await call('delete', '/accounts/{account_id}', { params: { account_id: account } });
    await call('post', '/accounts/{account_id}/scan', { params: { account_id: account } });
    await call('post', '/auth/logout', { auth: null, body: { refresh_token: login.body.refresh_token } });
  });
});
