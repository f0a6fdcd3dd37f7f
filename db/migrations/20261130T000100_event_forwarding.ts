import { type Kysely, sql } from 'kysely';

// Whether each region of an account's event forwarder delivers (docs/event-forwarding.md, "Heartbeat"): one row per
// account and region the forwarder has delivered from, written by ingestion in the statement that counts the request
// against the account's rate limit.
// - last_heartbeat_at: the newest heartbeat (the forwarder's scheduled rule) of the region, by the event's own time,
//   never later than its arrival; first_heartbeat_at: the first one. Null while the region sent none: such a region is
//   not watched (only a region that beat once can stop beating).
// - last_event_at: when the region last delivered any other event.
// The watch (core/events/forwarding-watch.ts) reads the rows whose heartbeat is older than the bound.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_forwarding_regions')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('first_heartbeat_at', 'timestamptz')
    .addColumn('last_heartbeat_at', 'timestamptz')
    .addColumn('last_event_at', 'timestamptz')
    .addPrimaryKeyConstraint('event_forwarding_regions_pk', ['account_id', 'region'])
    .addCheckConstraint(
      'event_forwarding_regions_heartbeats',
      sql`(first_heartbeat_at is null) = (last_heartbeat_at is null) and (first_heartbeat_at is null or first_heartbeat_at <= last_heartbeat_at)`,
    )
    .execute();
  // The watch's scan: watched regions by the age of their last heartbeat.
  await db.schema
    .createIndex('event_forwarding_regions_heartbeat_idx')
    .on('event_forwarding_regions')
    .column('last_heartbeat_at')
    .where(sql.ref('last_heartbeat_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from signals where check_id = 'event.forwarding_blind'`.execute(db);
  await db.schema.dropTable('event_forwarding_regions').execute();
}
