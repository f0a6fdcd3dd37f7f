import type { Kysely } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** A scan's check outcomes (null for a scan that recorded none) and when it started. */
export async function findScanChecks({ db, accountId, scanId }: { db: Conn; accountId: string; scanId: string }) {
  return db.selectFrom('scans').select(['id', 'started_at', 'checks'])
    .where('id', '=', scanId).where('account_id', '=', accountId).executeTakeFirst();
}
