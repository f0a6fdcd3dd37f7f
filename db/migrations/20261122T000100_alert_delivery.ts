import { type Kysely, sql } from 'kysely';

// Alert delivery as built: PagerDuty incidents are resolved as well as triggered, so a delivery has a kind;
// each delivery keeps the channel it was addressed to (a rule edited later does not redirect it) and the scan
// that caused it (a retried evaluation finds its own deliveries again). The rule state remembers which
// findings it alerted on and whether a paging incident is open, to know when the condition clears.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('alert_deliveries')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('trigger').check(sql`kind in ('trigger', 'resolve')`))
    .addColumn('channel', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('scan_id', 'text', (c) => c.references('scans.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.references('tenants.id').onDelete('cascade'))
    // When the attempt in flight started: a delivery found 'sending' by a retry was cut off mid-send.
    .addColumn('claimed_at', 'timestamptz')
    .execute();
  await db.schema.alterTable('alert_deliveries').dropConstraint('alert_deliveries_one_per_channel').execute();
  await db.schema
    .alterTable('alert_deliveries')
    .addUniqueConstraint('alert_deliveries_one_per_channel_kind', ['alert_id', 'channel_index', 'kind'])
    .execute();
  await db.schema.createIndex('alert_deliveries_scan_idx').on('alert_deliveries').column('scan_id').execute();
  await db.schema.createIndex('delivery_attempts_delivery_idx').on('delivery_attempts').column('delivery_id').execute();

  await db.schema
    .alterTable('alert_rule_states')
    .addColumn('alerted_fingerprints', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('incident_open', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_alert_id', 'text', (c) => c.references('alert_events.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('alert_events_rule_account_idx')
    .on('alert_events')
    .columns(['rule_id', 'account_id', 'fired_at desc'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alert_events_rule_account_idx').execute();
  await db.schema
    .alterTable('alert_rule_states')
    .dropColumn('last_alert_id')
    .dropColumn('incident_open')
    .dropColumn('alerted_fingerprints')
    .execute();
  await db.schema.dropIndex('delivery_attempts_delivery_idx').execute();
  await db.schema.dropIndex('alert_deliveries_scan_idx').execute();
  await db.schema.alterTable('alert_deliveries').dropConstraint('alert_deliveries_one_per_channel_kind').execute();
  await db.deleteFrom('alert_deliveries').where('kind', '=', 'resolve').execute();
  await db.schema
    .alterTable('alert_deliveries')
    .addUniqueConstraint('alert_deliveries_one_per_channel', ['alert_id', 'channel_index'])
    .execute();
  await db.schema
    .alterTable('alert_deliveries')
    .dropColumn('claimed_at')
    .dropColumn('tenant_id')
    .dropColumn('scan_id')
    .dropColumn('channel')
    .dropColumn('kind')
    .execute();
}
