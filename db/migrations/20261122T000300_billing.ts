import { type Kysely, sql } from 'kysely';

// Stripe does not deliver events in order. Each subscription row remembers the creation time of the last
// event applied to it, so an older event arriving late cannot roll its plan or status back.
// A tenant's open Checkout Session is remembered until it completes or expires, so a new checkout can close
// it first: two sessions open side by side could both be paid, and bill twice.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stripe_subscriptions')
    .addColumn('last_event_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`'epoch'::timestamptz`))
    .execute();
  await db.schema
    .createIndex('stripe_subscriptions_tenant_idx')
    .on('stripe_subscriptions')
    .column('tenant_id')
    .execute();
  await db.schema.alterTable('tenants').addColumn('pending_checkout_session_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tenants').dropColumn('pending_checkout_session_id').execute();
  await db.schema.dropIndex('stripe_subscriptions_tenant_idx').ifExists().execute();
  await db.schema.alterTable('stripe_subscriptions').dropColumn('last_event_at').execute();
}
