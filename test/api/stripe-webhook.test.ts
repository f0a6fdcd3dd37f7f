import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Writable } from 'node:stream';
import { Client, Connection } from '@temporalio/client';
import express from 'express';
import Stripe from 'stripe';
import request from 'supertest';
import type { z } from 'zod';
import { createApp } from '../../api/app';
import { stripeWebhookOutput } from '../../core/schemas/billing';
import { accountWorkflowId } from '../../workflows/contracts';
import { createLogger } from '../../config/logger';
import { getPlan, type PlanId } from '../../domain/tenancy/plans';
import { freePort } from '../../scripts/local-services';
import { stateQuery } from '../../workflows/contracts';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

// Webhook payloads are built from stripe-mock's fixtures (real Stripe object shapes) and signed with the
// Stripe library's own test-header helper. The suite runs a real worker, so plan changes reach real workflows.

const SECRET = 'whsec_webhook_suite_secret';
const PRICES: Partial<Record<PlanId, string>> = { team: 'price_team_monthly', agency: 'price_agency_monthly' };
const STRIPE_KEY = 'sk_test_51WebhookSuiteKey';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({
    withWorker: true,
    config: {
      CLOUD_PROVIDER: 'sandbox',
      STRIPE_SECRET_KEY: STRIPE_KEY,
      STRIPE_API_BASE_URL: process.env.TEST_STRIPE_MOCK_URL as string,
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_PRICE_TEAM: PRICES.team as string,
      STRIPE_PRICE_AGENCY: PRICES.agency as string,
    },
  });
});
afterAll(() => ctx.close());

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

