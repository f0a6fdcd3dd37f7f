import { type Kysely, sql } from 'kysely';

// The API processes keep pages of GET /accounts and of an account's signals (api/read-cache.ts) until the database
// announces a change to what they show, after the change commits, with the tenant's id: on `sentinel_accounts_changed`
// an account connected or deleted, or a change to what the list shows, filters or sorts on (db/repositories/accounts.ts,
// listAccountSummaries); on `sentinel_signals_changed` a signal written (db/repositories/signals.ts, signalJsonPairs)
// or an acceptance. PostgreSQL sends one announcement per channel and tenant however many rows a transaction changed.
// Writes that change nothing shown (an account's regions in use or ExternalId, a signal's scans) announce nothing.
// A column added to what is shown must be added to the WHEN below.

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

  await sql`
    create trigger signals_notify_listed after insert or delete on signals
    for each row execute function notify_read_page_changed('sentinel_signals_changed')`.execute(db);
  await sql`
    create trigger signals_notify_changed after update on signals
    for each row when (
      (old.scenario, old.severity, old.title, old.description, old.detected_at, old.resolved_at, old.check_id,
       old.resource, old.region)
      is distinct from
      (new.scenario, new.severity, new.title, new.description, new.detected_at, new.resolved_at, new.check_id,
       new.resource, new.region)
    ) execute function notify_read_page_changed('sentinel_signals_changed')`.execute(db);
  await sql`
    create trigger signal_acceptances_notify_changed after insert or update or delete on signal_acceptances
    for each row execute function notify_read_page_changed('sentinel_signals_changed')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger signal_acceptances_notify_changed on signal_acceptances`.execute(db);
  await sql`drop trigger signals_notify_changed on signals`.execute(db);
  await sql`drop trigger signals_notify_listed on signals`.execute(db);
  await sql`drop trigger accounts_notify_list_changed on accounts`.execute(db);
  await sql`drop trigger accounts_notify_listed on accounts`.execute(db);
  await sql`drop function notify_read_page_changed()`.execute(db);
}
