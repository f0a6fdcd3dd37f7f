import { type Kysely, sql } from 'kysely';

// History that can be deleted once past its retention (docs/decisions.md, "Data retention"):
// - signals.last_seen_scan_id goes: nothing read it, and every scan rewrote it on every open signal.
// - A signal outlives the scans that opened or resolved it: first_scan_id and resolved_scan_id are set null
//   when such a scan is deleted (they cascaded, which would have deleted open signals with an old scan).
// - Indexes for the retention run's own queries and for the foreign keys a scan deletion checks.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table signals drop column last_seen_scan_id`.execute(db);
  await sql`alter table signals alter column first_scan_id drop not null`.execute(db);
  for (const column of ['first_scan_id', 'resolved_scan_id']) {
    await sql`alter table signals drop constraint ${sql.raw(`signals_${column}_fkey`)},
      add constraint ${sql.raw(`signals_${column}_fkey`)} foreign key (${sql.raw(column)}) references scans (id) on delete set null`.execute(
      db,
    );
  }
  await db.schema.createIndex('signals_first_scan_idx').on('signals').column('first_scan_id').execute();
  await db.schema
    .createIndex('signals_resolved_scan_idx')
    .on('signals')
    .column('resolved_scan_id')
    .where(sql.ref('resolved_scan_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('signals_resolved_at_idx')
    .on('signals')
    .column('resolved_at')
    .where(sql.ref('resolved_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('scans_started_idx').on('scans').column('started_at').execute();
  await db.schema.createIndex('alert_events_scan_idx').on('alert_events').column('scan_id').execute();
  await db.schema.createIndex('score_history_scan_idx').on('score_history').column('scan_id').execute();
  await db.schema.createIndex('alert_deliveries_created_idx').on('alert_deliveries').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'alert_deliveries_created_idx',
    'score_history_scan_idx',
    'alert_events_scan_idx',
    'scans_started_idx',
    'signals_resolved_at_idx',
    'signals_resolved_scan_idx',
    'signals_first_scan_idx',
  ])
    await db.schema.dropIndex(index).execute();
  for (const column of ['first_scan_id', 'resolved_scan_id']) {
    await sql`alter table signals drop constraint ${sql.raw(`signals_${column}_fkey`)},
      add constraint ${sql.raw(`signals_${column}_fkey`)} foreign key (${sql.raw(column)}) references scans (id) on delete cascade`.execute(
      db,
    );
  }
  // Signals whose first scan was deleted cannot go back under the old constraint.
  await sql`delete from signals where first_scan_id is null`.execute(db);
  await sql`alter table signals alter column first_scan_id set not null`.execute(db);
  await sql`alter table signals add column last_seen_scan_id text references scans (id) on delete cascade`.execute(db);
  await sql`update signals set last_seen_scan_id = coalesce(resolved_scan_id, first_scan_id)`.execute(db);
  await sql`alter table signals alter column last_seen_scan_id set not null`.execute(db);
}
