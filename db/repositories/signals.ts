import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import type { SignalRow } from '../tables/accounts';

type Conn = Kysely<Database>;

export interface SignalFilter {
  tenantId: string;
  accountId: string;
  severity?: string;
  scenario?: string;
  since?: Date;
  status: 'open' | 'resolved' | 'all';
  /** Keyset: rows strictly after this (detected_at, id) in newest-first order. */
  after?: { at: Date; id: string };
  limit: number;
}

/** Newest first by (detected_at, id); keyset pagination, so page 100 costs what page 1 costs. */
export async function listSignals({ db, filter }: { db: Conn; filter: SignalFilter }): Promise<SignalRow[]> {
  let query = db
    .selectFrom('signals')
    .selectAll()
    .where('tenant_id', '=', filter.tenantId)
    .where('account_id', '=', filter.accountId);
  if (filter.severity) query = query.where('severity', '=', filter.severity);
  if (filter.scenario) query = query.where('scenario', '=', filter.scenario);
  if (filter.since) query = query.where('detected_at', '>', filter.since);
  if (filter.status === 'open') query = query.where('resolved_at', 'is', null);
  if (filter.status === 'resolved') query = query.where('resolved_at', 'is not', null);
  if (filter.after) {
    const { at, id } = filter.after;
    query = query.where(sql<boolean>`(detected_at, id) < (${at}, ${id})`);
  }
  return query.orderBy('detected_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
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
