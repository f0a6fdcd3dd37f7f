import { type Kysely, type QueryCreator, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

export interface WindowState {
  count: number;
  /** Seconds until the current window ends. */
  resetsInSeconds: number;
}

/**
 * The statement that adds `hits` to a fixed window counter and returns the count and the seconds until the window
 * ends (`resets_in`), run by hitWindow (ingestion counts many windows in its own statement: account-events.ts).
 */
export function windowHit(
  db: QueryCreator<Database>,
  { key, windowSeconds, hits }: { key: string; windowSeconds: number; hits: number },
) {
  const expired = sql<boolean>`rate_limits.window_start <= now() - make_interval(secs => ${windowSeconds})`;
  return db
    .insertInto('rate_limits')
    .values({ key, window_start: sql`now()`, count: hits })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`case when ${expired} then ${hits}::int else rate_limits.count + ${hits}::int end`,
        window_start: sql`case when ${expired} then now() else rate_limits.window_start end`,
      }),
    )
    .returning([
      'count',
      sql<number>`ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now())))::int`.as(
        'resets_in',
      ),
    ]);
}

/** Adds `hits` (one unless told) to a fixed window counter in Postgres, shared by every API instance. */
export async function hitWindow({
  db,
  key,
  windowSeconds,
  hits = 1,
}: {
  db: Conn;
  key: string;
  windowSeconds: number;
  hits?: number;
}): Promise<WindowState> {
  const row = await windowHit(db, { key, windowSeconds, hits }).executeTakeFirstOrThrow();
  return { count: row.count, resetsInSeconds: Math.max(1, row.resets_in) };
}

/** Takes hits back (one unless told: a request that turned out not to count, e.g. a successful login). */
export async function releaseHit({ db, key, hits = 1 }: { db: Conn; key: string; hits?: number }): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql`greatest(count - ${hits}::int, 0)` })
    .where('key', '=', key)
    .execute();
}

export async function clearWindow({ db, key }: { db: Conn; key: string }): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}
