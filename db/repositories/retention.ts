import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

// Deleting what has outlived its use. Each statement deletes in one go: the daily run keeps each batch small.

/** Audit events older than `days` days. */
export async function deleteAuditEventsOlderThan({ db, days }: { db: Conn; days: number }): Promise<number> {
  const result = await db.deleteFrom('audit_events').where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Password reset and verification links (used or not) that expired more than a day ago: nothing reads them. */
export async function deleteSpentLinks({ db }: { db: Conn }): Promise<number> {
  const spent = sql<Date>`now() - interval '1 day'`;
  const [resets, verifications] = await Promise.all([
    db.deleteFrom('password_resets').where('expires_at', '<', spent).executeTakeFirst(),
    db.deleteFrom('email_verifications').where('expires_at', '<', spent).executeTakeFirst(),
  ]);
  return Number(resets.numDeletedRows) + Number(verifications.numDeletedRows);
}

/** Rate-limit windows that started more than `seconds` ago (longer than the longest window): they count nothing. */
export async function deleteRateLimitWindowsOlderThan({ db, seconds }: { db: Conn; seconds: number }): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('window_start', '<', sql<Date>`now() - make_interval(secs => ${seconds})`).executeTakeFirst();
  return Number(result.numDeletedRows);
}
