import { type Kysely, sql } from 'kysely';

// The API processes keep pages of GET /accounts and of an account's signals (db/read-cache.ts) until the database
// announces a change to what they show, after the change commits, with the tenant's id: on `sentinel_accounts_changed`
// an account connected or deleted, or a change to what the list shows, filters or sorts on (db/repositories/accounts.ts,
// listAccountSummaries); on `sentinel_signals_changed` a signal written (db/repositories/signals.ts, signalJsonPairs)
// or an acceptance. PostgreSQL sends one announcement per channel and tenant however many rows a transaction changed;
// signals, written thousands at a time by a scan or the retention run, are announced once per statement and tenant.
// Writes that change nothing shown (an account's regions in use or ExternalId, a signal's scans) announce nothing.
// A column added to what is shown must be added to the comparisons below.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_read_page_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify(tg_argv[0], case when tg_op = 'DELETE' then old.tenant_id else new.tenant_id end);
      return null;
    end $$`.execute(db);

  await sql`
    create trigger accounts_notify_listed after insert or delete on accounts
    for each row execute function notify_read_page_changed('sentinel_accounts_changed')`.execute(db);
  await sql`
    create trigger accounts_notify_list_changed after update on accounts
    for each row when (
      (old.aws_account_id, old.display_name, old.status, old.current_srs, old.last_scan_at, old.tags,
       old.coverage_evaluated, old.coverage_total, old.score_complete, old.created_at)
      is distinct from
      (new.aws_account_id, new.display_name, new.status, new.current_srs, new.last_scan_at, new.tags,
       new.coverage_evaluated, new.coverage_total, new.score_complete, new.created_at)
    ) execute function notify_read_page_changed('sentinel_accounts_changed')`.execute(db);

  // Per statement: the tenants of the rows written (\`written\`), or of the rows whose shown columns an update changed.
  await sql`
    create function notify_signals_written() returns trigger language plpgsql as $$
    begin
      perform pg_notify('sentinel_signals_changed', tenant_id) from (select distinct tenant_id from written) tenants;
      return null;
    end $$`.execute(db);
  await sql`
    create function notify_signals_updated() returns trigger language plpgsql as $$
    begin
      perform pg_notify('sentinel_signals_changed', tenant_id) from (
        select distinct new_rows.tenant_id from new_rows join old_rows on old_rows.id = new_rows.id
        where (old_rows.scenario, old_rows.severity, old_rows.title, old_rows.description, old_rows.detected_at,
               old_rows.resolved_at, old_rows.check_id, old_rows.resource, old_rows.region)
          is distinct from
              (new_rows.scenario, new_rows.severity, new_rows.title, new_rows.description, new_rows.detected_at,
               new_rows.resolved_at, new_rows.check_id, new_rows.resource, new_rows.region)
      ) tenants;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger signals_notify_inserted after insert on signals referencing new table as written
    for each statement execute function notify_signals_written()`.execute(db);
  await sql`
    create trigger signals_notify_deleted after delete on signals referencing old table as written
    for each statement execute function notify_signals_written()`.execute(db);
  await sql`
    create trigger signals_notify_updated after update on signals referencing old table as old_rows new table as new_rows
    for each statement execute function notify_signals_updated()`.execute(db);
  await sql`
    create trigger signal_acceptances_notify_changed after insert or update or delete on signal_acceptances
    for each row execute function notify_read_page_changed('sentinel_signals_changed')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger signal_acceptances_notify_changed on signal_acceptances`.execute(db);
  await sql`drop trigger signals_notify_updated on signals`.execute(db);
  await sql`drop trigger signals_notify_deleted on signals`.execute(db);
  await sql`drop trigger signals_notify_inserted on signals`.execute(db);
  await sql`drop function notify_signals_updated()`.execute(db);
  await sql`drop function notify_signals_written()`.execute(db);
  await sql`drop trigger accounts_notify_list_changed on accounts`.execute(db);
  await sql`drop trigger accounts_notify_listed on accounts`.execute(db);
  await sql`drop function notify_read_page_changed()`.execute(db);
}
