import request from 'supertest';
import type { z } from 'zod';
import { createApp } from '../../api/app';
import { checkoutOutput, plansOutput, portalOutput } from '../../core/schemas/billing';
import { errorBody } from '../../core/schemas/common';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  testConfig,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { type HttpPeer, type PeerRequest, startHttpPeer } from '../helpers/http-peer';

// Checkout and portal against stripe-mock, which checks every request against Stripe's OpenAPI document (a
// wrong parameter is a 400 there, so a 502 here). A recording peer in front of it shows what was sent.

const STRIPE_KEY = 'sk_test_51BillingSuiteKey';
let stripe: HttpPeer;
let stripeStatuses: number[];
/** What stripe-mock answered, by request: its session ids are new on every create. */
let stripeReplies: { method: string; path: string; body: Record<string, unknown> }[];
let ctx: TestContext;

async function forwardToStripeMock(req: PeerRequest) {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', 'content-type', 'idempotency-key', 'stripe-version']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const res = await fetch(`${process.env.TEST_STRIPE_MOCK_URL}${req.path}`, {
    method: req.method,
    headers,
    body: req.method === 'GET' ? undefined : req.body,
  });
  stripeStatuses.push(res.status);
  const body = (await res.json()) as Record<string, unknown>;
  stripeReplies.push({ method: req.method, path: req.path, body });
  return { status: res.status, body };
}

