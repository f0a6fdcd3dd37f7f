import type { Kysely } from 'kysely';
import type { CheckOutcome } from '../../domain/checks/evaluate';
import type { ScanStatus, ScanTrigger } from '../../domain/accounts/status';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** A scan's check outcomes (null for a scan that recorded none) and when it started. */
export async function findScanChecks({ db, accountId, scanId }: { db: Conn; accountId: string; scanId: string }) {
  return db
    .selectFrom('scans')
    .select(['id', 'started_at', 'checks'])
    .where('id', '=', scanId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** The check outcomes of some of a tenant's scans (an account's `checks_scan_id`), with when each started. */
export async function findChecksOfScans({
  db,
  tenantId,
  scanIds,
}: {
  db: Conn;
  tenantId: string;
  scanIds: readonly string[];
}) {
  if (scanIds.length === 0) return [];
  return db
    .selectFrom('scans')
    .select(['id', 'account_id', 'started_at', 'checks'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...scanIds])
    .execute();
}

/**
 * The check outcomes of the targeted rescans (trigger `event`) that succeeded since each account's latest full scan
 * (its `checks_scan_id`), oldest first: what they evaluated is newer than that scan.
 */
export async function findRescanChecksSinceFullScan({
  db,
  tenantId,
  accountIds,
}: {
  db: Conn;
  tenantId: string;
  accountIds: readonly string[];
}) {
  if (accountIds.length === 0) return [];
  return db
    .selectFrom('scans as rescan')
    .innerJoin('accounts', 'accounts.id', 'rescan.account_id')
    .innerJoin('scans as full', 'full.id', 'accounts.checks_scan_id')
    .select(['rescan.id', 'rescan.account_id', 'rescan.started_at', 'rescan.checks'])
    .where('rescan.tenant_id', '=', tenantId)
    .where('rescan.account_id', 'in', [...accountIds])
    .where('rescan.trigger', '=', 'event')
    .where('rescan.status', '=', 'succeeded')
    .where('rescan.checks', 'is not', null)
    .whereRef('rescan.started_at', '>', 'full.started_at')
    .orderBy('rescan.account_id')
    .orderBy('rescan.started_at')
    .execute();
}

/** Inserts a running scan; false when it exists already (a retried activity). */
export async function insertRunningScan({
  db,
  scan,
}: {
  db: Conn;
  scan: { id: string; tenant_id: string; account_id: string; trigger: ScanTrigger; started_at: Date };
}): Promise<boolean> {
  const inserted = await db
    .insertInto('scans')
    .values({ ...scan, status: 'running' })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** A scan's status and score (undefined when the account has no such scan). */
export async function findScanState({ db, accountId, scanId }: { db: Conn; accountId: string; scanId: string }) {
  return db
    .selectFrom('scans')
    .select(['status', 'srs', 'failure_reason', 'started_at'])
    .where('id', '=', scanId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function finishScan({
  db,
  scanId,
  fields,
}: {
  db: Conn;
  scanId: string;
  fields: {
    status: ScanStatus;
    srs: number | null;
    failure_reason: string | null;
    checks: readonly CheckOutcome[];
    finished_at: Date;
  };
}): Promise<void> {
  await db
    .updateTable('scans')
    .set({ ...fields, checks: JSON.stringify(fields.checks) })
    .where('id', '=', scanId)
    .execute();
}

/** Fails a scan still running (a finished one keeps its outcome). */
export async function failRunningScan({
  db,
  scanId,
  reason,
  at,
}: {
  db: Conn;
  scanId: string;
  reason: string;
  at: Date;
}): Promise<void> {
  await db
    .updateTable('scans')
    .set({ status: 'failed', failure_reason: reason, finished_at: at })
    .where('id', '=', scanId)
    .where('status', '=', 'running')
    .execute();
}

/** Fails every scan of the account still running (their workflows were stopped); answers how many. */
export async function failRunningScansOfAccount({
  db,
  accountId,
  reason,
  at,
}: {
  db: Conn;
  accountId: string;
  reason: string;
  at: Date;
}): Promise<number> {
  const result = await db
    .updateTable('scans')
    .set({ status: 'failed', failure_reason: reason, finished_at: at })
    .where('account_id', '=', accountId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
