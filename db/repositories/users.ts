import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { NewUser, UserRow } from '../tables/identity';

type Conn = Kysely<Database>;

export async function insertUser({ db, user }: { db: Conn; user: NewUser }): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findUserByEmail({ db, email }: { db: Conn; email: string }): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Always scoped by tenant: a user id from another tenant finds nothing. */
export async function findUser({ db, tenantId, userId }: { db: Conn; tenantId: string; userId: string }): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst();
}

export async function updateUserName({ db, tenantId, userId, name }: { db: Conn; tenantId: string; userId: string; name: string }) {
  return db
    .updateTable('users')
    .set({ name, updated_at: new Date() })
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .returning(['name'])
    .executeTakeFirst();
}
