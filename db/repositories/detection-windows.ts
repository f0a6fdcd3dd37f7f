import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import type { RememberedUse, SensitiveUse, WindowState, WindowTally } from '../../domain/events/windows';

type Conn = Kysely<Database>;

// The state of the detections with memory (db/migrations/20261215T000200_detection_windows.ts), written in the
// transaction that stores a request's events: one statement adds the request's tallies to their windows, one records
// its sensitive calls; a window that reaches its threshold is marked by one more, and what a request added beyond an
// account's bound is evicted by another, only when it created rows.

interface Owner {
  db: Conn;
  tenantId: string;
  accountId: string;
  at: Date;
}

/** What an account may keep: rows older than `before` go, and beyond `rows` the least recently updated. */
export interface StateBound {
  before: Date;
  rows: number;
}

/**
 * Adds each tally to its window (created on its first event) and answers every window's state after it: its count,
 * its distinct values (at most DISTINCT_VALUES_CAP, the first seen) and whether it opened its signal already.
 */
export async function addToWindows({
  db,
  tenantId,
  accountId,
  at,
  tallies,
  valueCap,
  bound,
}: Owner & {
  tallies: readonly WindowTally[];
  /** At most this many distinct values per window, the first seen. */
  valueCap: number;
  bound: StateBound;
}): Promise<WindowState[]> {
  if (tallies.length === 0) return [];
  const input = JSON.stringify(
    tallies.map((t) => ({
      detection_id: t.detectionId,
      key: t.key,
      window_start: t.windowStart.toISOString(),
      count: t.count,
      distinct_values: t.values,
    })),
  );
  const { rows } = await sql<{
    detection_id: string;
    key: string;
    window_start: Date;
    count: number;
    distinct_count: number;
    signalled: boolean;
    created: boolean;
  }>`insert into detection_windows as w
      (account_id, tenant_id, detection_id, key, window_start, count, distinct_values, updated_at)
    select ${accountId}, ${tenantId}, x.detection_id, x.key, x.window_start, x.count, x.distinct_values, ${at}
    from jsonb_to_recordset(${input}::jsonb)
      as x(detection_id text, key text, window_start timestamptz, count integer, distinct_values text[])
    on conflict (account_id, detection_id, key, window_start) do update set
      count = w.count + excluded.count,
      distinct_values = array(
        select v from unnest(w.distinct_values || excluded.distinct_values) with ordinality as u(v, n)
        group by v order by min(n) limit ${valueCap}
      ),
      updated_at = excluded.updated_at
    returning detection_id, key, window_start, count, cardinality(distinct_values) as distinct_count, signalled,
      (xmax = 0) as created`.execute(db);
  if (rows.some((r) => r.created)) await evictWindows({ db, accountId, bound });
  return rows.map((r) => ({
    detectionId: r.detection_id,
    key: r.key,
    windowStart: r.window_start,
    count: r.count,
    distinct: r.distinct_count,
    signalled: r.signalled,
  }));
}

/** Windows that started before the bound, and the least recently updated beyond its rows, are deleted. */
async function evictWindows({ db, accountId, bound }: { db: Conn; accountId: string; bound: StateBound }) {
  await sql`delete from detection_windows where account_id = ${accountId} and (window_start < ${bound.before} or ctid in (
      select ctid from detection_windows where account_id = ${accountId}
      order by updated_at desc offset ${bound.rows}))`.execute(db);
}

/**
 * Marks the windows that reached their threshold as having opened their signal, and answers those it marked: a window
 * another request marked meanwhile opens nothing here, so each window opens one signal at most.
 */
export async function markWindowsSignalled({
  db,
  accountId,
  windows,
}: {
  db: Conn;
  accountId: string;
  windows: readonly Pick<WindowState, 'detectionId' | 'key' | 'windowStart'>[];
}): Promise<Pick<WindowState, 'detectionId' | 'key' | 'windowStart'>[]> {
  if (windows.length === 0) return [];
  const input = JSON.stringify(
    windows.map((w) => ({ detection_id: w.detectionId, key: w.key, window_start: w.windowStart.toISOString() })),
  );
  const { rows } = await sql<{ detection_id: string; key: string; window_start: Date }>`update detection_windows w
    set signalled = true
    from jsonb_to_recordset(${input}::jsonb) as x(detection_id text, key text, window_start timestamptz)
    where w.account_id = ${accountId} and w.detection_id = x.detection_id and w.key = x.key
      and w.window_start = x.window_start and not w.signalled
    returning w.detection_id, w.key, w.window_start`.execute(db);
  return rows.map((r) => ({ detectionId: r.detection_id, key: r.key, windowStart: r.window_start }));
}

/**
 * Records the request's sensitive calls (each principal's latest use of each API) and answers, for each, what the
 * account remembered before: when the principal last made it, and the account's first stored event (from which it
 * learns). One statement: its reads see the state before its write.
 */
export async function recordSensitiveUses({
  db,
  tenantId,
  accountId,
  uses,
  bound,
}: Omit<Owner, 'at'> & { uses: readonly SensitiveUse[]; bound: StateBound }): Promise<RememberedUse[]> {
  if (uses.length === 0) return [];
  const input = JSON.stringify(
    uses.map((u) => ({ principal: u.principal, api: u.api, used_at: u.usedAt.toISOString() })),
  );
  const { rows } = await sql<{
    principal: string;
    api: string;
    last_used_at: Date | null;
    learning_since: Date | null;
  }>`with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as x(principal text, api text, used_at timestamptz)
    ), before as (
      select p.principal, p.api, p.last_used_at from principal_api_uses p
      join input i on i.principal = p.principal and i.api = p.api
      where p.account_id = ${accountId}
    ), recorded as (
      insert into principal_api_uses as p (account_id, tenant_id, principal, api, last_used_at)
      select ${accountId}, ${tenantId}, principal, api, used_at from input
      on conflict (account_id, principal, api) do update set last_used_at = greatest(p.last_used_at, excluded.last_used_at)
    )
    select i.principal, i.api, b.last_used_at,
      (select min(received_at) from account_events where account_id = ${accountId}) as learning_since
    from input i left join before b on b.principal = i.principal and b.api = i.api`.execute(db);
  if (rows.some((r) => r.last_used_at === null)) await evictUses({ db, accountId, bound });
  return rows.map((r) => ({
    principal: r.principal,
    api: r.api,
    lastUsedAt: r.last_used_at,
    learningSince: r.learning_since,
  }));
}

/** Uses last made before the bound, and the least recently made beyond its rows, are deleted. */
async function evictUses({ db, accountId, bound }: { db: Conn; accountId: string; bound: StateBound }) {
  await sql`delete from principal_api_uses where account_id = ${accountId} and (last_used_at < ${bound.before} or ctid in (
      select ctid from principal_api_uses where account_id = ${accountId}
      order by last_used_at desc offset ${bound.rows}))`.execute(db);
}
