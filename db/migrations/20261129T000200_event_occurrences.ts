import { type Kysely, sql } from 'kysely';

// Every occurrence counts (docs/decisions.md, "Events" and "Accepted risk"):
// - signals.principal and signals.occurred_at: who acted in the event that opened an event signal, and when (the
//   event's own time, or the scan's for a probable compromise a scan completed). An occurrence detection's later
//   occurrences are counted on the open signal of the same detection and principal whose first occurrence is within
//   the window (domain/events/occurrences.ts). Signals opened before this migration have neither: none of them
//   counts later occurrences, which open signals of their own.
// - signal_acceptances.scope: what an acceptance accepts. `signal`, the signal alone (every acceptance before this
//   one); `principal` or `detection`, also the later occurrences of the signal's detection by its principal or by
//   anyone, until the acceptance expires (required then). scope_principal is the principal a `principal` scope names;
//   scope_signal_id the signal the scoped acceptance was made on. An acceptance a scope gave a later occurrence's
//   signal names that scope (scope_acceptance_id) and carries its scope, reason and expiry.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('signals')
    .addColumn('principal', 'text')
    .addColumn('occurred_at', 'timestamptz')
    .execute();

  await db.schema
    .alterTable('signal_acceptances')
    .addColumn('scope', 'text', (c) =>
      c.notNull().defaultTo('signal').check(sql`scope in ('signal', 'principal', 'detection')`),
    )
    .addColumn('scope_principal', 'text')
    .addColumn('scope_signal_id', 'text', (c) => c.references('signals.id').onDelete('set null'))
    .addColumn('scope_acceptance_id', 'text', (c) => c.references('signal_acceptances.id').onDelete('set null'))
    .execute();
  await sql`alter table signal_acceptances add constraint signal_acceptances_scope_expires
    check (scope = 'signal' or expires_at is not null)`.execute(db);
  await sql`alter table signal_acceptances add constraint signal_acceptances_scope_principal
    check ((scope = 'principal') = (scope_principal is not null))`.execute(db);
  await sql`alter table signal_acceptances add constraint signal_acceptances_scope_given
    check (scope_acceptance_id is null or scope <> 'signal')`.execute(db);
  // The scopes an event batch looks for: few, so the account's own are found by the index alone.
  await sql`create index signal_acceptances_scopes_in_force_idx on signal_acceptances (account_id)
    where scope <> 'signal' and scope_acceptance_id is null and revoked_at is null`.execute(db);
  // What a scope gave, ended with it.
  await sql`create index signal_acceptances_given_by_scope_idx on signal_acceptances (scope_acceptance_id)
    where scope_acceptance_id is not null`.execute(db);
  await sql`create index signal_acceptances_scope_signal_idx on signal_acceptances (scope_signal_id)
    where scope_signal_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Their indexes and constraints go with the columns.
  await db.schema
    .alterTable('signal_acceptances')
    .dropColumn('scope_acceptance_id')
    .dropColumn('scope_signal_id')
    .dropColumn('scope_principal')
    .dropColumn('scope')
    .execute();
  await db.schema.alterTable('signals').dropColumn('occurred_at').dropColumn('principal').execute();
}
