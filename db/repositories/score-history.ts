import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** Newest first, at most one point per day, within the last `days` days (today included). */
export async function scoreHistory({ db, accountId, days }: { db: Conn; accountId: string; days: number }) {
  return (
    db
      .selectFrom('score_history')
      .select(['day', 'srs', 'complete'])
      .where('account_id', '=', accountId)
      // Days are UTC calendar days, as the scan that records a point computes them.
      .where('day', '>', sql<string>`((now() at time zone 'utc')::date - ${days}::int)`)
      .orderBy('day', 'desc')
      .execute()
  );
}

/** The account's whole score history (one point per UTC day), newest first. */
export async function fullScoreHistory({ db, tenantId, accountId }: { db: Conn; tenantId: string; accountId: string }) {
  return db
    .selectFrom('score_history')
    .innerJoin('accounts', 'accounts.id', 'score_history.account_id')
    .select(['score_history.day', 'score_history.srs', 'score_history.complete', 'score_history.scan_id'])
    .where('accounts.tenant_id', '=', tenantId)
    .where('score_history.account_id', '=', accountId)
    .orderBy('score_history.day', 'desc')
    .execute();
}

/**
 * The day's point of an account's score history, with whether its score read every core source: the day's last scan
 * wins, whatever order retries arrive in.
 */
export async function recordScorePoint({
  db,
  point,
}: {
  db: Conn;
  point: { account_id: string; day: string; srs: number; complete: boolean; scan_id: string; recorded_at: Date };
}): Promise<void> {
  await db
    .insertInto('score_history')
    .values(point)
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'day'])
        .doUpdateSet({
          srs: sql`excluded.srs`,
          complete: sql`excluded.complete`,
          scan_id: sql`excluded.scan_id`,
          recorded_at: sql`excluded.recorded_at`,
        })
        .where('score_history.recorded_at', '<=', sql<Date>`excluded.recorded_at`),
    )
    .execute();
}
