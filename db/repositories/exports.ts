import { type Kysely, sql } from 'kysely';
import type { AcceptanceSource } from '../../domain/records/exports';
import type { Database } from '../database';

type Conn = Kysely<Database>;

const SIGNAL_FIELDS = [
  'id',
  'check_id',
  'scenario',
  'severity',
  'title',
  'description',
  'resource',
  'region',
  'detected_at',
  'resolved_at',
] as const;

/** Every acceptance of an account's signals (or of the given ones), oldest first, with who ended it. */
export async function acceptances({
  db,
  tenantId,
  accountId,
  signalIds,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  signalIds?: string[];
}): Promise<AcceptanceSource[]> {
  if (signalIds?.length === 0) return [];
  let query = db
    .selectFrom('signal_acceptances')
    .leftJoin('users as ender', 'ender.id', 'signal_acceptances.revoked_by')
    .select([
      'signal_acceptances.id',
      'signal_acceptances.signal_id',
      'signal_acceptances.accepted_by_email',
      'signal_acceptances.reason',
      'signal_acceptances.accepted_at',
      'signal_acceptances.expires_at',
      'signal_acceptances.revoked_at',
      'ender.email as revoked_by_email',
    ])
    .where('signal_acceptances.tenant_id', '=', tenantId)
    .where('signal_acceptances.account_id', '=', accountId);
  if (signalIds) query = query.where('signal_acceptances.signal_id', 'in', signalIds);
  return query.orderBy('signal_acceptances.accepted_at').orderBy('signal_acceptances.id').execute();
}

/**
 * One page of an account's signals, open and resolved, oldest first by (detected_at, id), strictly after `after`
 * (keyset: each page costs the same). `cursor_at` is PostgreSQL's own text of detected_at, whose microseconds a
 * JavaScript Date would lose: the next page starts after it.
 */
export async function signalsPage({
  db,
  tenantId,
  accountId,
  after,
  limit,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  after?: { at: string; id: string };
  limit: number;
}) {
  let query = db
    .selectFrom('signals')
    .select([...SIGNAL_FIELDS, sql<string>`detected_at::text`.as('cursor_at')])
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId);
  if (after) query = query.where(sql<boolean>`(detected_at, id) > (${after.at}::timestamptz, ${after.id})`);
  return query.orderBy('detected_at').orderBy('id').limit(limit).execute();
}

export async function countSignals({ db, tenantId, accountId }: { db: Conn; tenantId: string; accountId: string }) {
  const row = await db
    .selectFrom('signals')
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      eb.fn.count<string>('id').filterWhere('resolved_at', 'is', null).as('open'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), open: Number(row.open) };
}

export async function insertExport({
  db,
  row,
}: {
  db: Conn;
  row: { id: string; tenant_id: string; account_id: string; requested_by: string };
}): Promise<void> {
  await db
    .insertInto('exports')
    .values({ ...row, status: 'running' })
    .execute();
}

export async function deleteExport({
  db,
  tenantId,
  exportId,
}: {
  db: Conn;
  tenantId: string;
  exportId: string;
}): Promise<void> {
  await db.deleteFrom('exports').where('id', '=', exportId).where('tenant_id', '=', tenantId).execute();
}

export async function findExport({ db, tenantId, exportId }: { db: Conn; tenantId: string; exportId: string }) {
  return db
    .selectFrom('exports')
    .selectAll()
    .where('id', '=', exportId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/**
 * An export found by its id alone, with its account's AWS id: only for the download link, whose signature
 * (made by us over the export id) is the proof of access in place of a tenant-scoped caller.
 */
export async function findExportForDownload({ db, exportId }: { db: Conn; exportId: string }) {
  return db
    .selectFrom('exports')
    .innerJoin('accounts', 'accounts.id', 'exports.account_id')
    .select([
      'exports.id',
      'exports.tenant_id',
      'exports.status',
      'exports.storage_key',
      'exports.created_at',
      'exports.completed_at',
      'accounts.aws_account_id',
    ])
    .where('exports.id', '=', exportId)
    .executeTakeFirst();
}

/** Running to ready; false when the export is no longer running (abandoned by the API, or already done). */
export async function markExportReady({
  db,
  tenantId,
  exportId,
  storageKey,
}: {
  db: Conn;
  tenantId: string;
  exportId: string;
  storageKey: string;
}): Promise<boolean> {
  const result = await db
    .updateTable('exports')
    .set({ status: 'ready', storage_key: storageKey, completed_at: new Date() })
    .where('id', '=', exportId)
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markExportFailed({
  db,
  tenantId,
  exportId,
}: {
  db: Conn;
  tenantId: string;
  exportId: string;
}): Promise<void> {
  await db
    .updateTable('exports')
    .set({ status: 'failed', completed_at: new Date() })
    .where('id', '=', exportId)
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'running')
    .execute();
}

/** The package is deleted from the store: the export stays in the record, with nothing left to download. */
export async function forgetExportPackage({
  db,
  tenantId,
  exportId,
}: {
  db: Conn;
  tenantId: string;
  exportId: string;
}): Promise<void> {
  await db
    .updateTable('exports')
    .set({ storage_key: null })
    .where('id', '=', exportId)
    .where('tenant_id', '=', tenantId)
    .execute();
}
