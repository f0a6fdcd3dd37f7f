import { type Kysely, sql } from 'kysely';

// Stripe does not deliver events in order. Each subscription row remembers the creation time of the last
// event applied to it, so an older event arriving late cannot roll its plan or status back.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stripe_subscriptions')
    .addColumn('last_event_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`'epoch'::timestamptz`))
    .execute();
  await db.schema.createIndex('stripe_subscriptions_tenant_idx').on('stripe_subscriptions').column('tenant_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('stripe_subscriptions_tenant_idx').ifExists().execute();
  await db.schema.alterTable('stripe_subscriptions').dropColumn('last_event_at').execute();
}
