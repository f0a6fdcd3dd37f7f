import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

// Reset tokens are stored only as SHA-256 hashes; the database clock decides expiry, as for invitations.

/** Stores a new link and ends the user's earlier live ones: only the newest works. */
export async function insertPasswordReset({ db, id, userId, tokenHash, ttlMinutes }: {
  db: Conn; id: string; userId: string; tokenHash: string; ttlMinutes: number;
}): Promise<{ expiresAt: Date }> {
  await db.updateTable('password_resets').set({ expires_at: sql`now()` })
    .where('user_id', '=', userId).where('used_at', 'is', null).where('expires_at', '>', sql<Date>`now()`).execute();
  const row = await db.insertInto('password_resets')
    .values({ id, user_id: userId, token_hash: tokenHash, expires_at: sql<Date>`now() + make_interval(mins => ${ttlMinutes})` })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { expiresAt: row.expires_at };
}

/** Marks a live link used in one statement, so of two racing confirmations exactly one gets its user back. */
export async function consumePasswordReset({ db, tokenHash }: { db: Conn; tokenHash: string }) {
  return db.with('used', (q) => q.updateTable('password_resets').set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id'))
    .selectFrom('used').innerJoin('users', 'users.id', 'used.user_id')
    .select(['users.id', 'users.tenant_id', 'users.email'])
    .executeTakeFirst();
}
