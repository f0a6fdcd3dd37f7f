import Stripe from 'stripe';
import type { Config } from '../../config/config';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import { COST_EXPLORER_USD_PER_REQUEST, costExplorerRequestsPerMonth, PLANS } from '../../domain/tenancy/plans';
import {
  findTenantBilling,
  listSubscriptions,
  lockTenantCheckout,
  rememberCheckoutSession,
  storeStripeCustomer,
  type TenantBilling,
} from '../../db/repositories/billing';
import type { AppDeps, Caller } from '../deps';
import { AppError, notFound } from '../errors';
import type { CheckoutInput } from '../schemas/billing';
import { ENDED_SUBSCRIPTION_STATUSES } from './stripe-events';

const clients = new WeakMap<Config['stripe'], Stripe>();

/** The public plan catalogue (`GET /billing/plans`). The internal manual-scan quota is not part of the contract. */
/** The catalogue, with what each plan's scans cost the customer in AWS Cost Explorer requests (see domain/tenancy/plans.ts). */
export function listPlans(config: Readonly<Config>) {
  return {
    plans: PLANS.map(
      ({ id, name, price_usd_month, account_limit, organization_limit, scan_interval_minutes, features }) => {
        const requests = costExplorerRequestsPerMonth({
          scanIntervalMinutes: scan_interval_minutes,
          minIntervalHours: config.cloud.costExplorerMinIntervalHours,
        });
        return {
          id,
          name,
          price_usd_month,
          account_limit,
          organization_limit,
          scan_interval_minutes,
          features,
          aws_cost_explorer_requests_per_account_month: requests,
          aws_cost_explorer_usd_per_account_month: Math.round(requests * COST_EXPLORER_USD_PER_REQUEST * 100) / 100,
        };
      },
    ),
  };
}

/** Billing needs a Stripe key; without one (the embedded default) every billing call is a clear 503. */
export function requireBillingConfigured(config: Readonly<Config>): void {
  if (!config.stripe.secretKey) {
    throw new AppError('billing_not_configured', 'Billing is not configured on this server (no Stripe API key)');
  }
}

/** One client per configuration. STRIPE_API_BASE_URL sends the calls elsewhere (tests use stripe-mock). */
function stripeClient(config: Readonly<Config>): Stripe {
  requireBillingConfigured(config);
  let client = clients.get(config.stripe);
  if (!client) {
    client = new Stripe(config.stripe.secretKey as string, {
      ...apiEndpoint(config.stripe.apiBaseUrl),
      // A checkout is a user waiting in a browser: fail within seconds rather than the library's 80.
      timeout: 10_000,
      maxNetworkRetries: 2,
      telemetry: false,
    });
    clients.set(config.stripe, client);
  }
  return client;
}

function apiEndpoint(baseUrl: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!baseUrl) return {};
  const url = new URL(baseUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/** Any Stripe failure is a 502 whose message names neither the key nor Stripe's own wording. */
function stripeFailure(log: Logger, action: string, err: unknown): unknown {
  if (!(err instanceof Stripe.errors.StripeError)) return err;
  const { type, code, statusCode, requestId } = err;
  log.warn(
    { stripeType: type, stripeCode: code, stripeStatus: statusCode, stripeRequestId: requestId },
    `Stripe could not ${action}`,
  );
  return new AppError('upstream_failed', `The payment provider could not ${action}; try again later`);
}

async function callStripe<T>(log: Logger, action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw stripeFailure(log, action, err);
  }
}

async function requireTenant(db: Db, caller: Caller): Promise<TenantBilling> {
  const tenant = await findTenantBilling({ db, tenantId: caller.tenantId });
  if (!tenant) throw notFound('Tenant');
  return tenant;
}

/**
 * The tenant's Stripe customer, created on its first checkout. The idempotency key is the tenant's, so two
 * concurrent first checkouts get one customer from Stripe; the database keeps the first stored.
 */
async function ensureCustomer(
  { db, log }: AppDeps,
  stripe: Stripe,
  tenant: TenantBilling,
  caller: Caller,
): Promise<string> {
  if (tenant.stripe_customer_id) return tenant.stripe_customer_id;
  const customer = await callStripe(log, 'create the billing customer', () =>
    stripe.customers.create(
      { name: tenant.name, email: caller.email, metadata: { tenant_id: tenant.id } },
      { idempotencyKey: `sentinel-customer-${tenant.id}` },
    ),
  );
  // Of two concurrent first checkouts, both end up with the customer stored first.
  const stored =
    (await storeStripeCustomer({ db, tenantId: tenant.id, customerId: customer.id })) ??
    (await findTenantBilling({ db, tenantId: tenant.id }))?.stripe_customer_id ??
    customer.id;
  log.info({ tenantId: tenant.id, customerId: stored }, 'Stripe customer created');
  return stored;
}

