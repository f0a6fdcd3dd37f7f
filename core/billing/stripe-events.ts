import { WorkflowNotFoundError } from '@temporalio/client';
import Stripe from 'stripe';
import { z } from 'zod';
import type { Config } from '../../config/config';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import {
  applySubscriptionEvent,
  findSubscription,
  findTenantBilling,
  findTenantIdByCustomer,
  forgetCheckoutSession,
  listLiveAccountWorkflows,
  listSubscriptions,
  lockTenantBilling,
  recordStripeEvent,
  storeStripeCustomer,
  type SubscriptionRow,
  tenantExists,
  updateTenantBilling,
} from '../../db/repositories/billing';
import { getPlan, isPlanId, type PlanId } from '../../domain/tenancy/plans';
import type { TenantStatus } from '../../domain/tenancy/tenants';
import { planChangedMessage } from '../../workflows/contracts';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { COMMAND_DEADLINE_MS, withDeadline } from '../temporal/commands';
import { auditAs } from '../audit-log';

// Stripe webhooks: verified on the raw body, recorded by event id (a replay changes nothing), applied to
// the tenant's plan and status in the same transaction, then the plan's scan interval is sent to every
// account workflow of the tenant.

/** Subscriptions in these Stripe statuses are over: they neither bill nor give a plan. */
export const ENDED_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

const TENANT_STATUS: Record<string, Exclude<TenantStatus, 'suspended'>> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  incomplete: 'past_due',
  paused: 'past_due',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
};

// Only the fields we read, in the shapes of both current and older Stripe API versions.
const expandable = z
  .union([z.string(), z.object({ id: z.string() })])
  .transform((v) => (typeof v === 'string' ? v : v.id));
const metadata = z.record(z.string(), z.string()).nullish();
const envelope = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number(),
  data: z.object({ object: z.unknown() }),
});
const checkoutSession = z.object({
  id: z.string(),
  mode: z.string(),
  customer: expandable.nullish(),
  client_reference_id: z.string().nullish(),
  subscription: expandable.nullish(),
  metadata,
});
const subscription = z.object({
  id: z.string(),
  status: z.string(),
  customer: expandable.nullish(),
  metadata,
  items: z
    .object({
      data: z.array(
        z.object({ price: z.object({ id: z.string() }).nullish(), current_period_end: z.number().nullish() }),
      ),
    })
    .nullish(),
  current_period_end: z.number().nullish(),
});
const invoice = z.object({
  customer: expandable.nullish(),
  subscription: expandable.nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: expandable, metadata }).nullish() }).nullish(),
});

type StripeEventEnvelope = z.output<typeof envelope>;

/** The tenant an event applied to, and whether its account workflows must hear of its plan. */
interface Applied {
  tenantId: string;
  tellWorkflows: boolean;
}

type MaybeId = string | null | undefined;

interface EventContext {
  db: Db;
  config: Readonly<Config>;
  log: Logger;
  /** When Stripe created the event: what orders the changes to one subscription. */
  eventAt: Date;
}

/** A handled event, read: where it names its tenant, and what it changes. */
interface ParsedEvent {
  tenantIds: MaybeId[];
  customerId?: MaybeId;
  apply: (ctx: EventContext, tenantId: string) => Promise<void>;
}

const HANDLERS: Record<string, (object: unknown) => ParsedEvent> = {
  'checkout.session.completed': checkoutCompleted,
  'checkout.session.expired': checkoutExpired,
  'customer.subscription.updated': (object) => subscriptionChange(object),
  'customer.subscription.deleted': (object) => subscriptionChange(object, 'solo'),
  'invoice.payment_failed': paymentFailed,
};

