import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

/** The cheapest round trip that proves PostgreSQL answers (readiness probes). */
export async function pingDatabase({ db }: { db: Kysely<Database> }): Promise<void> {
  await sql`select 1`.execute(db);
}
