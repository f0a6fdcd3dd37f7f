import { type Kysely, sql } from 'kysely';
import type { PlanId } from '../../domain/tenancy/plans';
import type { TenantStatus } from '../../domain/tenancy/tenants';
import type { Database } from '../database';

type Conn = Kysely<Database>;

export interface TenantBilling {
  id: string;
  name: string;
  plan: PlanId;
  /** Bumped on every plan change (account workflows keep the newest they are told of). */
  plan_revision: number;
  status: TenantStatus;
  stripe_customer_id: string | null;
  pending_checkout_session_id: string | null;
}

export interface SubscriptionRow {
  id: string;
  plan: PlanId;
  /** Stripe's status, as Stripe sends it. */
  status: string;
  last_event_at: Date;
}

const billingColumns = [
  'id',
  'name',
  'plan',
  'plan_revision',
  'status',
  'stripe_customer_id',
  'pending_checkout_session_id',
] as const;

export async function findTenantBilling({
  db,
  tenantId,
}: {
  db: Conn;
  tenantId: string;
}): Promise<TenantBilling | undefined> {
  return db.selectFrom('tenants').select(billingColumns).where('id', '=', tenantId).executeTakeFirst();
}

/** The tenant row, locked until the transaction ends, so billing events of one tenant apply one at a time. */
export async function lockTenantBilling({
  db,
  tenantId,
}: {
  db: Conn;
  tenantId: string;
}): Promise<TenantBilling | undefined> {
  return db.selectFrom('tenants').select(billingColumns).where('id', '=', tenantId).forUpdate().executeTakeFirst();
}

/** Stores the tenant's Stripe customer unless one is stored already; undefined when one was. */
export async function storeStripeCustomer({
  db,
  tenantId,
  customerId,
}: {
  db: Conn;
  tenantId: string;
  customerId: string;
}): Promise<string | undefined> {
  const updated = await db
    .updateTable('tenants')
    .set({ stripe_customer_id: customerId, updated_at: new Date() })
    .where('id', '=', tenantId)
    .where('stripe_customer_id', 'is', null)
    .returning('stripe_customer_id')
    .executeTakeFirst();
  return updated?.stripe_customer_id ?? undefined;
}

/**
 * Serialises the checkouts of one tenant (a transaction-scoped advisory lock, so webhooks, which lock the
 * tenant row, are not held up while a checkout waits for Stripe).
 */
export async function lockTenantCheckout({ db, tenantId }: { db: Conn; tenantId: string }): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`billing-checkout:${tenantId}`}, 0))`.execute(db);
}

export async function rememberCheckoutSession({
  db,
  tenantId,
  sessionId,
}: {
  db: Conn;
  tenantId: string;
  sessionId: string;
}) {
  await db
    .updateTable('tenants')
    .set({ pending_checkout_session_id: sessionId, updated_at: new Date() })
    .where('id', '=', tenantId)
    .execute();
}

/** Forgets the tenant's open session if it is this one (a newer checkout may have replaced it meanwhile). */
export async function forgetCheckoutSession({
  db,
  tenantId,
  sessionId,
}: {
  db: Conn;
  tenantId: string;
  sessionId: string;
}) {
  await db
    .updateTable('tenants')
    .set({ pending_checkout_session_id: null, updated_at: new Date() })
    .where('id', '=', tenantId)
    .where('pending_checkout_session_id', '=', sessionId)
    .execute();
}

// Stripe customer and event ids are global, not per tenant: these lookups are how a webhook finds its tenant.

export async function findTenantIdByCustomer({
  db,
  customerId,
}: {
  db: Conn;
  customerId: string;
}): Promise<string | undefined> {
  return (await db.selectFrom('tenants').select('id').where('stripe_customer_id', '=', customerId).executeTakeFirst())
    ?.id;
}

export async function tenantExists({ db, tenantId }: { db: Conn; tenantId: string }): Promise<boolean> {
  return (await db.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst()) !== undefined;
}

/** Records a webhook event; false when it was recorded before (a replay or a retried delivery). */
export async function recordStripeEvent({
  db,
  eventId,
  type,
}: {
  db: Conn;
  eventId: string;
  type: string;
}): Promise<boolean> {
  const inserted = await db
    .insertInto('stripe_events')
    .values({ id: eventId, type })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function listSubscriptions({ db, tenantId }: { db: Conn; tenantId: string }): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('stripe_subscriptions')
    .select(['id', 'plan', 'status', 'last_event_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('last_event_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function findSubscription({
  db,
  tenantId,
  subscriptionId,
}: {
  db: Conn;
  tenantId: string;
  subscriptionId: string;
}) {
  return db
    .selectFrom('stripe_subscriptions')
    .select(['id', 'plan', 'status', 'last_event_at'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
}

/**
 * Creates or updates a subscription from an event created at `eventAt`. An event older than the last one
 * applied to the row changes nothing (false); so does a subscription id that belongs to another tenant.
 */
export async function applySubscriptionEvent({
  db,
  tenantId,
  subscription,
  eventAt,
}: {
  db: Conn;
  tenantId: string;
  subscription: { id: string; plan: PlanId; status: string; currentPeriodEnd: Date | null };
  eventAt: Date;
}): Promise<boolean> {
  const applied = await db
    .insertInto('stripe_subscriptions')
    .values({
      id: subscription.id,
      tenant_id: tenantId,
      plan: subscription.plan,
      status: subscription.status,
      current_period_end: subscription.currentPeriodEnd,
      last_event_at: eventAt,
    })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({
          plan: sql`excluded.plan`,
          status: sql`excluded.status`,
          current_period_end: sql`coalesce(excluded.current_period_end, stripe_subscriptions.current_period_end)`,
          last_event_at: sql`excluded.last_event_at`,
          updated_at: sql`now()`,
        })
        .where((eb) =>
          eb.and([
            eb('stripe_subscriptions.tenant_id', '=', tenantId),
            eb('stripe_subscriptions.last_event_at', '<=', eventAt),
          ]),
        ),
    )
    .returning('id')
    .executeTakeFirst();
  return applied !== undefined;
}

/** A new plan bumps the plan's revision. */
export async function updateTenantBilling({
  db,
  tenantId,
  plan,
  status,
}: {
  db: Conn;
  tenantId: string;
  plan: PlanId;
  status: TenantStatus;
}) {
  await db
    .updateTable('tenants')
    .set((eb) => ({
      plan,
      status,
      updated_at: new Date(),
      plan_revision: eb
        .case()
        .when('plan', '<>', plan)
        .then(eb('plan_revision', '+', 1))
        .else(eb.ref('plan_revision'))
        .end(),
    }))
    .where('id', '=', tenantId)
    .execute();
}

/** Workflow ids of the tenant's accounts that still have a lifecycle (PENDING or ACTIVE). */
export async function listLiveAccountWorkflows({ db, tenantId }: { db: Conn; tenantId: string }): Promise<string[]> {
  const rows = await db
    .selectFrom('accounts')
    .select('workflow_id')
    .where('tenant_id', '=', tenantId)
    .where('status', 'in', ['PENDING', 'ACTIVE'])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.workflow_id);
}
