import { type Kysely, sql } from 'kysely';

// The API processes keep each tenant's portfolio overview (GET /overview, db/read-cache.ts) until the database
// announces a change to what it shows. Accounts, signals and acceptances are announced already
// (20261128T000300_read_page_notifications.ts); the overview also shows what these two tables hold, announced on
// `sentinel_overview_changed` with the tenant's id after the change commits: a scan that ends (its failure is listed
// under `attention.failing_scans`) and a score history point written or pruned (`srs_trend`). A scan starting, or a
// running scan's progress, announces nothing: the overview leaves running scans out.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create trigger scans_notify_overview_inserted after insert on scans
    for each row when (new.status <> 'running')
    execute function notify_read_page_changed('sentinel_overview_changed')`.execute(db);
  await sql`
    create trigger scans_notify_overview_updated after update on scans
    for each row when (old.status is distinct from new.status)
    execute function notify_read_page_changed('sentinel_overview_changed')`.execute(db);

  // Per statement: a scan writes one point, the retention run prunes thousands at once.
  await sql`
    create function notify_score_history_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('sentinel_overview_changed', tenant_id)
      from (select distinct a.tenant_id from written w join accounts a on a.id = w.account_id) tenants;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger score_history_notify_inserted after insert on score_history referencing new table as written
    for each statement execute function notify_score_history_changed()`.execute(db);
  await sql`
    create trigger score_history_notify_updated after update on score_history referencing new table as written
    for each statement execute function notify_score_history_changed()`.execute(db);
  await sql`
    create trigger score_history_notify_deleted after delete on score_history referencing old table as written
    for each statement execute function notify_score_history_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger score_history_notify_deleted on score_history`.execute(db);
  await sql`drop trigger score_history_notify_updated on score_history`.execute(db);
  await sql`drop trigger score_history_notify_inserted on score_history`.execute(db);
  await sql`drop function notify_score_history_changed()`.execute(db);
  await sql`drop trigger scans_notify_overview_updated on scans`.execute(db);
  await sql`drop trigger scans_notify_overview_inserted on scans`.execute(db);
}
