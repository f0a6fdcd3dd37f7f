import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

// Where users signed in from: a client address's limit key (an IPv4 address, an IPv6 /64), never a full address.

export async function recordSignInSource({
  db,
  userId,
  source,
}: {
  db: Conn;
  userId: string;
  source: string;
}): Promise<void> {
  await db
    .insertInto('sign_in_sources')
    .values({ user_id: userId, source, last_signed_in_at: sql`now()` })
    .onConflict((oc) => oc.columns(['user_id', 'source']).doUpdateSet({ last_signed_in_at: sql`now()` }))
    .execute();
}

/** Whether the account with this address was signed in to from `source` within the last `days` days. */
export async function isKnownSignInSource({
  db,
  email,
  source,
  days,
}: {
  db: Conn;
  email: string;
  source: string;
  days: number;
}): Promise<boolean> {
  const row = await db
    .selectFrom('sign_in_sources')
    .innerJoin('users', 'users.id', 'sign_in_sources.user_id')
    .select('sign_in_sources.user_id')
    .where('users.email', '=', email)
    .where('users.password_hash', 'is not', null)
    .where('sign_in_sources.source', '=', source)
    .where('sign_in_sources.last_signed_in_at', '>', sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return row !== undefined;
}

export async function forgetSignInSources({ db, userId }: { db: Conn; userId: string }): Promise<void> {
  await db.deleteFrom('sign_in_sources').where('user_id', '=', userId).execute();
}