beforeAll(async () => {
  stripe = await startHttpPeer(forwardToStripeMock);
  ctx = await createTestContext({
    config: {
      STRIPE_SECRET_KEY: STRIPE_KEY,
      STRIPE_API_BASE_URL: stripe.url,
      STRIPE_PRICE_TEAM: 'price_team_monthly',
      STRIPE_PRICE_AGENCY: 'price_agency_monthly',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await stripe.close();
});
beforeEach(() => {
  stripe.handle(forwardToStripeMock);
  stripe.requests.length = 0;
  stripeStatuses = [];
  stripeReplies = [];
});

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

const sent = (path: string) => stripe.requests.filter((r) => r.method === 'POST' && r.path === path);
const storedCustomer = async (tenantId: string) =>
  (await ctx.db.selectFrom('tenants').select('stripe_customer_id').where('id', '=', tenantId).executeTakeFirstOrThrow())
    .stripe_customer_id;
const pendingSession = async (tenantId: string) =>
  (
    await ctx.db
      .selectFrom('tenants')
      .select('pending_checkout_session_id')
      .where('id', '=', tenantId)
      .executeTakeFirstOrThrow()
  ).pending_checkout_session_id;
/** Ids of the sessions stripe-mock created, in order. */
const createdSessions = () =>
  stripeReplies
    .filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')
    .map((r) => r.body.id as string);
const expiredSessions = () =>
  stripe.requests
    .filter((r) => r.method === 'POST' && r.path.endsWith('/expire'))
    .map((r) => /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(r.path)?.[1]);
const checkoutBody = {
  plan_id: 'team',
  success_url: 'https://app.example.com/billing/done?session={CHECKOUT_SESSION_ID}',
  cancel_url: 'https://app.example.com/billing',
};

describe('POST /billing/checkout', () => {
  it("creates the tenant's customer once and a subscription checkout for the plan's price, bound to the tenant", async () => {
    const owner = await signupAndLogin(ctx, 'Checkout Owner');
    const res = await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(200);
    conforms(checkoutOutput, res.body);
    expect(res.body.checkout_url).toMatch(/^https:\/\//);
    expect(stripeStatuses).toEqual([200, 200]); // stripe-mock accepted both requests as valid Stripe API calls

    const customerId = await storedCustomer(owner.tenantId);
    expect(customerId).toMatch(/^cus_/);
    const [customer] = sent('/v1/customers');
    expect(customer!.form).toMatchObject({
      'metadata[tenant_id]': owner.tenantId,
      email: owner.email,
      name: 'Checkout Owner',
    });
    expect(customer!.headers['idempotency-key']).toBe(`sentinel-customer-${owner.tenantId}`);
    expect(customer!.headers.authorization).toBe(`Bearer ${STRIPE_KEY}`);

    const [session] = sent('/v1/checkout/sessions');
    expect(session!.form).toEqual({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: owner.tenantId,
      'line_items[0][price]': 'price_team_monthly',
      'line_items[0][quantity]': '1',
      success_url: checkoutBody.success_url,
      cancel_url: checkoutBody.cancel_url,
      'metadata[tenant_id]': owner.tenantId,
      'metadata[plan_id]': 'team',
      'subscription_data[metadata][tenant_id]': owner.tenantId,
      'subscription_data[metadata][plan_id]': 'team',
    });

    // The next checkout reuses the customer.
    await ctx.http
      .post('/billing/checkout')
      .set(owner.auth)
      .send({ ...checkoutBody, plan_id: 'agency' })
      .expect(200);
    expect(sent('/v1/customers')).toHaveLength(1);
    expect(sent('/v1/checkout/sessions')[1]!.form).toMatchObject({
      customer: customerId,
      'line_items[0][price]': 'price_agency_monthly',
    });
  });

  it('gives concurrent first checkouts of a tenant one customer, and leaves one of their sessions open', async () => {
    const owner = await signupAndLogin(ctx);
    await Promise.all(
      [1, 2, 3].map(() => ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(200)),
    );
    const customerId = await storedCustomer(owner.tenantId);
    // Stripe answers one idempotency key with one customer; every session names the customer that was stored.
    expect(new Set(sent('/v1/customers').map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([`sentinel-customer-${owner.tenantId}`]),
    );
    expect(sent('/v1/checkout/sessions').map((r) => r.form.customer)).toEqual([customerId, customerId, customerId]);
    // The checkouts ran one after the other, each expiring the session opened before it.
    const created = createdSessions();
    expect(new Set(created).size).toBe(3);
    expect(expiredSessions()).toEqual(created.slice(0, 2));
    expect(await pendingSession(owner.tenantId)).toBe(created[2]);
  });

  it("expires the tenant's open session before opening another, so two cannot both be paid", async () => {
    const owner = await signupAndLogin(ctx);
    await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(200);
    const [first] = createdSessions();
    expect(await pendingSession(owner.tenantId)).toBe(first);
    expect(expiredSessions()).toEqual([]);

    await ctx.http
      .post('/billing/checkout')
      .set(owner.auth)
      .send({ ...checkoutBody, plan_id: 'agency' })
      .expect(200);
    expect(expiredSessions()).toEqual([first]);
    // The expiry went out before the new session was created, and stripe-mock took it as a valid call.
    const paths = stripe.requests.map((r) => r.path);
    expect(paths.indexOf(`/v1/checkout/sessions/${first}/expire`)).toBeLessThan(
      paths.lastIndexOf('/v1/checkout/sessions'),
    );
    expect(stripeStatuses.every((status) => status === 200)).toBe(true);
    const [, second] = createdSessions();
    expect(await pendingSession(owner.tenantId)).toBe(second);
  });

  /** Stripe's answer to expiring a session that is no longer open, and the session in that state. */
  const notOpen = (status: 'complete' | 'expired') => async (req: PeerRequest) => {
    if (req.path.endsWith('/expire')) {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${status}\`.`,
          },
        },
      };
    }
    const reply = await forwardToStripeMock(req);
    return req.method === 'GET' ? { ...reply, body: { ...reply.body, status } } : reply;
  };

  it('answers 409 when the open session was paid before its webhook arrived, opening no other', async () => {
    const owner = await signupAndLogin(ctx);
    await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(200);
    const [paid] = createdSessions();
    stripe.handle(notOpen('complete'));
    const res = await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(409);
    expect(res.body).toEqual({ error: expect.any(String), code: 'conflict' });
    expect(stripe.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([
      `/v1/checkout/sessions/${paid}`,
    ]);
    expect(sent('/v1/checkout/sessions')).toHaveLength(1);
    expect(await pendingSession(owner.tenantId)).toBe(paid);
  });

  it('opens a new session when the previous one has expired already', async () => {
    const owner = await signupAndLogin(ctx);
    await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(200);
    stripe.handle(notOpen('expired'));
    await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(200);
    const [, second] = createdSessions();
    expect(second).toEqual(expect.any(String));
    expect(await pendingSession(owner.tenantId)).toBe(second);
  });

  it('answers 502 and opens no session when the previous one cannot be expired', async () => {
    const owner = await signupAndLogin(ctx);
    await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(200);
    const [first] = createdSessions();
    stripe.handle((req) =>
      req.path.endsWith('/expire') ? { status: 500, body: { error: { type: 'api_error' } } } : forwardToStripeMock(req),
    );
    const res = await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(502);
    expect(res.body.code).toBe('upstream_failed');
    expect(sent('/v1/checkout/sessions')).toHaveLength(1);
    expect(await pendingSession(owner.tenantId)).toBe(first);
  });

  it.each([
    ['a javascript: success_url', { ...checkoutBody, success_url: 'javascript:alert(1)' }, 'success_url'],
    ['an ftp cancel_url', { ...checkoutBody, cancel_url: 'ftp://example.com/x' }, 'cancel_url'],
    ['a success_url that is no URL', { ...checkoutBody, success_url: 'back to the app' }, 'success_url'],
    [
      'a cancel_url over 2048 characters',
      { ...checkoutBody, cancel_url: `https://example.com/${'a'.repeat(2040)}` },
      'cancel_url',
    ],
    ['an unknown plan', { ...checkoutBody, plan_id: 'free' }, 'plan_id'],
    ['a plan without a Stripe price', { ...checkoutBody, plan_id: 'enterprise' }, 'plan_id'],
    ['a missing cancel_url', { plan_id: 'team', success_url: checkoutBody.success_url }, 'cancel_url'],
    ['an unknown field', { ...checkoutBody, price: 'price_cheap' }, 'price'],
  ])('rejects %s with 400 without calling Stripe', async (_label, body, field) => {
    const owner = await signupAndLogin(ctx);
    const res = await ctx.http.post('/billing/checkout').set(owner.auth).send(body).expect(400);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(stripe.requests).toHaveLength(0);
    expect(await storedCustomer(owner.tenantId)).toBeNull();
  });

  it("answers 502 when Stripe refuses, naming neither the key nor Stripe's message", async () => {
    const owner = await signupAndLogin(ctx);
    stripe.handle(() => ({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such price: 'price_team_monthly' (key ${STRIPE_KEY})`,
        },
      },
    }));
    const res = await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(502);
    expect(res.body).toEqual({ error: expect.any(String), code: 'upstream_failed' });
    expect(res.body.error).not.toMatch(/sk_test|price_team|No such/);
    expect(await storedCustomer(owner.tenantId)).toBeNull();
  });
});

describe('GET /billing/portal', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await signupAndLogin(ctx);
  });

  it('answers 409 before the tenant has a billing customer', async () => {
    const res = await ctx.http.get('/billing/portal').set(owner.auth).expect(409);
    expect(res.body).toEqual({ error: expect.any(String), code: 'no_billing_customer' });
    expect(stripe.requests).toHaveLength(0);
  });

  it("opens a portal session for the tenant's customer, returning to the app by default", async () => {
    await ctx.http.post('/billing/checkout').set(owner.auth).send(checkoutBody).expect(200);
    const res = await ctx.http.get('/billing/portal').set(owner.auth).expect(200);
    conforms(portalOutput, res.body);
    expect(res.body.portal_url).toMatch(/^https:\/\//);
    // stripe-mock's fixture address holds `{SESSION_SECRET}`; the answer is a valid URI all the same (found by fuzzing).
    expect(res.body.portal_url).not.toMatch(/[{}]/);
    expect(new URL(res.body.portal_url).href).toBe(res.body.portal_url);
    const [portal] = sent('/v1/billing_portal/sessions');
    expect(portal!.form).toEqual({
      customer: await storedCustomer(owner.tenantId),
      return_url: 'http://localhost:3000/app/billing',
    });
    expect(stripeStatuses.at(-1)).toBe(200);
  });

  it('returns to a caller-chosen http(s) return_url, and refuses others', async () => {
    await ctx.http
      .get('/billing/portal')
      .query({ return_url: 'https://app.example.com/settings' })
      .set(owner.auth)
      .expect(200);
    expect(sent('/v1/billing_portal/sessions')[0]!.form.return_url).toBe('https://app.example.com/settings');
    const bad = await ctx.http
      .get('/billing/portal')
      .query({ return_url: 'javascript:alert(1)' })
      .set(owner.auth)
      .expect(400);
    expect(bad.body.details).toEqual([{ field: 'return_url', message: expect.any(String) }]);
    await ctx.http.get('/billing/portal').query({ next: 'x' }).set(owner.auth).expect(400);
  });
});

describe('billing roles', () => {
  it.each(['admin', 'member', 'viewer'] as const)('refuses checkout and portal to the %s with 403', async (role) => {
    const owner = await signupAndLogin(ctx);
    const user = await addUserWithRole(ctx, owner.tenantId, role);
    expect((await ctx.http.post('/billing/checkout').set(user.auth).send(checkoutBody).expect(403)).body.code).toBe(
      'forbidden',
    );
    expect((await ctx.http.get('/billing/portal').set(user.auth).expect(403)).body.code).toBe('forbidden');
    expect(stripe.requests).toHaveLength(0);
  });

  it('needs a bearer token', async () => {
    await ctx.http.post('/billing/checkout').send(checkoutBody).expect(401);
    await ctx.http.get('/billing/portal').expect(401);
  });
});

describe('without Stripe keys (the embedded default)', () => {
  it('answers 503 billing_not_configured on checkout, portal and the webhook, and still lists plans', async () => {
    const bare = request(createApp({ ...ctx, config: testConfig({ DATABASE_URL: ctx.database.url }) }));
    const owner = await signupAndLogin(bare);
    const checkout = await bare.post('/billing/checkout').set(owner.auth).send({ plan_id: 'nonsense' }).expect(503);
    expect(checkout.body).toEqual({ error: expect.any(String), code: 'billing_not_configured' });
    expect((await bare.get('/billing/portal').set(owner.auth).expect(503)).body.code).toBe('billing_not_configured');
    const webhook = await bare
      .post('/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=00')
      .send('{"id":"evt_1"}')
      .expect(503);
    expect(webhook.body.code).toBe('billing_not_configured');
    conforms(plansOutput, (await bare.get('/billing/plans').expect(200)).body);
    // Roles still come first: a viewer learns nothing about the configuration.
    const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
    await bare.get('/billing/portal').set(viewer.auth).expect(403);
  });
});
