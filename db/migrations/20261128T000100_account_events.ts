import { type Kysely, sql } from 'kysely';

// Real-time detection from the account's own events (docs/decisions.md, "Events"):
// - account_event_keys: the keys the customer's EventBridge connection sends, stored as SHA-256 hashes only (each is
//   32+ random characters: a fast hash is enough). A rotated-out key keeps working until its expires_at.
// - account_events: every event received, kept 30 days (the retention run), unique per account and event id (a
//   redelivery is a duplicate), listed newest first.
// - event_batches: one per ingestion request that opened signals or asked for a rescan; acted on after the commit
//   (dispatched_at: its alerts fired, its deliveries started, the account workflow told what to rescan).
// - scans and event_batches note when the alert rules were evaluated against them (alerts_evaluated_at): a retried
//   evaluation finds it and changes nothing, whatever other scans or batches the rules saw in between.
// - signals.event_batch_id: the batch that opened an event signal (first_scan_id is null for those);
//   alert_events and alert_deliveries name either the scan or the event batch they come from.
// - scans may be triggered by events (a targeted rescan); accounts remember the regions their last scan saw in use
//   (an instance launched elsewhere is suspect).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_event_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('account_event_keys_account_idx').on('account_event_keys').column('account_id').execute();

  await db.schema
    .createTable('account_events')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail_type', 'text', (c) => c.notNull())
    .addColumn('event_name', 'text')
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('event_time', 'timestamptz', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('source_ip', 'text')
    .addColumn('detections', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('detail', 'jsonb', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('account_events_pk', ['account_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('account_events_timeline_idx')
    .on('account_events')
    .columns(['account_id', 'event_time desc', 'event_id desc'])
    .execute();
  // The account's last event received (the connect flow shows it), and the retention run's cutoff.
  await db.schema
    .createIndex('account_events_account_received_idx')
    .on('account_events')
    .columns(['account_id', 'received_at desc'])
    .execute();
  await db.schema.createIndex('account_events_received_idx').on('account_events').column('received_at').execute();

  await db.schema
    .createTable('event_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('groups', sql`text[]`, (c) => c.notNull())
    .addColumn('signals_opened', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addColumn('dispatched_at', 'timestamptz')
    .addColumn('alerts_evaluated_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('event_batches_undispatched_idx')
    .on('event_batches')
    .column('account_id')
    .where(sql.ref('dispatched_at'), 'is', null)
    .execute();

  await db.schema
    .alterTable('signals')
    .addColumn('event_batch_id', 'text', (c) => c.references('event_batches.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('signals_event_batch_idx')
    .on('signals')
    .column('event_batch_id')
    .where(sql.ref('event_batch_id'), 'is not', null)
    .execute();

  await sql`alter table alert_events alter column scan_id drop not null`.execute(db);
  await db.schema
    .alterTable('alert_events')
    .addColumn('event_batch_id', 'text', (c) => c.references('event_batches.id').onDelete('cascade'))
    .execute();
  await sql`alter table alert_events add constraint alert_events_one_source check ((scan_id is null) <> (event_batch_id is null))`.execute(
    db,
  );
  await sql`create unique index alert_events_one_per_rule_batch on alert_events (rule_id, account_id, event_batch_id) where event_batch_id is not null`.execute(
    db,
  );
  // The retention run deletes batches, and their alert events with them.
  await db.schema
    .createIndex('alert_events_event_batch_idx')
    .on('alert_events')
    .column('event_batch_id')
    .where(sql.ref('event_batch_id'), 'is not', null)
    .execute();
  await db.schema
    .alterTable('alert_deliveries')
    .addColumn('event_batch_id', 'text', (c) => c.references('event_batches.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('alert_deliveries_event_batch_idx')
    .on('alert_deliveries')
    .column('event_batch_id')
    .where(sql.ref('event_batch_id'), 'is not', null)
    .execute();

  await sql`alter table scans drop constraint scans_trigger_check`.execute(db);
  await sql`alter table scans add constraint scans_trigger_check check (trigger in ('initial', 'scheduled', 'manual', 'event'))`.execute(
    db,
  );

  await db.schema.alterTable('accounts').addColumn('used_regions', sql`text[]`).execute();
  await db.schema.alterTable('scans').addColumn('alerts_evaluated_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('scans').dropColumn('alerts_evaluated_at').execute();
  await db.schema.alterTable('accounts').dropColumn('used_regions').execute();
  await sql`delete from scans where trigger = 'event'`.execute(db);
  await sql`alter table scans drop constraint scans_trigger_check`.execute(db);
  await sql`alter table scans add constraint scans_trigger_check check (trigger in ('initial', 'scheduled', 'manual'))`.execute(
    db,
  );
  await sql`delete from alert_events where event_batch_id is not null`.execute(db);
  await db.schema.dropIndex('alert_deliveries_event_batch_idx').execute();
  await db.schema.alterTable('alert_deliveries').dropColumn('event_batch_id').execute();
  await db.schema.dropIndex('alert_events_event_batch_idx').execute();
  await db.schema.dropIndex('alert_events_one_per_rule_batch').execute();
  await sql`alter table alert_events drop constraint alert_events_one_source`.execute(db);
  await db.schema.alterTable('alert_events').dropColumn('event_batch_id').execute();
  await sql`alter table alert_events alter column scan_id set not null`.execute(db);
  await sql`delete from signals where event_batch_id is not null or first_scan_id is null and check_id like 'event.%'`.execute(
    db,
  );
  await db.schema.dropIndex('signals_event_batch_idx').execute();
  await db.schema.alterTable('signals').dropColumn('event_batch_id').execute();
  await db.schema.dropTable('event_batches').execute();
  await db.schema.dropTable('account_events').execute();
  await db.schema.dropTable('account_event_keys').execute();
}
