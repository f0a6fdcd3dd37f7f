import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

// Deleting what has outlived its retention (domain/records/retention.ts). History tables are deleted in batches of
// `batch` rows, one statement each, so no statement holds its locks for long; each function answers how many
// rows it deleted, and `onBatch` lets the caller heartbeat between batches.

const olderThanDays = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;

async function inBatches(run: () => Promise<bigint>, batch: number, onBatch: () => void): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number(await run());
    total += deleted;
    onBatch();
    if (deleted < batch) return total;
  }
}

/** Audit events older than `days` days. */
export async function deleteAuditEventsOlderThan({ db, days }: { db: Conn; days: number }): Promise<number> {
  const result = await db.deleteFrom('audit_events').where('created_at', '<', olderThanDays(days)).executeTakeFirst();
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
  const result = await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Scans started more than `days` ago, with what hangs on them (alert events and their deliveries, score points,
 * checkpoints); signals they opened or resolved stay (their scan ids become null). An account's latest
 * compliance scan is kept whatever its age: its compliance view reads it.
 */
export function deleteScansOlderThan({
  db,
  days,
  batch,
  onBatch,
}: {
  db: Conn;
  days: number;
  batch: number;
  onBatch: () => void;
}): Promise<number> {
  return inBatches(
    async () =>
      (
        await db
          .deleteFrom('scans')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('scans as s')
              .select('s.id')
              .where('s.started_at', '<', olderThanDays(days))
              .where(({ not, exists, selectFrom }) =>
                not(
                  exists(selectFrom('accounts').select('accounts.id').whereRef('accounts.checks_scan_id', '=', 's.id')),
                ),
              )
              .limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
    batch,
    onBatch,
  );
}

/** Events received more than `days` ago. */
export function deleteEventsOlderThan({
  db,
  days,
  batch,
  onBatch,
}: {
  db: Conn;
  days: number;
  batch: number;
  onBatch: () => void;
}): Promise<number> {
  return inBatches(
    async () =>
      BigInt(
        (
          await sql`delete from account_events where ctid in (
    select ctid from account_events where received_at < ${olderThanDays(days)} limit ${batch})`.execute(db)
        ).numAffectedRows ?? 0n,
      ),
    batch,
    onBatch,
  );
}

/** Event batches received more than `days` ago, with the alert events that fired on them (signals stay). */
export function deleteEventBatchesOlderThan({
  db,
  days,
  batch,
  onBatch,
}: {
  db: Conn;
  days: number;
  batch: number;
  onBatch: () => void;
}): Promise<number> {
  return inBatches(
    async () =>
      (
        await db
          .deleteFrom('event_batches')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('event_batches as b')
              .select('b.id')
              .where('b.received_at', '<', olderThanDays(days))
              .limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
    batch,
    onBatch,
  );
}

/** Signals resolved more than `days` ago; open signals are kept however old. */
export function deleteResolvedSignalsOlderThan({
  db,
  days,
  batch,
  onBatch,
}: {
  db: Conn;
  days: number;
  batch: number;
  onBatch: () => void;
}): Promise<number> {
  return inBatches(
    async () =>
      (
        await db
          .deleteFrom('signals')
          .where('id', 'in', (eb) =>
            eb.selectFrom('signals as s').select('s.id').where('s.resolved_at', '<', olderThanDays(days)).limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
    batch,
    onBatch,
  );
}

/** Score points of days more than `days` ago (by row address: the table's key is a pair). */
export function deleteScorePointsOlderThan({
  db,
  days,
  batch,
  onBatch,
}: {
  db: Conn;
  days: number;
  batch: number;
  onBatch: () => void;
}): Promise<number> {
  return inBatches(
    async () =>
      BigInt(
        (
          await sql`delete from score_history where ctid in (
    select ctid from score_history where day < current_date - ${days}::int limit ${batch})`.execute(db)
        ).numAffectedRows ?? 0n,
      ),
    batch,
    onBatch,
  );
}

/** Settled deliveries (and their attempts) created more than `days` ago; one still on its way is kept. */
export function deleteDeliveriesOlderThan({
  db,
  days,
  batch,
  onBatch,
}: {
  db: Conn;
  days: number;
  batch: number;
  onBatch: () => void;
}): Promise<number> {
  return inBatches(
    async () =>
      (
        await db
          .deleteFrom('alert_deliveries')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('alert_deliveries as d')
              .select('d.id')
              .where('d.created_at', '<', olderThanDays(days))
              .where('d.status', 'in', ['delivered', 'failed', 'held'])
              .limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
    batch,
    onBatch,
  );
}