/** The plan bought (metadata.plan_id), active, on the session's subscription. */
function checkoutCompleted(object: unknown): ParsedEvent {
  const session = checkoutSession.parse(object);
  return {
    tenantIds: [session.metadata?.tenant_id, session.client_reference_id],
    customerId: session.customer,
    apply: async (ctx, tenantId) => {
      await forgetCheckoutSession({ db: ctx.db, tenantId, sessionId: session.id });
      const plan = session.metadata?.plan_id;
      if (session.mode !== 'subscription' || !session.subscription || !plan || !isPlanId(plan)) {
        ctx.log.warn({ tenantId }, 'checkout session without a subscription or a known plan: ignored');
        return;
      }
      if (session.customer) await adoptCustomer(ctx, tenantId, session.customer);
      const subscription = { id: session.subscription, plan, status: 'active', currentPeriodEnd: null };
      await applySubscriptionEvent({ db: ctx.db, tenantId, eventAt: ctx.eventAt, subscription });
    },
  };
}

/** The session can no longer be paid: the next checkout has nothing to close. */
function checkoutExpired(object: unknown): ParsedEvent {
  const session = checkoutSession.parse(object);
  return {
    tenantIds: [session.metadata?.tenant_id, session.client_reference_id],
    customerId: session.customer,
    apply: (ctx, tenantId) => forgetCheckoutSession({ db: ctx.db, tenantId, sessionId: session.id }),
  };
}

/** The invoice's subscription turns past_due (a subscription we never saw: the tenant itself). */
function paymentFailed(object: unknown): ParsedEvent {
  const failed = invoice.parse(object);
  const details = failed.parent?.subscription_details;
  const subscriptionId = details?.subscription ?? failed.subscription;
  return {
    tenantIds: [details?.metadata?.tenant_id],
    customerId: failed.customer,
    apply: async (ctx, tenantId) => {
      const known = subscriptionId ? await findSubscription({ db: ctx.db, tenantId, subscriptionId }) : undefined;
      if (!known) {
        const tenant = await findTenantBilling({ db: ctx.db, tenantId });
        if (tenant?.status === 'active')
          await updateTenantBilling({ db: ctx.db, tenantId, plan: tenant.plan, status: 'past_due' });
        return;
      }
      if (ENDED_SUBSCRIPTION_STATUSES.has(known.status)) return;
      const subscription = { id: known.id, plan: known.plan, status: 'past_due', currentPeriodEnd: null };
      await applySubscriptionEvent({ db: ctx.db, tenantId, eventAt: ctx.eventAt, subscription });
    },
  };
}

/** customer.subscription.updated / deleted: the plan from the price (or metadata), the status from Stripe's. */
function subscriptionChange(object: unknown, fallbackPlan?: PlanId): ParsedEvent {
  const sub = subscription.parse(object);
  const item = sub.items?.data[0];
  return {
    tenantIds: [sub.metadata?.tenant_id],
    customerId: sub.customer,
    apply: async (ctx, tenantId) => {
      const known = await findSubscription({ db: ctx.db, tenantId, subscriptionId: sub.id });
      const metadataPlan = sub.metadata?.plan_id;
      const plan =
        planOfPrice(ctx.config, item?.price?.id) ??
        (metadataPlan && isPlanId(metadataPlan) ? metadataPlan : undefined) ??
        known?.plan ??
        fallbackPlan;
      if (!plan) {
        ctx.log.warn({ tenantId, subscriptionId: sub.id }, 'subscription with a price of no plan: ignored');
        return;
      }
      const periodEnd = item?.current_period_end ?? sub.current_period_end;
      await applySubscriptionEvent({
        db: ctx.db,
        tenantId,
        eventAt: ctx.eventAt,
        subscription: {
          id: sub.id,
          plan,
          status: sub.status,
          currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
        },
      });
    },
  };
}

function planOfPrice(config: Readonly<Config>, priceId: string | undefined): PlanId | undefined {
  if (!priceId) return undefined;
  return (Object.entries(config.stripe.prices) as [PlanId, string | undefined][]).find(
    ([, price]) => price === priceId,
  )?.[0];
}

/** Records the customer of a completed checkout for a tenant that has none yet (and that no other tenant holds). */
async function adoptCustomer(ctx: EventContext, tenantId: string, customerId: string): Promise<void> {
  const holder = await findTenantIdByCustomer({ db: ctx.db, customerId });
  if (holder === undefined) await storeStripeCustomer({ db: ctx.db, tenantId, customerId });
  else if (holder !== tenantId) ctx.log.warn({ tenantId }, 'checkout customer belongs to another tenant: not recorded');
}