async function fixture(path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${process.env.TEST_STRIPE_MOCK_URL}/v1/${path}`, {
    headers: { Authorization: `Bearer ${STRIPE_KEY}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const uid = (prefix: string) => `${prefix}_test${randomBytes(8).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

interface StripeEventPayload {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

function stripeEvent(type: string, object: Record<string, unknown>, created = nowSeconds()): StripeEventPayload {
  return {
    id: uid('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  } as StripeEventPayload;
}

function signed(payload: string, { secret = SECRET, timestamp }: { secret?: string; timestamp?: number } = {}): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

function deliver(event: StripeEventPayload, http = ctx.http) {
  const payload = JSON.stringify(event, null, 2);
  return http
    .post('/webhooks/stripe')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', signed(payload))
    .send(payload);
}

/** A tenant that went through checkout: its Stripe customer is stored, as after POST /billing/checkout. */
async function subscriber(): Promise<TestUser & { customerId: string; subscriptionId: string }> {
  const owner = await signupAndLogin(ctx);
  const checkout = {
    plan_id: 'team',
    success_url: 'https://app.example.com/done',
    cancel_url: 'https://app.example.com/billing',
  };
  await ctx.http.post('/billing/checkout').set(owner.auth).send(checkout).expect(200);
  const { stripe_customer_id: customerId } = await ctx.db
    .selectFrom('tenants')
    .select('stripe_customer_id')
    .where('id', '=', owner.tenantId)
    .executeTakeFirstOrThrow();
  return { ...owner, customerId: customerId as string, subscriptionId: uid('sub') };
}

async function checkoutCompleted(user: { tenantId: string; customerId: string; subscriptionId: string }, plan: PlanId) {
  return stripeEvent('checkout.session.completed', {
    ...(await fixture('checkout/sessions/cs_fixture')),
    id: uid('cs'),
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    customer: user.customerId,
    client_reference_id: user.tenantId,
    subscription: user.subscriptionId,
    metadata: { tenant_id: user.tenantId, plan_id: plan },
  });
}

async function subscriptionObject(
  user: { tenantId: string; customerId: string; subscriptionId: string },
  {
    plan,
    status,
    metadata = { tenant_id: user.tenantId },
  }: { plan: PlanId; status: string; metadata?: Record<string, string> },
) {
  const sub = await fixture(`subscriptions/${user.subscriptionId}`);
  const items = sub.items as { data: Record<string, unknown>[] };
  const item = items.data[0]!;
  return {
    ...sub,
    id: user.subscriptionId,
    customer: user.customerId,
    status,
    metadata,
    items: {
      ...items,
      data: [
        {
          ...item,
          subscription: user.subscriptionId,
          price: { ...(item.price as object), id: PRICES[plan] ?? `price_${plan}` },
        },
      ],
    },
  };
}

/** customer.subscription.updated / deleted, created a second from now unless told (after the checkout). */
async function subscriptionEvent(
  change: 'updated' | 'deleted',
  user: { tenantId: string; customerId: string; subscriptionId: string },
  state: { plan: PlanId; status: string; metadata?: Record<string, string> },
  created = nowSeconds() + 1,
) {
  return stripeEvent(`customer.subscription.${change}`, await subscriptionObject(user, state), created);
}

async function paymentFailed(user: { tenantId: string; customerId: string; subscriptionId: string }) {
  return stripeEvent('invoice.payment_failed', {
    ...(await fixture('invoices/in_fixture')),
    id: uid('in'),
    customer: user.customerId,
    status: 'open',
    attempted: true,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: { tenant_id: user.tenantId }, subscription: user.subscriptionId },
    },
  });
}

async function tenant(tenantId: string) {
  return ctx.db.selectFrom('tenants').select(['plan', 'status']).where('id', '=', tenantId).executeTakeFirstOrThrow();
}

const pendingSession = async (tenantId: string) =>
  (
    await ctx.db
      .selectFrom('tenants')
      .select('pending_checkout_session_id')
      .where('id', '=', tenantId)
      .executeTakeFirstOrThrow()
  ).pending_checkout_session_id;

/** An app whose log lines (parsed) land in the returned array. */
function loggedApp() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = createApp({ ...ctx, log: createLogger({ level: 'debug', name: 'test', destination }) });
  return { app, http: request(app), lines };
}

const subscriptionRow = (id: string) =>
  ctx.db.selectFrom('stripe_subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const recorded = async (eventId: string) =>
  (await ctx.db.selectFrom('stripe_events').select('id').where('id', '=', eventId).execute()).length;

describe('POST /webhooks/stripe applies billing events to the tenant', () => {
  it('checkout.session.completed puts the tenant on the plan bought, active, visible in GET /me', async () => {
    const user = await subscriber();
    const res = await deliver(await checkoutCompleted(user, 'agency')).expect(200);
    conforms(stripeWebhookOutput, res.body);
    expect(res.body).toEqual({ received: true });
    expect(await tenant(user.tenantId)).toEqual({ plan: 'agency', status: 'active' });
    const me = await ctx.http.get('/me').set(user.auth).expect(200);
    expect(me.body.tenant).toMatchObject({ plan: 'agency', status: 'active' });
    expect(await subscriptionRow(user.subscriptionId)).toMatchObject({
      tenant_id: user.tenantId,
      plan: 'agency',
      status: 'active',
    });
  });

  it("customer.subscription.updated takes the plan from the price and the status from Stripe's", async () => {
    const user = await subscriber();
    await deliver(await checkoutCompleted(user, 'team')).expect(200);
    const t0 = nowSeconds();
    const steps: [PlanId, string, { plan: string; status: string }][] = [
      ['agency', 'active', { plan: 'agency', status: 'active' }],
      ['agency', 'past_due', { plan: 'agency', status: 'past_due' }],
      ['team', 'trialing', { plan: 'team', status: 'active' }],
      ['team', 'unpaid', { plan: 'team', status: 'past_due' }],
      ['team', 'incomplete', { plan: 'team', status: 'past_due' }],
      ['team', 'paused', { plan: 'team', status: 'past_due' }],
      ['team', 'active', { plan: 'team', status: 'active' }],
    ];
    for (const [i, [plan, status, expected]] of steps.entries()) {
      await deliver(await subscriptionEvent('updated', user, { plan, status }, t0 + i + 1)).expect(200);
      expect(await tenant(user.tenantId)).toEqual(expected);
    }
    expect((await subscriptionRow(user.subscriptionId)).current_period_end).toBeInstanceOf(Date);
  });

  it.each(['canceled', 'incomplete_expired'])(
    'customer.subscription.updated to %s ends the subscription: solo, canceled',
    async (status) => {
      const user = await subscriber();
      await deliver(await checkoutCompleted(user, 'agency')).expect(200);
      await deliver(await subscriptionEvent('updated', user, { plan: 'agency', status }, nowSeconds() + 1)).expect(200);
      expect(await tenant(user.tenantId)).toEqual({ plan: 'solo', status: 'canceled' });
    },
  );

  it('finds the tenant by its Stripe customer when the metadata does not name it', async () => {
    const user = await subscriber();
    await deliver(await checkoutCompleted(user, 'team')).expect(200);
    await deliver(await subscriptionEvent('updated', user, { plan: 'agency', status: 'active', metadata: {} })).expect(
      200,
    );
    expect((await tenant(user.tenantId)).plan).toBe('agency');
  });

  it('invoice.payment_failed marks the tenant past_due, keeping its plan', async () => {
    const user = await subscriber();
    await deliver(await checkoutCompleted(user, 'team')).expect(200);
    await deliver(await paymentFailed(user)).expect(200);
    expect(await tenant(user.tenantId)).toEqual({ plan: 'team', status: 'past_due' });
  });

  it('customer.subscription.deleted puts the tenant back on solo, canceled, and allows a new checkout', async () => {
    const user = await subscriber();
    await deliver(await checkoutCompleted(user, 'team')).expect(200);
    // A subscribed tenant changes plans in the portal: a second subscription would bill twice.
    const again = {
      plan_id: 'agency',
      success_url: 'https://app.example.com/done',
      cancel_url: 'https://app.example.com/billing',
    };
    expect((await ctx.http.post('/billing/checkout').set(user.auth).send(again).expect(409)).body.code).toBe(
      'conflict',
    );

    await deliver(await subscriptionEvent('deleted', user, { plan: 'team', status: 'canceled' })).expect(200);
    expect(await tenant(user.tenantId)).toEqual({ plan: 'solo', status: 'canceled' });
    expect((await ctx.http.get('/me').set(user.auth).expect(200)).body.tenant).toMatchObject({
      plan: 'solo',
      status: 'canceled',
    });
    await ctx.http.post('/billing/checkout').set(user.auth).send(again).expect(200);
  });

  it('records unknown event types and events of unknown tenants with 200, changing nothing', async () => {
    const user = await subscriber();
    const customer = await fixture(`customers/${user.customerId}`);
    const unknownType = stripeEvent('customer.created', { ...customer, metadata: { tenant_id: user.tenantId } });
    expect((await deliver(unknownType).expect(200)).body).toEqual({ received: true });
    const stranger = { tenantId: 'ten_nobody', customerId: 'cus_nobody', subscriptionId: uid('sub') };
    const orphan = await checkoutCompleted(stranger, 'enterprise');
    expect((await deliver(orphan).expect(200)).body).toEqual({ received: true });
    expect(await recorded(unknownType.id)).toBe(1);
    expect(await recorded(orphan.id)).toBe(1);
    expect(await tenant(user.tenantId)).toEqual({ plan: 'solo', status: 'active' });
    expect(
      await ctx.db.selectFrom('stripe_subscriptions').select('id').where('id', '=', stranger.subscriptionId).execute(),
    ).toHaveLength(0);
  });
});

describe("the tenant's open checkout session", () => {
  async function sessionEvent(
    type: 'completed' | 'expired',
    user: Awaited<ReturnType<typeof subscriber>>,
    sessionId: string,
  ) {
    return stripeEvent(`checkout.session.${type}`, {
      ...(await fixture('checkout/sessions/cs_fixture')),
      id: sessionId,
      mode: 'subscription',
      status: type === 'completed' ? 'complete' : 'expired',
      customer: user.customerId,
      client_reference_id: user.tenantId,
      subscription: type === 'completed' ? user.subscriptionId : null,
      metadata: { tenant_id: user.tenantId, plan_id: 'team' },
    });
  }

  it('is forgotten when checkout.session.expired reports it, and not for another session', async () => {
    const user = await subscriber();
    const open = await pendingSession(user.tenantId);
    expect(open).toMatch(/^cs_/);
    expect((await deliver(await sessionEvent('expired', user, uid('cs'))).expect(200)).body).toEqual({
      received: true,
    });
    expect(await pendingSession(user.tenantId)).toBe(open);
    await deliver(await sessionEvent('expired', user, open as string)).expect(200);
    expect(await pendingSession(user.tenantId)).toBeNull();
    expect(await tenant(user.tenantId)).toEqual({ plan: 'solo', status: 'active' });
  });

  it('is forgotten when checkout.session.completed reports it, which also starts the subscription', async () => {
    const user = await subscriber();
    const open = await pendingSession(user.tenantId);
    await deliver(await sessionEvent('completed', user, open as string)).expect(200);
    expect(await pendingSession(user.tenantId)).toBeNull();
    expect(await tenant(user.tenantId)).toEqual({ plan: 'team', status: 'active' });
  });
});

describe('replays and ordering', () => {
  it('applies an event once: a replay answers duplicate and cannot roll a later change back', async () => {
    const user = await subscriber();
    await deliver(await checkoutCompleted(user, 'team')).expect(200);
    const toAgency = await subscriptionEvent('updated', user, { plan: 'agency', status: 'active' }, nowSeconds() + 1);
    const toTeam = await subscriptionEvent('updated', user, { plan: 'team', status: 'active' }, nowSeconds() + 2);
    await deliver(toAgency).expect(200);
    await deliver(toTeam).expect(200);
    const replay = await deliver(toAgency).expect(200);
    conforms(stripeWebhookOutput, replay.body);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect((await tenant(user.tenantId)).plan).toBe('team');
    expect(await recorded(toAgency.id)).toBe(1);
  });

  it('ignores an older event that arrives after a newer one for the same subscription', async () => {
    const user = await subscriber();
    await deliver(await checkoutCompleted(user, 'team')).expect(200);
    const t = nowSeconds();
    const newer = await subscriptionEvent('updated', user, { plan: 'agency', status: 'active' }, t + 20);
    const older = await subscriptionEvent('updated', user, { plan: 'team', status: 'past_due' }, t + 10);
    await deliver(newer).expect(200);
    await deliver(older).expect(200);
    expect(await tenant(user.tenantId)).toEqual({ plan: 'agency', status: 'active' });
  });
});

describe('signature verification', () => {
  let user: Awaited<ReturnType<typeof subscriber>>;
  let payload: string;
  let eventId: string;
  beforeAll(async () => {
    user = await subscriber();
    const event = await checkoutCompleted(user, 'agency');
    eventId = event.id;
    payload = JSON.stringify(event);
  });
  const post = () => ctx.http.post('/webhooks/stripe').set('Content-Type', 'application/json');

  it.each([
    [
      'a tampered body',
      () => post().set('Stripe-Signature', signed(payload)).send(payload.replace('"agency"', '"enterprise"')),
    ],
    [
      'a signature made with another secret',
      () =>
        post()
          .set('Stripe-Signature', signed(payload, { secret: 'whsec_other' }))
          .send(payload),
    ],
    [
      'a timestamp 10 minutes old',
      () =>
        post()
          .set('Stripe-Signature', signed(payload, { timestamp: nowSeconds() - 600 }))
          .send(payload),
    ],
    ['no Stripe-Signature header', () => post().send(payload)],
    ['a malformed header', () => post().set('Stripe-Signature', 'v1=deadbeef').send(payload)],
  ])('refuses %s with 400 invalid_signature and applies nothing', async (_label, send) => {
    const res = await send().expect(400);
    expect(res.body).toEqual({ error: expect.any(String), code: 'invalid_signature' });
    expect(await recorded(eventId)).toBe(0);
    expect(await tenant(user.tenantId)).toEqual({ plan: 'solo', status: 'active' });
  });

  it('refuses a body that is not JSON', async () => {
    const res = await ctx.http
      .post('/webhooks/stripe')
      .set('Content-Type', 'text/plain')
      .set('Stripe-Signature', signed(payload))
      .send(payload)
      .expect(400);
    expect(res.body.code).toBe('unsupported_content_type');
  });

  it('refuses a body over 1 MB', async () => {
    const huge = JSON.stringify({ id: uid('evt'), padding: 'x'.repeat(1_100_000) });
    const res = await post().set('Stripe-Signature', signed(huge)).send(huge).expect(400);
    expect(res.body.code).toBe('body_too_large');
  });

  it('answers 200 to a signed event it cannot read, recording it and logging a warning (Stripe retries a 4xx for days)', async () => {
    const { http, lines } = loggedApp();
    const unreadable = {
      id: uid('evt'),
      object: 'event',
      type: 'customer.subscription.updated',
      data: 'not an object',
    };
    const send = (body: unknown) => {
      const payload = JSON.stringify(body);
      return http
        .post('/webhooks/stripe')
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', signed(payload))
        .send(payload);
    };
    const res = await send(unreadable).expect(200);
    conforms(stripeWebhookOutput, res.body);
    expect(res.body).toEqual({ received: true });
    expect(await recorded(unreadable.id)).toBe(1);
    expect((await send(unreadable).expect(200)).body).toEqual({ received: true, duplicate: true });
    // Without an id there is nothing to record, and still nothing to retry.
    expect((await send(['not', 'an', 'event']).expect(200)).body).toEqual({ received: true });

    const warnings = lines.filter((l) => l.msg === 'signed Stripe webhook that is not a readable event: ignored');
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatchObject({
      level: 40,
      stripeEventId: unreadable.id,
      stripeEventType: unreadable.type,
      invalidFields: ['created', 'data'],
    });
    expect(await tenant(user.tenantId)).toEqual({ plan: 'solo', status: 'active' });
  });

  it('refuses a body it cannot decode with 400, not 500', async () => {
    const res = await post()
      .set('Content-Encoding', 'gzip')
      .set('Stripe-Signature', signed(payload))
      .send('this is not gzip')
      .expect(400);
    expect(res.body).toEqual({ error: expect.any(String), code: 'invalid_json' });
  });

  it("answers an aborted delivery as the client's doing (400), not as a server error", async () => {
    const { app, lines } = loggedApp();
    // The client is gone before the answer: the response object shows what the API decided.
    let answer: ServerResponse | undefined;
    const outer = express()
      .use((_req, res, next) => {
        answer = res;
        next();
      })
      .use(app);
    const server = outer.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /webhooks/stripe HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}` +
          `\r\nStripe-Signature: ${signed(payload)}\r\n\r\n${payload.slice(0, 10)}`,
      );
      for (let i = 0; i < 200 && !answer; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      socket.destroy(); // hang up in the middle of the body
      for (let i = 0; i < 200 && answer?.statusCode === 200; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(answer?.statusCode).toBe(400);
      expect(lines.filter((l) => l.msg === 'unhandled error')).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('accepts the same payload correctly signed', async () => {
    await post().set('Stripe-Signature', signed(payload)).send(payload).expect(200);
    expect(await tenant(user.tenantId)).toEqual({ plan: 'agency', status: 'active' });
  });
});

