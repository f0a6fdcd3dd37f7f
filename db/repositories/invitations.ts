import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

// Invitation tokens are stored only as SHA-256 hashes. The database clock decides expiry everywhere, so API
// instances with skewed clocks agree on which links still work.

export async function insertInvitation({
  db,
  id,
  tenantId,
  userId,
  tokenHash,
  ttlDays,
}: {
  db: Conn;
  id: string;
  tenantId: string;
  userId: string;
  tokenHash: string;
  ttlDays: number;
}): Promise<{ expiresAt: Date }> {
  const row = await db
    .insertInto('invitations')
    .values({
      id,
      tenant_id: tenantId,
      user_id: userId,
      token_hash: tokenHash,
      expires_at: sql<Date>`now() + make_interval(days => ${ttlDays})`,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { expiresAt: row.expires_at };
}

const pending = sql<boolean>`accepted_at is null and expires_at > now()`;

/** The live invitation a token belongs to (unknown, used and expired tokens find nothing). */
export async function findPendingInvitation({ db, tokenHash }: { db: Conn; tokenHash: string }) {
  return db
    .selectFrom('invitations')
    .select(['id', 'tenant_id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where(pending)
    .executeTakeFirst();
}

/** Marks the invitation used in one statement, so of two racing accepts exactly one gets the row back. */
export async function consumeInvitation({ db, tokenHash }: { db: Conn; tokenHash: string }) {
  return db
    .updateTable('invitations')
    .set({ accepted_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where(pending)
    .returning(['id', 'tenant_id', 'user_id'])
    .executeTakeFirst();
}

/** Ends every other live link of a user, so only the newest (or the one just used) ever works. */
export async function expireOtherInvitations({
  db,
  tenantId,
  userId,
  keepId,
}: {
  db: Conn;
  tenantId: string;
  userId: string;
  keepId: string;
}): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ expires_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', '!=', keepId)
    .where(pending)
    .execute();
}

/**
 * The invited user, locked until the transaction ends. Resends and accepts of one user lock this row before
 * any of its invitations, so they run one after the other and never deadlock.
 */
export async function lockInvitee({ db, tenantId, userId }: { db: Conn; tenantId: string; userId: string }) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'password_hash'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/** Invited users whose invitation e-mail waited for the owner's verified address: never sent a link. */
export async function listWaitingInvitees({ db, tenantId }: { db: Conn; tenantId: string }) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role'])
    .where('tenant_id', '=', tenantId)
    .where('password_hash', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('invitations').select('id').whereRef('invitations.user_id', '=', 'users.id'))),
    )
    .orderBy('id')
    .execute();
}

/** Whether the tenant's owner has proved their address: until then the tenant's invitations wait. */
export async function ownerVerified({ db, tenantId }: { db: Conn; tenantId: string }): Promise<boolean> {
  const owner = await db
    .selectFrom('users')
    .select('email_verified_at')
    .where('tenant_id', '=', tenantId)
    .where('role', '=', 'owner')
    .executeTakeFirst();
  return owner?.email_verified_at != null;
}