/**
 * The tenant's plan and status follow its newest subscription that has not ended; when all have ended, the
 * tenant is back on solo, canceled. A suspension is an operator's decision that billing never lifts.
 */
function tenantBillingOf(
  subscriptions: SubscriptionRow[],
  current: { plan: PlanId; status: TenantStatus },
): { plan: PlanId; status: TenantStatus } {
  if (subscriptions.length === 0) return current;
  const live = subscriptions.find((s) => !ENDED_SUBSCRIPTION_STATUSES.has(s.status)); // newest first
  const next: { plan: PlanId; status: TenantStatus } = live
    ? { plan: live.plan, status: TENANT_STATUS[live.status] ?? 'past_due' }
    : { plan: 'solo', status: 'canceled' };
  return { plan: next.plan, status: current.status === 'suspended' ? 'suspended' : next.status };
}

/** The first tenant named that exists, else the holder of the Stripe customer. */
async function resolveTenant(db: Db, tenantIds: MaybeId[], customerId: MaybeId): Promise<string | undefined> {
  for (const tenantId of tenantIds) {
    if (tenantId && (await tenantExists({ db, tenantId }))) return tenantId;
  }
  return customerId ? findTenantIdByCustomer({ db, customerId }) : undefined;
}

const invalidSignature = () => new AppError('invalid_signature', 'Missing or invalid Stripe-Signature');

