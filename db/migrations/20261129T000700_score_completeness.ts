import { type Kysely, type RawBuilder, sql } from 'kysely';

// A score's completeness is about the account's core sources only (domain/scoring/completeness.ts): every score-history
// point and every alert event keep whether the score they hold read them all, and accounts.score_complete takes that
// meaning. Nullable: the previous release's processes, still draining during the deploy (docs/operations.md,
// "Deploys"), write neither column.
//
// Existing rows are filled from the check outcomes their scan kept, where it still has them: an account's from its
// latest full scan, a history point's from the full scan that recorded it. A point of a targeted rescan or of a scan
// saved before scans kept their outcomes, and every alert fired before this, stay null (not known). The checks that read optional sources only
// are written out here as they are today, so this migration does the same thing whenever it runs.

const OPTIONAL_SOURCE_CHECKS = [
  'suspension.health_abuse_event',
  'suspension.health_credentials_exposed',
  'billing.daily_spend_spike',
  'billing.cost_anomaly',
  'billing.no_budget',
  'billing.budget_forecast_exceeded',
  'billing.budget_exceeded',
];

/** True when no outcome in `checks` (a scan's jsonb array) was left unread, counting only the checks `counted` keeps. */
function everyOutcomeRead(checks: RawBuilder<unknown>, counted: RawBuilder<boolean>) {
  return sql<boolean>`not exists (
    select 1 from jsonb_array_elements(${checks}) o
    where (o->>'status' = 'not_evaluated' or jsonb_array_length(coalesce(o->'unread', '[]'::jsonb)) > 0) and ${counted})`;
}

const coreOnly = sql<boolean>`not (o->>'checkId' = any(${OPTIONAL_SOURCE_CHECKS}::text[]))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('score_history').addColumn('complete', 'boolean').execute();
  await db.schema.alterTable('alert_events').addColumn('srs_complete', 'boolean').execute();

  await sql`update accounts a set score_complete = ${everyOutcomeRead(sql.ref('s.checks'), coreOnly)}
    from scans s where s.id = a.checks_scan_id and s.checks is not null`.execute(db);
  await sql`update score_history h set complete = ${everyOutcomeRead(sql.ref('s.checks'), coreOnly)}
    from scans s where s.id = h.scan_id and s.checks is not null and s.trigger <> 'event'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // score_complete as it was: every check evaluated and read, optional sources included.
  await sql`update accounts a set score_complete = ${everyOutcomeRead(sql.ref('s.checks'), sql<boolean>`true`)}
    from scans s where s.id = a.checks_scan_id and s.checks is not null`.execute(db);
  await db.schema.alterTable('alert_events').dropColumn('srs_complete').execute();
  await db.schema.alterTable('score_history').dropColumn('complete').execute();
}
