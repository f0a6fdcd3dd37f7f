import { type Kysely, sql } from 'kysely';

// A session is one sign-in (a login, an accepted invitation) and everything refreshed from it: its refresh tokens
// (one live at a time, each rotated into the next) and the id tokens issued with them, which carry its id (`sid`).
// Every authenticated request checks that the session has not ended, so a logout, a refresh token presented twice
// (a theft) or a password reset ends its id tokens at once on every API process, not when they expire.
//
// `refresh_tokens.session_id` is nullable: tokens issued before this migration (and by the previous release's
// processes while a deploy drains them) have none, and start a session of their own at their next refresh.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ended_at', 'timestamptz')
    .execute();
  // Ending every session of a user (a theft, a password reset) finds the live ones.
  await sql`create index sessions_live_user_idx on sessions (user_id) where ended_at is null`.execute(db);
  await db.schema
    .alterTable('refresh_tokens')
    .addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').column('session_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('session_id').execute();
  await db.schema.dropTable('sessions').execute();
}
