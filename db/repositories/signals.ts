import { type Kysely, sql } from 'kysely';
import type { Scenario, Severity } from '../../domain/checks/types';
import type { Database } from '../database';
import type { SignalAcceptanceRow, SignalRow } from '../tables/accounts';

type Conn = Kysely<Database>;

export interface SignalFilter {
  tenantId: string;
  accountId: string;
  severity?: Severity;
  scenario?: Scenario;
  since?: Date;
  status: 'open' | 'resolved' | 'all';
  /** Keyset: rows strictly after this (detected_at, id) in newest-first order. */
  after?: { at: Date; id: string };
  limit: number;
}

/** The acceptance not undone or replaced (it may have expired since), as a signal body shows it. */
export type CurrentAcceptance = Pick<SignalAcceptanceRow, 'accepted_by' | 'accepted_by_email' | 'reason' | 'accepted_at' | 'expires_at'>;
export type SignalWithAcceptance = SignalRow & { acceptance: CurrentAcceptance | null };

const ACCEPTANCE_COLUMNS = [
  'signal_acceptances.accepted_by', 'signal_acceptances.accepted_by_email', 'signal_acceptances.reason',
  'signal_acceptances.accepted_at', 'signal_acceptances.expires_at',
] as const;

function withAcceptance<R extends SignalRow & { [K in keyof CurrentAcceptance]: CurrentAcceptance[K] | null }>(row: R): SignalWithAcceptance {
  const { accepted_by, accepted_by_email, reason, accepted_at, expires_at, ...signal } = row;
  const acceptance = accepted_at === null ? null : { accepted_by, accepted_by_email: accepted_by_email ?? '', reason: reason ?? '', accepted_at, expires_at };
  return { ...(signal as unknown as SignalRow), acceptance };
}

/** Signals, each beside its acceptance not undone or replaced (columns null when there is none). */
export function signalsWithCurrentAcceptance(db: Conn) {
  return db.selectFrom('signals')
    .leftJoin('signal_acceptances', (join) => join.onRef('signal_acceptances.signal_id', '=', 'signals.id')
      .on('signal_acceptances.revoked_at', 'is', null));
}

/** Newest first by (detected_at, id); keyset pagination, so page 100 costs what page 1 costs. */
export async function listSignals({ db, filter }: { db: Conn; filter: SignalFilter }): Promise<SignalWithAcceptance[]> {
  let query = signalsWithCurrentAcceptance(db)
    .selectAll('signals')
    .select(ACCEPTANCE_COLUMNS)
    .where('signals.tenant_id', '=', filter.tenantId)
    .where('signals.account_id', '=', filter.accountId);
  if (filter.severity) query = query.where('signals.severity', '=', filter.severity);
  if (filter.scenario) query = query.where('signals.scenario', '=', filter.scenario);
  if (filter.since) query = query.where('signals.detected_at', '>', filter.since);
  if (filter.status === 'open') query = query.where('signals.resolved_at', 'is', null);
  if (filter.status === 'resolved') query = query.where('signals.resolved_at', 'is not', null);
  if (filter.after) {
    const { at, id } = filter.after;
    query = query.where(sql<boolean>`(signals.detected_at, signals.id) < (${at}, ${id})`);
  }
  const rows = await query.orderBy('signals.detected_at', 'desc').orderBy('signals.id', 'desc').limit(filter.limit).execute();
  return rows.map(withAcceptance);
}

/** One signal of an account, with its current acceptance; `forUpdate` locks the signal's row. */
export async function findSignal({ db, tenantId, accountId, signalId, forUpdate = false }: {
  db: Conn; tenantId: string; accountId: string; signalId: string; forUpdate?: boolean;
}): Promise<SignalWithAcceptance | undefined> {
  let query = signalsWithCurrentAcceptance(db)
    .selectAll('signals')
    .select(ACCEPTANCE_COLUMNS)
    .where('signals.tenant_id', '=', tenantId)
    .where('signals.account_id', '=', accountId)
    .where('signals.id', '=', signalId);
  if (forUpdate) query = query.forUpdate('signals');
  const row = await query.executeTakeFirst();
  return row && withAcceptance(row);
}

/** Ends the acceptance in force (undone or replaced): the record stays. Returns how many were ended (0 or 1). */
export async function revokeAcceptance({ db, signalId, revokedBy, at }: { db: Conn; signalId: string; revokedBy: string; at: Date }): Promise<number> {
  const result = await db.updateTable('signal_acceptances').set({ revoked_at: at, revoked_by: revokedBy })
    .where('signal_id', '=', signalId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertAcceptance({ db, acceptance }: {
  db: Conn;
  acceptance: {
    id: string; tenant_id: string; account_id: string; signal_id: string; accepted_by: string; accepted_by_email: string;
    reason: string; accepted_at: Date; expires_at: Date | null;
  };
}): Promise<void> {
  await db.insertInto('signal_acceptances').values(acceptance).execute();
}

export async function openSignals({ db, tenantId, accountId }: { db: Conn; tenantId: string; accountId: string }) {
  return db
    .selectFrom('signals')
    .select(['check_id', 'severity'])
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .where('resolved_at', 'is', null)
    .execute();
}

/** Newest first, at most one point per day, within the last `days` days (today included). */
export async function scoreHistory({ db, accountId, days }: { db: Conn; accountId: string; days: number }) {
  return db
    .selectFrom('score_history')
    .select(['day', 'srs'])
    .where('account_id', '=', accountId)
    // Days are UTC calendar days, as the scan that records a point computes them.
    .where('day', '>', sql<string>`((now() at time zone 'utc')::date - ${days}::int)`)
    .orderBy('day', 'desc')
    .execute();
}
