import { type Kysely, sql } from 'kysely';

// Every change to a user row (role, removal, sessions ended by a password reset, address) is announced on the
// `sentinel_user_changed` channel with `<tenant_id>:<user_id>`, after the change commits. Each API process
// listens and forgets its cached copy of that caller (db/read-cache.ts), so a removed user or a changed role
// takes effect on every process at once. A trigger rather than the code that writes: no write path can forget.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_user_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('sentinel_user_changed', old.tenant_id || ':' || old.id);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger users_notify_changed after update or delete on users
    for each row execute function notify_user_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger users_notify_changed on users`.execute(db);
  await sql`drop function notify_user_changed()`.execute(db);
}
