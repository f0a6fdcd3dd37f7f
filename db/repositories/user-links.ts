import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

// Single-use links mailed to a user (password resets, e-mail verifications): stored only as SHA-256 hashes of
// their tokens; the database clock decides expiry, as for invitations. Both tables have the same columns.

export type UserLinkTable = 'password_resets' | 'email_verifications';

/** Stores a new link and ends the user's earlier live ones of the same kind: only the newest works. */
export async function insertUserLink({
  db,
  table,
  id,
  userId,
  tokenHash,
  ttlMinutes,
}: {
  db: Conn;
  table: UserLinkTable;
  id: string;
  userId: string;
  tokenHash: string;
  ttlMinutes: number;
}): Promise<{ expiresAt: Date }> {
  await db
    .updateTable(table)
    .set({ expires_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .execute();
  const row = await db
    .insertInto(table)
    .values({
      id,
      user_id: userId,
      token_hash: tokenHash,
      expires_at: sql<Date>`now() + make_interval(mins => ${ttlMinutes})`,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { expiresAt: row.expires_at };
}

/** Marks a live link used in one statement, so of two racing requests exactly one gets its user back. */
export async function consumeUserLink({ db, table, tokenHash }: { db: Conn; table: UserLinkTable; tokenHash: string }) {
  return db
    .with('used', (q) =>
      q
        .updateTable(table)
        .set({ used_at: sql`now()` })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning('user_id'),
    )
    .selectFrom('used')
    .innerJoin('users', 'users.id', 'used.user_id')
    .select(['users.id', 'users.tenant_id', 'users.email', 'users.role'])
    .executeTakeFirst();
}

/** Whether a link is live (known, unused, unexpired): the cheap check before any work is done for it. */
export async function findLiveUserLink({
  db,
  table,
  tokenHash,
}: {
  db: Conn;
  table: UserLinkTable;
  tokenHash: string;
}) {
  return db
    .selectFrom(table)
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}