/** A second subscription would bill twice: plan changes of a subscribed tenant go through the portal. */
async function refuseSecondSubscription(db: Db, tenantId: string): Promise<void> {
  const subscriptions = await listSubscriptions({ db, tenantId });
  if (subscriptions.some((s) => !ENDED_SUBSCRIPTION_STATUSES.has(s.status))) {
    throw new AppError(
      'conflict',
      'The tenant already has a subscription; change plans in the billing portal (GET /billing/portal)',
    );
  }
}

/**
 * Expires the tenant's previous Checkout Session, which could otherwise still be paid next to the new one.
 * Stripe refuses to expire a session that is no longer open: one that expired is fine, one that completed
 * has made a subscription whose webhook has not arrived yet (409, as for a subscription we know of).
 */
async function closePreviousCheckout(log: Logger, stripe: Stripe, sessionId: string): Promise<void> {
  try {
    await stripe.checkout.sessions.expire(sessionId);
    return;
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeInvalidRequestError))
      throw stripeFailure(log, 'close the previous checkout', err);
    if (err.code === 'resource_missing') return; // not of this Stripe account: nothing there can be paid
  }
  const previous = await callStripe(log, 'check the previous checkout', () =>
    stripe.checkout.sessions.retrieve(sessionId),
  );
  if (previous.status === 'complete') {
    throw new AppError(
      'conflict',
      'A checkout of this tenant was just paid; change plans in the billing portal (GET /billing/portal)',
    );
  }
  if (previous.status !== 'expired') {
    throw new AppError(
      'upstream_failed',
      'The payment provider could not close the previous checkout; try again later',
    );
  }
}

/**
 * A Checkout Session (subscription mode) for the plan's price, bound to the tenant by customer and metadata.
 * Checkouts of one tenant run one at a time, and each expires the session opened before it, so at most one
 * session of a tenant can be paid until Stripe's webhook records the subscription.
 */
export async function createCheckoutSession(deps: AppDeps, caller: Caller, input: CheckoutInput) {
  const stripe = stripeClient(deps.config);
  const price = deps.config.stripe.prices[input.plan_id];
  if (!price) {
    const message = 'this plan cannot be bought online; contact sales';
    throw new AppError('validation_failed', `Invalid request body: plan_id: ${message}`, {
      details: [{ field: 'plan_id', message }],
    });
  }
  const tenant = await requireTenant(deps.db, caller);
  // Outside the lock, and kept even if the session then fails: the customer is the tenant's from now on.
  const customer = await ensureCustomer(deps, stripe, tenant, caller);
  const metadata = { tenant_id: tenant.id, plan_id: input.plan_id };
  const { session, previous } = await deps.db.transaction().execute(async (trx) => {
    await lockTenantCheckout({ db: trx, tenantId: tenant.id });
    await refuseSecondSubscription(trx, tenant.id);
    const open = (await findTenantBilling({ db: trx, tenantId: tenant.id }))?.pending_checkout_session_id ?? undefined;
    if (open) await closePreviousCheckout(deps.log, stripe, open);
    const created = await callStripe(deps.log, 'start a checkout', () =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: tenant.id,
        line_items: [{ price, quantity: 1 }],
        success_url: input.success_url,
        cancel_url: input.cancel_url,
        metadata,
        subscription_data: { metadata },
      }),
    );
    await rememberCheckoutSession({ db: trx, tenantId: tenant.id, sessionId: created.id });
    return { session: created, previous: open };
  });
  if (!session.url)
    throw new AppError('upstream_failed', 'The payment provider returned no checkout address; try again later');
  deps.log.info(
    { tenantId: tenant.id, plan: input.plan_id, checkoutSessionId: session.id, expiredSessionId: previous },
    'checkout session created',
  );
  return { checkout_url: normalisedUrl(session.url) };
}

/** A Billing Portal session for the tenant's Stripe customer (which exists from the first checkout on). */
export async function createPortalSession(deps: AppDeps, caller: Caller, returnUrl: string | undefined) {
  const stripe = stripeClient(deps.config);
  const tenant = await requireTenant(deps.db, caller);
  const customer = tenant.stripe_customer_id;
  if (!customer) {
    throw new AppError(
      'no_billing_customer',
      'The tenant has no billing account yet; subscribe through POST /billing/checkout first',
    );
  }
  const session = await callStripe(deps.log, 'open the billing portal', () =>
    stripe.billingPortal.sessions.create({
      customer,
      return_url: returnUrl ?? `${deps.config.http.publicBaseUrl}/app/billing`,
    }),
  );
  return { portal_url: normalisedUrl(session.url) };
}

/** A URL as WHATWG parses it: characters a URI may not hold are percent-escaped (Stripe's own are unchanged). */
function normalisedUrl(url: string): string {
  return new URL(url).href;
}
