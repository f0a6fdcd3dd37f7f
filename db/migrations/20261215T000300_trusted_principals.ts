import { type Kysely, sql } from 'kysely';

// Trusted principals (docs/decisions.md, "Trusted principals"): the tenant's automation named once, for one of its
// accounts or all, for some event detections or all (null), with a reason and an expiry; revoked rather than deleted,
// so the record says who trusted what and until when. Ingestion reads the tenant's entries in force
// (`trusted_principals_in_force`). An event keeps the detections its trusted principals suppressed, and by which.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('trusted_principals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    // Null: every account of the tenant.
    .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('principal', 'text', (c) => c.notNull().check(sql`char_length(principal) between 1 and 2048`))
    .addColumn('detections', sql`text[]`, (c) => c.check(sql`detections is null or cardinality(detections) >= 1`))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`char_length(reason) between 1 and 500`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    // Kept when the user is removed: the record says who it was.
    .addColumn('created_by_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addCheckConstraint('trusted_principals_expiry_after_creation', sql`expires_at > created_at`)
    .execute();
  await sql`create index trusted_principals_in_force on trusted_principals (tenant_id, expires_at)
    where revoked_at is null`.execute(db);
  // [{ detection, trusted_principal_id }]; null when none was suppressed (nearly every event).
  await db.schema.alterTable('account_events').addColumn('suppressed', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_events').dropColumn('suppressed').execute();
  await db.schema.dropTable('trusted_principals').execute();
}
