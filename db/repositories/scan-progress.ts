import { type Kysely, sql } from 'kysely';
import type { Collected, CostExplorerPart } from '../../domain/scans/inventory';
import type { Checkpoint, ReadOutcome } from '../../domain/scans/scan-progress';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** The reads earlier attempts of a scan settled (empty for a first attempt). */
export async function loadCheckpoint({ db, scanId }: { db: Conn; scanId: string }): Promise<Checkpoint> {
  const row = await db.selectFrom('scan_checkpoints').select('reads').where('scan_id', '=', scanId).executeTakeFirst();
  return row?.reads ?? {};
}

/** Adds settled reads to the scan's checkpoint (one statement, whatever was there already). */
export async function saveCheckpoint({
  db,
  scanId,
  reads,
}: {
  db: Conn;
  scanId: string;
  reads: Record<string, ReadOutcome>;
}): Promise<void> {
  const json = JSON.stringify(reads);
  await db
    .insertInto('scan_checkpoints')
    .values({ scan_id: scanId, reads: json })
    .onConflict((oc) =>
      oc.column('scan_id').doUpdateSet({
        reads: sql`scan_checkpoints.reads || ${json}::jsonb`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

/** The account's Cost Explorer parts read since `since`: a scan reuses them instead of paying AWS again. */
export async function recentCostExplorerReads({
  db,
  accountId,
  since,
}: {
  db: Conn;
  accountId: string;
  since: Date;
}): Promise<Partial<Record<CostExplorerPart, Collected<never>>>> {
  const rows = await db
    .selectFrom('cost_explorer_reads')
    .select(['part', 'value'])
    .where('account_id', '=', accountId)
    .where('read_at', '>', since)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.part, { status: 'ok', value: r.value }]));
}

export async function keepCostExplorerRead({
  db,
  accountId,
  part,
  value,
  readAt,
}: {
  db: Conn;
  accountId: string;
  part: CostExplorerPart;
  value: unknown;
  readAt: Date;
}): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('cost_explorer_reads')
    .values({ account_id: accountId, part, value: json, read_at: readAt })
    .onConflict((oc) => oc.columns(['account_id', 'part']).doUpdateSet({ value: json, read_at: readAt }))
    .execute();
}

/** A saved scan needs its checkpoint no more. */
export async function deleteCheckpoint({ db, scanId }: { db: Conn; scanId: string }): Promise<void> {
  await db.deleteFrom('scan_checkpoints').where('scan_id', '=', scanId).execute();
}
