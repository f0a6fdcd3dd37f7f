import { type Kysely, sql } from 'kysely';

// Password reset links: single-use, valid one hour, stored only as SHA-256 hashes of their tokens. A reset also
// ends the user's sessions: id tokens issued before `sessions_valid_after` are refused.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();
  await db.schema.alterTable('users').addColumn('sessions_valid_after', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('sessions_valid_after').execute();
  await db.schema.dropTable('password_resets').execute();
}
