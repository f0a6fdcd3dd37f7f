import { type Kysely, sql } from 'kysely';

// A change to what GET /me shows of a tenant (its name, plan or status), or its deletion, is announced on the
// `sentinel_tenant_changed` channel with the tenant's id, after the change commits, as user changes are
// (20261126T000100_user_change_notifications.ts): each API process forgets its cached copy of that tenant
// (db/read-cache.ts). Writes that change nothing shown (a checkout session noted, `updated_at`) announce nothing.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_tenant_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' or (old.name, old.plan, old.status) is distinct from (new.name, new.plan, new.status) then
        perform pg_notify('sentinel_tenant_changed', old.id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger tenants_notify_changed after update or delete on tenants
    for each row execute function notify_tenant_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger tenants_notify_changed on tenants`.execute(db);
  await sql`drop function notify_tenant_changed()`.execute(db);
}
