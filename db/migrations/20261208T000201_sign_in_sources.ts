import type { Kysely } from 'kysely';

// Where each user signed in from (the client address's limit key: an IPv4 address, an IPv6 /64), and when last.
// A source that signed in to an account before is never slowed by the limit on failed logins for that account, so
// guesses spread over many addresses cannot lock its owner out (docs/decisions.md, "Across the API": Login).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_sources')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('last_signed_in_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_sources_pkey', ['user_id', 'source'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_sources').execute();
}
