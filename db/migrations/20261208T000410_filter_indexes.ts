import { type Kysely, sql } from 'kysely';

// The filters of the signal and event lists read only what they match (docs/decisions.md, "Filtered lists read what
// they match"). Each list pages newest first by keyset; a filter the index of that order cannot apply was checked row
// by row along the account's (or tenant's) whole range until a page was full: a rare severity, or a detection an
// account's events seldom set off, read every signal or event the account has (events: up to 600 a minute for 30
// days). Each filter gets an index in the list's order, so a page reads the rows it lists:
// - signals, per account and per tenant: by severity, scenario and check, and the open ones (signals_open_check_idx,
//   20261208T000400, holds an account's open signals of one check);
// - account_events: by source and event name; those that set off a detection (`detection=any`); and, for one
//   detection, a GIN index of the account's detections (`account_event_detections`: each detection prefixed with the
//   account, so a lookup reads that account's events of that detection, not every account's).

const SIGNAL_INDEXES = [
  ['signals_account_severity_idx', 'account_id, severity'],
  ['signals_account_scenario_idx', 'account_id, scenario'],
  ['signals_account_check_idx', 'account_id, check_id'],
  ['signals_tenant_severity_idx', 'tenant_id, severity'],
  ['signals_tenant_scenario_idx', 'tenant_id, scenario'],
  ['signals_tenant_check_idx', 'tenant_id, check_id'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of SIGNAL_INDEXES) {
    await sql`create index ${sql.raw(name)} on signals (${sql.raw(columns)}, detected_at desc, id desc)`.execute(db);
  }
  await sql`create index signals_account_open_idx on signals (account_id, detected_at desc, id desc)
    where resolved_at is null`.execute(db);
  await sql`create index signals_tenant_open_idx on signals (tenant_id, detected_at desc, id desc)
    where resolved_at is null`.execute(db);

  await sql`create index account_events_source_idx on account_events (account_id, source, event_time desc, event_id desc)`.execute(
    db,
  );
  await sql`create index account_events_name_idx on account_events (account_id, event_name, event_time desc, event_id desc)`.execute(
    db,
  );
  await sql`create index account_events_detected_idx on account_events (account_id, event_time desc, event_id desc)
    where cardinality(detections) > 0`.execute(db);
  await sql`create function account_event_detections(account_id text, detections text[]) returns text[]
    language sql immutable parallel safe
    as $$ select array(select account_id || ' ' || d from unnest(detections) as d) $$`.execute(db);
  await sql`create index account_events_detection_idx on account_events
    using gin (account_event_detections(account_id, detections)) where cardinality(detections) > 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('account_events_detection_idx').execute();
  await sql`drop function account_event_detections(text, text[])`.execute(db);
  for (const name of ['account_events_detected_idx', 'account_events_name_idx', 'account_events_source_idx']) {
    await db.schema.dropIndex(name).execute();
  }
  for (const name of ['signals_tenant_open_idx', 'signals_account_open_idx', ...SIGNAL_INDEXES.map(([n]) => n)]) {
    await db.schema.dropIndex(name).execute();
  }
}
