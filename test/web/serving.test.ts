import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { errorHandler, routeNotFound } from '../../api/middleware/errors';
import { dashboardRouter } from '../../api/routes/dashboard';
import { TRPC_MAX_BATCH } from '../../api/trpc/limits';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

// How the API serves the dashboard and its tRPC endpoint over HTTP (the browser test drives the real build;
// here a stand-in build shows each serving rule on its own), and what /trpc answers on the wire.

const INDEX = '<!doctype html><title>Sentinel</title><div id="root"></div>';

/** The dashboard router alone, on an app with the API's 404 and error handling, serving `dist`. */
function appServing(dist: string) {
  const app = express();
  app.use(dashboardRouter(dist));
  app.use(routeNotFound);
  app.use(errorHandler as express.ErrorRequestHandler);
  return request(app);
}

describe('/app', () => {
  const dist = mkdtempSync(path.join(process.env.TEST_SCRATCH_DIR as string, 'dashboard-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  const http = appServing(dist);

  it.each(['/app', '/app/', '/app/accounts', '/app/accounts/123456789012', '/app/accept-invite', '/app/billing'])(
    'answers %s with the page, under a strict Content-Security-Policy',
    async (url) => {
      const res = await http.get(url).expect(200);
      expect(res.text).toBe(INDEX);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves hashed assets for a year, and a missing one as a JSON 404 rather than the page', async () => {
    const asset = await http.get('/app/assets/index-abc123.js').expect(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await http.get('/app/assets/index-old.js').expect(404);
    expect(missing.body).toEqual({ error: 'No dashboard file /app/assets/index-old.js', code: 'route_not_found' });
  });

  it('does not serve files outside the build', async () => {
    await http.get('/app/assets/..%2f..%2findex.html').expect(404);
    expect((await http.get('/appendix').expect(404)).body.code).toBe('route_not_found');
  });

  it('answers 503 with a clear message when the dashboard was not built', async () => {
    const unbuilt = appServing(path.join(dist, 'nothing-here'));
    for (const url of ['/app', '/app/accounts/123456789012']) {
      const res = await unbuilt.get(url).expect(503);
      expect(res.body).toEqual({ error: expect.stringContaining('npm run build:web'), code: 'dashboard_not_built' });
    }
  });
});

describe('/trpc over HTTP', () => {
  let ctx: TestContext;
  let owner: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext();
    owner = await signupAndLogin(ctx, 'Wire Owner');
  });
  afterAll(() => ctx.close());

  it('answers a public query without a token', async () => {
    const res = await ctx.http.get('/trpc/billing.plans').expect(200);
    expect(res.body.result.data.plans).toHaveLength(4);
  });

  it('answers 401 with the REST code and message when the token is missing', async () => {
    const res = await ctx.http.get('/trpc/me.get').expect(401);
    expect(res.body.error).toMatchObject({
      message: 'Missing or invalid bearer token',
      data: { code: 'unauthorized', httpStatus: 401 },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/stack/);
  });

  it('answers a batch of queries with the bearer token', async () => {
    const res = await ctx.http
      .get('/trpc/me.get,accounts.list')
      .query({ batch: '1', input: '{}' })
      .set(owner.auth)
      .expect(200);
    expect(res.body[0].result.data.user).toMatchObject({ email: owner.email, role: 'owner' });
    expect(res.body[1].result.data).toEqual({ accounts: [], total: 0, next_token: null });
  });

  it('answers bad input with 400 validation_failed naming the field, and a wrong id with 404', async () => {
    const bad = await ctx.http
      .post('/trpc/accounts.connect')
      .set(owner.auth)
      .send({ aws_account_id: '12' })
      .expect(400);
    expect(bad.body.error.data).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'aws_account_id', message: 'must be exactly 12 digits' }],
    });
    const missing = await ctx.http
      .get('/trpc/accounts.get')
      .query({ input: JSON.stringify({ account_id: '000000000000' }) })
      .set(owner.auth)
      .expect(404);
    expect(missing.body.error).toMatchObject({ message: 'Account not found', data: { code: 'not_found' } });
  });

  it('answers unknown procedures and malformed bodies with 4xx, never 500', async () => {
    expect((await ctx.http.get('/trpc/nope.nothing').expect(404)).body.error.data.code).toBe('route_not_found');
    const malformed = await ctx.http
      .post('/trpc/auth.login')
      .set('content-type', 'application/json')
      .send('{"email":')
      .expect(400);
    expect(malformed.body.code).toBe('invalid_json');
    expect((await ctx.http.post('/trpc/auth.login').send({}).expect(400)).body.error.data.code).toBe(
      'validation_failed',
    );
  });

  it('answers input that is not JSON, or a batch body that is not an object, with 400 and the REST codes', async () => {
    // Refused before tRPC reads it, like an unreadable request body: the REST error body.
    const unreadable = { error: 'The input query parameter is not valid JSON', code: 'invalid_json' };
    expect((await ctx.http.get('/trpc/accounts.get').query({ input: '{' }).set(owner.auth).expect(400)).body).toEqual(
      unreadable,
    );
    expect(
      (await ctx.http.get('/trpc/me.get,accounts.list').query({ batch: '1', input: '{' }).set(owner.auth).expect(400))
        .body,
    ).toEqual(unreadable);
    const repeated = await ctx.http.get('/trpc/accounts.get?input=%7B%7D&input=%7B%7D').set(owner.auth).expect(400);
    expect(repeated.body.code).toBe('validation_failed');
    for (const body of ['[1,2]', '"text"', '7', 'null']) {
      const res = await ctx.http
        .post('/trpc/auth.login,auth.login')
        .query({ batch: '1' })
        .set('content-type', 'application/json')
        .send(body);
      expect([body, res.status]).toEqual([body, 400]);
      expect(JSON.stringify(res.body)).toMatch(/"code":"(validation_failed|invalid_json)"/);
    }
  });

  it(`refuses a batch of more than ${TRPC_MAX_BATCH} procedures with 400 batch_too_large, running none`, async () => {
    const paths = (n: number) => Array.from({ length: n }, () => 'billing.plans').join(',');
    await ctx.http
      .get(`/trpc/${paths(TRPC_MAX_BATCH)}`)
      .query({ batch: '1', input: '{}' })
      .expect(200);
    const res = await ctx.http
      .get(`/trpc/${paths(TRPC_MAX_BATCH + 1)}`)
      .query({ batch: '1', input: '{}' })
      .expect(400);
    expect(res.body).toEqual({
      error: `A tRPC batch holds at most ${TRPC_MAX_BATCH} procedures`,
      code: 'batch_too_large',
    });
    // Nothing of an oversized batch runs: 30 sign-ups in one request create no tenant.
    const signup = (i: number) => ({
      email: `batch-${i}-${Date.now()}@example.com`,
      password: 'a-long-password',
      name: 'Batch',
    });
    const body = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [String(i), signup(i)]));
    const before = await ctx.db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    await ctx.http
      .post(`/trpc/${Array.from({ length: 30 }, () => 'auth.signup').join(',')}`)
      .query({ batch: '1' })
      .send(body)
      .expect(400);
    const after = await ctx.db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
