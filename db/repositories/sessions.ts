import type { Kysely } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

export async function insertSession({ db, id, userId }: { db: Conn; id: string; userId: string }): Promise<void> {
  await db.insertInto('sessions').values({ id, user_id: userId }).execute();
}

/** Whether the user's session is still going: one primary-key lookup, made on every authenticated request. */
export async function isLiveSession({
  db,
  sessionId,
  userId,
}: {
  db: Conn;
  sessionId: string;
  userId: string;
}): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Locks a live session until the transaction ends (a refresh rotating its token); false when it has ended. Ending a
 * session updates the same row, so a refresh and the end of its session follow one another.
 */
export async function lockLiveSession({ db, sessionId }: { db: Conn; sessionId: string }): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function endSession({ db, sessionId }: { db: Conn; sessionId: string }): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ended_at: new Date() })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

export async function endUserSessions({ db, userId }: { db: Conn; userId: string }): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ended_at: new Date() })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .execute();
}