describe('plan changes reach the account workflows', () => {
  const interval = async (tenantId: string, awsAccountId: string) =>
    (await ctx.temporal.workflow.getHandle(accountWorkflowId(tenantId, awsAccountId)).query(stateQuery))
      .scanIntervalMinutes;

  it('re-times every account on upgrade and downgrade; over the new limit, accounts keep scanning but none can be added', async () => {
    const user = await subscriber();
    await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: '210987654321' }).expect(201);
    await ctx.http.post('/accounts/210987654321/verify').set(user.auth).expect(200);
    expect(await interval(user.tenantId, '210987654321')).toBe(getPlan('solo').scan_interval_minutes);
    // Solo allows one account.
    const overLimit = await ctx.http
      .post('/accounts')
      .set(user.auth)
      .send({ aws_account_id: '210987654322' })
      .expect(403);
    expect(overLimit.body.code).toBe('plan_limit_exceeded');

    await deliver(await checkoutCompleted(user, 'agency')).expect(200);
    expect(await interval(user.tenantId, '210987654321')).toBe(getPlan('agency').scan_interval_minutes);
    await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: '210987654322' }).expect(201); // PENDING
    expect(await interval(user.tenantId, '210987654322')).toBe(getPlan('agency').scan_interval_minutes);

    await deliver(await subscriptionEvent('deleted', user, { plan: 'agency', status: 'canceled' })).expect(200);
    expect(await tenant(user.tenantId)).toEqual({ plan: 'solo', status: 'canceled' });
    for (const id of ['210987654321', '210987654322'])
      expect(await interval(user.tenantId, id)).toBe(getPlan('solo').scan_interval_minutes);
    const accounts = (await ctx.http.get('/accounts').set(user.auth).expect(200)).body.accounts as { status: string }[];
    expect(accounts.map((a) => a.status).sort()).toEqual(['ACTIVE', 'PENDING']);
    const refused = await ctx.http
      .post('/accounts')
      .set(user.auth)
      .send({ aws_account_id: '210987654323' })
      .expect(403);
    expect(refused.body.code).toBe('plan_limit_exceeded');
  });

  it("sends each plan with its revision: a workflow holds the tenant's newest, and a replay changes nothing", async () => {
    const user = await subscriber();
    await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: '260987654321' }).expect(201);
    await ctx.http.post('/accounts/260987654321/verify').set(user.auth).expect(200);
    const handle = ctx.temporal.workflow.getHandle(accountWorkflowId(user.tenantId, '260987654321'));
    const revision = async () =>
      (
        await ctx.db
          .selectFrom('tenants')
          .select('plan_revision')
          .where('id', '=', user.tenantId)
          .executeTakeFirstOrThrow()
      ).plan_revision;
    expect((await handle.query(stateQuery)).planRevision).toBe(await revision());

    const upgrade = await checkoutCompleted(user, 'team');
    await deliver(upgrade).expect(200);
    const upgraded = await revision();
    expect(await handle.query(stateQuery)).toMatchObject({
      planRevision: upgraded,
      scanIntervalMinutes: getPlan('team').scan_interval_minutes,
    });
    await deliver(upgrade).expect(200); // replayed: the same revision again
    expect(await revision()).toBe(upgraded);
    expect((await handle.query(stateQuery)).planRevision).toBe(upgraded);
  });

  it('skips workflows that have ended', async () => {
    const user = await subscriber();
    await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: '310987654321' }).expect(201);
    await ctx.http.post('/accounts/310987654321/verify').set(user.auth).expect(200);
    // The row still says ACTIVE while its workflow is gone (terminated by an operator, say).
    await ctx.temporal.workflow.getHandle(accountWorkflowId(user.tenantId, '310987654321')).terminate('test');
    await deliver(await checkoutCompleted(user, 'team')).expect(200);
    expect((await tenant(user.tenantId)).plan).toBe('team');
  });

  describe('while Temporal is unreachable', () => {
    let temporal: Client;
    beforeAll(async () => {
      const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}`, connectTimeout: 1_000 });
      temporal = new Client({ connection });
    });
    afterAll(() => temporal.connection.close().catch(() => undefined));

    it('answers 503 so Stripe retries, and the retried delivery brings the workflows to the plan', async () => {
      const user = await subscriber();
      await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: '410987654321' }).expect(201);
      await ctx.http.post('/accounts/410987654321/verify').set(user.auth).expect(200);
      const upgrade = await checkoutCompleted(user, 'enterprise');
      const withoutTemporal = request(createApp({ ...ctx, temporal }));
      expect((await deliver(upgrade, withoutTemporal).expect(503)).body.code).toBe('temporal_unavailable');
      expect(await interval(user.tenantId, '410987654321')).toBe(getPlan('solo').scan_interval_minutes);

      expect((await deliver(upgrade).expect(200)).body).toEqual({ received: true, duplicate: true });
      expect(await interval(user.tenantId, '410987654321')).toBe(getPlan('enterprise').scan_interval_minutes);
      expect(await tenant(user.tenantId)).toEqual({ plan: 'enterprise', status: 'active' });
    });
  });
});
