import { type Kysely, sql } from 'kysely';

// Open signals counted per account, severity and scenario, kept by PostgreSQL as signals are written: the overview
// (GET /overview) reads a tenant's few hundred counts instead of grouping every open signal it has (tens of thousands
// for a large fleet) on each request. Triggers keep the counts whatever writes the signals (a scan saving, retention,
// an account deleted), one statement at a time through its transition tables, so a scan that opens 500 signals costs
// one upsert statement, not 500. Acceptances are not counted here: they end with time (expires_at), so the overview
// subtracts those in force when it reads.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('open_signal_counts')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('scenario', 'text', (c) => c.notNull())
    .addColumn('open', 'integer', (c) => c.notNull().check(sql`open >= 0`))
    .addPrimaryKeyConstraint('open_signal_counts_pk', ['account_id', 'severity', 'scenario'])
    .execute();
  await db.schema.createIndex('open_signal_counts_tenant_idx').on('open_signal_counts').column('tenant_id').execute();

  await sql`
    create function count_open_signals() returns trigger language plpgsql as $$
    begin
      if tg_op in ('INSERT', 'UPDATE') then
        insert into open_signal_counts as c (tenant_id, account_id, severity, scenario, open)
        select tenant_id, account_id, severity, scenario, count(*) from new_rows where resolved_at is null
        group by tenant_id, account_id, severity, scenario order by account_id, severity, scenario
        on conflict (account_id, severity, scenario) do update set open = c.open + excluded.open;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        update open_signal_counts c set open = c.open - o.n
        from (select account_id, severity, scenario, count(*) as n from old_rows where resolved_at is null
              group by account_id, severity, scenario) o
        where c.account_id = o.account_id and c.severity = o.severity and c.scenario = o.scenario;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger signals_count_open_insert after insert on signals referencing new table as new_rows
    for each statement execute function count_open_signals()`.execute(db);
  await sql`create trigger signals_count_open_update after update on signals referencing old table as old_rows new table as new_rows
    for each statement execute function count_open_signals()`.execute(db);
  await sql`create trigger signals_count_open_delete after delete on signals referencing old table as old_rows
    for each statement execute function count_open_signals()`.execute(db);

  await sql`
    insert into open_signal_counts (tenant_id, account_id, severity, scenario, open)
    select tenant_id, account_id, severity, scenario, count(*) from signals where resolved_at is null
    group by tenant_id, account_id, severity, scenario`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ['signals_count_open_insert', 'signals_count_open_update', 'signals_count_open_delete']) {
    await sql`drop trigger ${sql.raw(trigger)} on signals`.execute(db);
  }
  await sql`drop function count_open_signals()`.execute(db);
  await db.schema.dropTable('open_signal_counts').execute();
}
