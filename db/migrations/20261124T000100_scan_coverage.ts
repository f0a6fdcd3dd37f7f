import { type Kysely, sql } from 'kysely';

// Coverage is data: each scan keeps every check's outcome, and the account the coverage of its latest one.
// Signals remember the resource they belong to (an access key's user), so a scan that could not read the user
// leaves them open. Accepted risk, kept for good. A scan's reads survive a retry of its activity; Cost Explorer's
// answers are reused between scans (AWS bills each request).

export async function up(db: Kysely<any>): Promise<void> {
  // One outcome per check of the catalog: [{ checkId, status, failingResources, reason, unread }].
  await db.schema.alterTable('scans').addColumn('checks', 'jsonb').execute();

  await db.schema
    .alterTable('accounts')
    .addColumn('checks_scan_id', 'text', (c) => c.references('scans.id').onDelete('set null'))
    .addColumn('coverage_evaluated', 'integer', (c) => c.check(sql`coverage_evaluated >= 0`))
    .addColumn('coverage_total', 'integer', (c) => c.check(sql`coverage_total >= 0`))
    .addColumn('score_complete', 'boolean')
    .execute();

  await db.schema.alterTable('signals').addColumn('owner', 'text').execute();

  // Every acceptance of a signal's risk, kept when it is undone, replaced or expires. At most one in force.
  await db.schema
    .createTable('signal_acceptances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('signal_id', 'text', (c) => c.notNull().references('signals.id').onDelete('cascade'))
    .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    // Kept when the user is removed: the record says who it was.
    .addColumn('accepted_by_email', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`char_length(reason) between 1 and 500`))
    .addColumn('accepted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    // The first scan that found the acceptance expired: that scan counts the signal as new for alert rules.
    .addColumn('expiry_scan_id', 'text', (c) => c.references('scans.id').onDelete('set null'))
    .addCheckConstraint(
      'signal_acceptances_expiry_after_acceptance',
      sql`expires_at is null or expires_at > accepted_at`,
    )
    .execute();
  await sql`create unique index signal_acceptances_one_in_force on signal_acceptances (signal_id) where revoked_at is null`.execute(
    db,
  );
  await db.schema
    .createIndex('signal_acceptances_account_idx')
    .on('signal_acceptances')
    .columns(['account_id', 'accepted_at'])
    .execute();

  // What an attempt of a scan has read, for the next attempt. Deleted when the scan is saved.
  await db.schema
    .createTable('scan_checkpoints')
    .addColumn('scan_id', 'text', (c) => c.primaryKey().references('scans.id').onDelete('cascade'))
    .addColumn('reads', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // The last Cost Explorer answer per account and part, reused by scans until it is old enough to read again.
  await db.schema
    .createTable('cost_explorer_reads')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('part', 'text', (c) => c.notNull().check(sql`part in ('costs', 'anomalies')`))
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('cost_explorer_reads_pk', ['account_id', 'part'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cost_explorer_reads').execute();
  await db.schema.dropTable('scan_checkpoints').execute();
  await db.schema.dropTable('signal_acceptances').execute();
  await db.schema.alterTable('signals').dropColumn('owner').execute();
  await db.schema
    .alterTable('accounts')
    .dropColumn('checks_scan_id')
    .dropColumn('coverage_evaluated')
    .dropColumn('coverage_total')
    .dropColumn('score_complete')
    .execute();
  await db.schema.alterTable('scans').dropColumn('checks').execute();
}
