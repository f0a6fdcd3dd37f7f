import type { Kysely } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

export async function insertRefreshToken({
  db,
  id,
  userId,
  sessionId,
  tokenHash,
  expiresAt,
}: {
  db: Conn;
  id: string;
  userId: string;
  sessionId: string;
  tokenHash: string;
  expiresAt: Date;
}): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({ id, user_id: userId, session_id: sessionId, token_hash: tokenHash, expires_at: expiresAt })
    .execute();
}

/** The token, its user, and whether its session has ended. */
export async function findRefreshToken({ db, id }: { db: Conn; id: string }) {
  return db
    .selectFrom('refresh_tokens')
    .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
    .leftJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select([
      'refresh_tokens.id',
      'refresh_tokens.token_hash',
      'refresh_tokens.expires_at',
      'refresh_tokens.revoked_at',
      'refresh_tokens.session_id',
      'sessions.ended_at as session_ended_at',
      'users.id as user_id',
      'users.tenant_id',
      'users.email',
      'users.name',
    ])
    .where('refresh_tokens.id', '=', id)
    .executeTakeFirst();
}

/** Revokes one token if it is still live; true when this call revoked it (so a racing reuse loses). */
export async function revokeRefreshToken({ db, id }: { db: Conn; id: string }): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function revokeAllRefreshTokens({ db, userId }: { db: Conn; userId: string }): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