/** POST /webhooks/stripe: verifies the signature on the exact bytes received, then applies the event once. */
export async function receiveStripeWebhook(deps: AppDeps, rawBody: unknown, signature: string | string[] | undefined) {
  const secret = deps.config.stripe.webhookSecret;
  if (!secret) throw new AppError('billing_not_configured', 'Stripe webhooks are not configured on this server');
  if (!Buffer.isBuffer(rawBody)) {
    throw new AppError('unsupported_content_type', 'The webhook body must be JSON (Content-Type: application/json)');
  }
  if (typeof signature !== 'string' || signature === '') throw invalidSignature();
  let verified: unknown;
  try {
    verified = Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (err) {
    if (err instanceof SyntaxError) throw new AppError('invalid_json', 'The webhook body is not valid JSON');
    throw invalidSignature();
  }
  const parsed = envelope.safeParse(verified);
  if (!parsed.success)
    return recordUnreadableEvent(
      deps,
      verified,
      parsed.error.issues.map((i) => i.path.join('.') || '(event)'),
    );
  return handleStripeEvent(deps, parsed.data);
}

/**
 * Signed by Stripe, yet not an event we can read (an API change, say). A 4xx would be retried for days and
 * change nothing: it is recorded by its id when it has one, logged, and answered 200.
 */
async function recordUnreadableEvent(
  { db, log }: AppDeps,
  verified: unknown,
  invalidFields: string[],
): Promise<{ received: true; duplicate?: true }> {
  const { id, type } = (typeof verified === 'object' && verified !== null ? verified : {}) as {
    id?: unknown;
    type?: unknown;
  };
  const eventId = typeof id === 'string' && id !== '' ? id : undefined;
  const eventType = typeof type === 'string' && type !== '' ? type : 'unreadable';
  log.warn(
    { stripeEventId: eventId, stripeEventType: eventType, invalidFields },
    'signed Stripe webhook that is not a readable event: ignored',
  );
  if (!eventId) return { received: true };
  return (await recordStripeEvent({ db, eventId, type: eventType }))
    ? { received: true }
    : { received: true, duplicate: true };
}

async function handleStripeEvent(
  deps: AppDeps,
  event: StripeEventEnvelope,
): Promise<{ received: true; duplicate?: true }> {
  const { db, log } = deps;
  const handler = HANDLERS[event.type];
  const eventLog = log.child({ stripeEventId: event.id, stripeEventType: event.type });
  let parsed: ParsedEvent | undefined;
  try {
    parsed = handler?.(event.data.object);
  } catch {
    // Stripe would retry a 4xx forever: an object we cannot read is recorded, logged and left alone.
    eventLog.warn('Stripe event object of an unexpected shape: ignored');
  }

  const outcome = await db.transaction().execute(async (trx): Promise<{ duplicate: boolean; applied?: Applied }> => {
    if (!(await recordStripeEvent({ db: trx, eventId: event.id, type: event.type }))) {
      // Applied before. Its workflow signals may not have gone out (Temporal down, so Stripe retried): resend them.
      const tenantId = parsed && (await resolveTenant(trx, parsed.tenantIds, parsed.customerId));
      return { duplicate: true, applied: tenantId ? { tenantId, tellWorkflows: true } : undefined };
    }
    if (!parsed) return { duplicate: false };
    const tenantId = await resolveTenant(trx, parsed.tenantIds, parsed.customerId);
    if (!tenantId) {
      eventLog.warn('Stripe event for no known tenant: recorded and ignored');
      return { duplicate: false };
    }
    const before = await lockTenantBilling({ db: trx, tenantId });
    if (!before) return { duplicate: false };
    await parsed.apply(
      { db: trx, config: deps.config, log: eventLog, eventAt: new Date(event.created * 1000) },
      tenantId,
    );
    const current = (await findTenantBilling({ db: trx, tenantId })) ?? before;
    const next = tenantBillingOf(await listSubscriptions({ db: trx, tenantId }), current);
    if (next.plan !== current.plan || next.status !== current.status)
      await updateTenantBilling({ db: trx, tenantId, ...next });
    if (next.plan !== before.plan || next.status !== before.status) {
      await auditAs(trx, {
        tenantId,
        action: 'billing.plan_changed',
        target: `tenant:${tenantId}`,
        details: {
          from_plan: before.plan,
          to_plan: next.plan,
          from_status: before.status,
          to_status: next.status,
          stripe_event: event.id,
        },
      });
      eventLog.info(
        { tenantId, from: { plan: before.plan, status: before.status }, to: next },
        'tenant billing changed',
      );
    }
    return { duplicate: false, applied: { tenantId, tellWorkflows: next.plan !== before.plan } };
  });

  if (outcome.applied?.tellWorkflows) await syncPlanToWorkflows(deps, outcome.applied.tenantId);
  return outcome.duplicate ? { received: true, duplicate: true } : { received: true };
}

/**
 * Sends the tenant's current plan interval, with its revision, to every PENDING or ACTIVE account workflow.
 * Runs after the commit and holds no lock: two webhooks may signal in either order, and each workflow keeps the
 * newest revision it is told of. If Temporal cannot be reached (or the process stops half-way), the webhook
 * does not answer 2xx, Stripe delivers the event again, and the replay sends the signals again. An account
 * connected meanwhile starts from the plan its connect read, and its verification reads the plan anew.
 */
async function syncPlanToWorkflows({ db, temporal, log }: AppDeps, tenantId: string): Promise<void> {
  const tenant = await findTenantBilling({ db, tenantId });
  if (!tenant || !isPlanId(tenant.plan)) return;
  const plan = getPlan(tenant.plan);
  const change = {
    scanIntervalMinutes: plan.scan_interval_minutes,
    fairnessWeight: plan.fairness_weight,
    planRevision: tenant.plan_revision,
  };
  const workflowIds = await listLiveAccountWorkflows({ db, tenantId });
  for (let i = 0; i < workflowIds.length; i += SIGNAL_BATCH) {
    const results = await Promise.allSettled(
      workflowIds
        .slice(i, i + SIGNAL_BATCH)
        .map((workflowId) =>
          withDeadline(temporal, COMMAND_DEADLINE_MS, () =>
            temporal.workflow.getHandle(workflowId).signal(planChangedMessage, change),
          ),
        ),
    );
    // A workflow that has ended (its account was disconnected meanwhile) has no scans left to re-time.
    const failure = results.find((r) => r.status === 'rejected' && !(r.reason instanceof WorkflowNotFoundError));
    if (failure?.status === 'rejected') throw failure.reason;
  }
  log.info({ tenantId, plan: tenant.plan, ...change, workflows: workflowIds.length }, 'plan sent to account workflows');
}

const SIGNAL_BATCH = 20;
