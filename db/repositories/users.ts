import { type Kysely, sql } from 'kysely';
import type { AssignableRole } from '../../domain/tenancy/roles';
import type { Database } from '../database';
import type { NewUser, UserRow } from '../tables/identity';

type Conn = Kysely<Database>;

/** The moment a user proves their address; the first proof is kept. */
const provedNow = sql<Date>`coalesce(email_verified_at, now())`;

export async function insertUser({ db, user }: { db: Conn; user: NewUser }): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/**
 * The account this address signs in to: its one user with a password, whichever the tenant. Invitees who have not
 * accepted (in any number of tenants) have no account yet.
 */
export async function findAccountByEmail({ db, email }: { db: Conn; email: string }): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .where('password_hash', 'is not', null)
    .executeTakeFirst();
}

/**
 * Removes the pending invitees (invited, never accepted) with this address, whichever tenants invited them, and
 * with them their invitation links; answers the tenants that had invited them. An accepted user is left alone.
 */
export async function cancelPendingInvitees({ db, email }: { db: Conn; email: string }): Promise<string[]> {
  const rows = await db
    .deleteFrom('users')
    .where('email', '=', email)
    .where('password_hash', 'is', null)
    .returning('tenant_id')
    .execute();
  return rows.map((r) => r.tenant_id);
}

/** The columns authentication needs of a user (api/middleware/auth.ts). */
export async function findCallerUser({ db, tenantId, userId }: { db: Conn; tenantId: string; userId: string }) {
  return db
    .selectFrom('users')
    .select(['id', 'tenant_id', 'role', 'email', 'name', 'created_at', 'email_verified_at', 'sessions_valid_after'])
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/** The user and their tenant, as GET /me shows them: one query. */
export async function findProfile({ db, tenantId, userId }: { db: Conn; tenantId: string; userId: string }) {
  return db
    .selectFrom('users')
    .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
    .select([
      'users.id',
      'users.email',
      'users.name',
      'users.role',
      'users.created_at',
      'users.email_verified_at',
      'tenants.name as tenant_name',
      'tenants.plan',
      'tenants.status',
      'tenants.created_at as tenant_created_at',
    ])
    .where('users.id', '=', userId)
    .where('users.tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/** Always scoped by tenant: a user id from another tenant finds nothing. */
export async function findUser({
  db,
  tenantId,
  userId,
}: {
  db: Conn;
  tenantId: string;
  userId: string;
}): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/** Sets the user's name; answers it with the name it replaced (the row as it was before this statement). */
export async function updateUserName({
  db,
  tenantId,
  userId,
  name,
}: {
  db: Conn;
  tenantId: string;
  userId: string;
  name: string;
}) {
  return db
    .updateTable('users as u')
    .from('users as before')
    .set({ name, updated_at: new Date() })
    .whereRef('before.id', '=', 'u.id')
    .where('u.id', '=', userId)
    .where('u.tenant_id', '=', tenantId)
    .returning(['u.name', 'before.name as previous_name'])
    .executeTakeFirst();
}

/** The tenant's team, oldest first. `accepted` is false while an invited user has not set a password yet. */
export async function listUsers({ db, tenantId }: { db: Conn; tenantId: string }) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'created_at', (eb) => eb('password_hash', 'is not', null).as('accepted')])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Never touches the owner, so a racing request cannot demote one. */
export async function updateUserRole({
  db,
  tenantId,
  userId,
  role,
}: {
  db: Conn;
  tenantId: string;
  userId: string;
  role: AssignableRole;
}) {
  return db
    .updateTable('users')
    .set({ role, updated_at: new Date() })
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('role', '!=', 'owner')
    .returning(['id', 'role', 'updated_at'])
    .executeTakeFirst();
}

/** Refresh tokens and invitations go with the row (foreign keys cascade). Never deletes the owner. */
export async function deleteUser({
  db,
  tenantId,
  userId,
}: {
  db: Conn;
  tenantId: string;
  userId: string;
}): Promise<boolean> {
  const result = await db
    .deleteFrom('users')
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('role', '!=', 'owner')
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Sets the first password of an invited user; returns nothing when the user already has one. */
export async function setInvitedUserPassword({
  db,
  tenantId,
  userId,
  passwordHash,
  name,
}: {
  db: Conn;
  tenantId: string;
  userId: string;
  passwordHash: string;
  name?: string;
}) {
  return (
    db
      .updateTable('users')
      // The invitation link was mailed to the address: following it proves the address.
      .set({
        password_hash: passwordHash,
        ...(name === undefined ? {} : { name }),
        email_verified_at: provedNow,
        updated_at: new Date(),
      })
      .where('id', '=', userId)
      .where('tenant_id', '=', tenantId)
      .where('password_hash', 'is', null)
      .returning(['id', 'tenant_id', 'email', 'name'])
      .executeTakeFirst()
  );
}

/**
 * Sets a user's password (a reset through a mailed link, which also proves the address) and ends the sessions
 * signed in before it.
 */
export async function setUserPassword({
  db,
  userId,
  passwordHash,
}: {
  db: Conn;
  userId: string;
  passwordHash: string;
}): Promise<void> {
  const now = new Date();
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, sessions_valid_after: now, email_verified_at: provedNow, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Records that the user proved their address (the first proof counts). */
export async function markEmailVerified({ db, userId }: { db: Conn; userId: string }): Promise<void> {
  await db.updateTable('users').set({ email_verified_at: provedNow }).where('id', '=', userId).execute();
}
