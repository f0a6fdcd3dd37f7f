import { type Kysely, sql } from 'kysely';
import type { AccountStatus } from '../../domain/accounts/status';
import type { Scenario, Severity } from '../../domain/checks/types';
import type { SrsBand } from '../../domain/scoring/srs-bands';
import type { Database } from '../database';
import { isoTimestamp } from '../json-sql';

// The portfolio overview (GET /overview): a few aggregate statements over one tenant, each building its part of the
// answer as JSON. What counts is the use case's to say (core/reports/overview.ts): the accounts monitored are those
// not disconnected, and an open signal counts unless its risk is accepted at `now`.

type Conn = Kysely<Database>;

const ISO = (column: string) => isoTimestamp(sql.ref(column));

/** An account as the overview's lists name it. */
const ACCOUNT_NAME = sql`'aws_account_id', a.aws_account_id, 'cloud_account_id', a.aws_account_id, 'display_name', a.display_name`;

/** A signal's acceptance in force at `now` (domain/signals/lifecycle.ts: until revoked or past its expiry). */
function inForce(now: Date) {
  return sql`sa.revoked_at is null and (sa.expires_at is null or sa.expires_at > ${now})`;
}

export interface AccountFigures {
  total: number;
  by_status: Record<AccountStatus, number>;
  by_srs_band: Record<SrsBand | 'unscored', number>;
  /** Of each band's accounts, those whose score did not read every core source. */
  incomplete_by_srs_band: Record<SrsBand, number>;
  worst_accounts: {
    aws_account_id: string;
    cloud_account_id: string;
    display_name: string | null;
    tags: string[];
    current_srs: number;
    score_complete: boolean | null;
    open_signals: number;
  }[];
  incomplete_coverage: {
    aws_account_id: string;
    cloud_account_id: string;
    display_name: string | null;
    coverage: { evaluated: number; total: number } | null;
    score_complete: boolean;
  }[];
  failing_scans: {
    aws_account_id: string;
    cloud_account_id: string;
    display_name: string | null;
    failed_at: string;
    failure_reason: string | null;
  }[];
}

/**
 * Everything the overview reads from the accounts, in one statement: counts by status (every account) and by band
 * (monitored accounts: `floors` are the bands' lowest scores), the `worst` lowest scored monitored accounts with their
 * open signals, the monitored accounts whose score is incomplete (least covered first), and those whose latest finished
 * scan failed (most recent first).
 */
export async function accountFigures({
  db,
  tenantId,
  floors,
  worst,
  now,
}: {
  db: Conn;
  tenantId: string;
  floors: Record<SrsBand, number>;
  worst: number;
  now: Date;
}): Promise<AccountFigures> {
  const { rows } = await sql<{ figures: AccountFigures }>`
    with mine as (
      select * from accounts where tenant_id = ${tenantId}
    ), monitored as (
      select * from mine where status <> 'DISCONNECTED'
    ), worst as (
      select * from monitored where current_srs is not null order by current_srs, aws_account_id limit ${worst}
    ), latest_scans as (
      select a.aws_account_id, a.display_name, l.failure_reason, coalesce(l.finished_at, l.started_at) as failed_at
      from monitored a
      cross join lateral (
        select status, failure_reason, started_at, finished_at from scans
        where scans.account_id = a.id and scans.status <> 'running' order by started_at desc, id desc limit 1
      ) l
      where l.status = 'failed'
    )
    select json_build_object(
      'total', (select count(*) from mine),
      'by_status', (select json_build_object(
        'PENDING', count(*) filter (where status = 'PENDING'),
        'ACTIVE', count(*) filter (where status = 'ACTIVE'),
        'DISCONNECTED', count(*) filter (where status = 'DISCONNECTED')) from mine),
      'by_srs_band', (select json_build_object(
        'critical', count(*) filter (where current_srs < ${floors.poor}),
        'poor', count(*) filter (where current_srs >= ${floors.poor} and current_srs < ${floors.fair}),
        'fair', count(*) filter (where current_srs >= ${floors.fair} and current_srs < ${floors.good}),
        'good', count(*) filter (where current_srs >= ${floors.good}),
        'unscored', count(*) filter (where current_srs is null)) from monitored),
      'incomplete_by_srs_band', (select json_build_object(
        'critical', count(*) filter (where current_srs < ${floors.poor}),
        'poor', count(*) filter (where current_srs >= ${floors.poor} and current_srs < ${floors.fair}),
        'fair', count(*) filter (where current_srs >= ${floors.fair} and current_srs < ${floors.good}),
        'good', count(*) filter (where current_srs >= ${floors.good})) from monitored where score_complete is not true),
      'worst_accounts', (select coalesce(json_agg(json_build_object(${ACCOUNT_NAME}, 'tags', a.tags, 'current_srs', a.current_srs,
          'score_complete', a.score_complete,
          'open_signals', (select coalesce(sum(c.open), 0) from open_signal_counts c where c.account_id = a.id)
            - (select count(*) from signal_acceptances sa join signals s on s.id = sa.signal_id
               where sa.account_id = a.id and ${inForce(now)} and s.resolved_at is null))
        order by a.current_srs, a.aws_account_id), '[]') from worst a),
      'incomplete_coverage', (select coalesce(json_agg(json_build_object(${ACCOUNT_NAME},
          'coverage', case when a.coverage_evaluated is null or a.coverage_total is null then null
                      else json_build_object('evaluated', a.coverage_evaluated, 'total', a.coverage_total) end,
          'score_complete', a.score_complete)
        order by a.coverage_evaluated::numeric / nullif(a.coverage_total, 0) nulls first, a.aws_account_id), '[]')
        from monitored a where a.score_complete = false),
      'failing_scans', (select coalesce(json_agg(json_build_object(${ACCOUNT_NAME}, 'failed_at', ${ISO('a.failed_at')},
          'failure_reason', a.failure_reason) order by a.failed_at desc, a.aws_account_id), '[]')
        from latest_scans a)
    ) as figures`.execute(db);
  return rows[0]!.figures;
}

/**
 * The average score of the monitored accounts per UTC day of the last `days` days (today included) that has any
 * point, oldest first, to one decimal, with how many accounts it averages and how many of their points read every
 * core source.
 */
export async function scoreTrend({ db, tenantId, days, now }: { db: Conn; tenantId: string; days: number; now: Date }) {
  const { rows } = await sql<{ day: string; average_srs: number; accounts: number; complete_accounts: number }>`
    select to_char(h.day, 'YYYY-MM-DD') as day, round(avg(h.srs), 1)::float8 as average_srs, count(*)::int as accounts,
      (count(*) filter (where h.complete))::int as complete_accounts
    from score_history h join accounts a on a.id = h.account_id
    where a.tenant_id = ${tenantId} and a.status <> 'DISCONNECTED'
      and h.day > (${now}::timestamptz at time zone 'utc')::date - ${days}::int
    group by h.day order by h.day`.execute(db);
  return rows;
}

/**
 * The monitored accounts' open signals that are not accepted, counted per severity and scenario: the open signals as
 * PostgreSQL keeps them counted per account (open_signal_counts, kept by triggers on signals), less those whose
 * acceptance is in force at `now` (few), rather than grouping every open signal on each request.
 */
export async function openSignalCounts({ db, tenantId, now }: { db: Conn; tenantId: string; now: Date }) {
  const { rows } = await sql<{ severity: Severity; scenario: Scenario; count: number }>`
    with accepted as (
      -- Each acceptance looks its signal up by id (LIMIT 1 keeps the lookup a probe of the primary key: as a plain join
      -- the planner may read every open signal of the tenant to match a few acceptances).
      select s.account_id, s.severity, s.scenario, count(*)::int as n
      from signal_acceptances sa
      cross join lateral (select account_id, severity, scenario from signals where id = sa.signal_id and resolved_at is null limit 1) s
      where sa.tenant_id = ${tenantId} and ${inForce(now)}
      group by s.account_id, s.severity, s.scenario
    )
    select o.severity, o.scenario, sum(o.open - coalesce(x.n, 0))::int as count
    from open_signal_counts o
    join accounts a on a.id = o.account_id and a.tenant_id = ${tenantId} and a.status <> 'DISCONNECTED'
    left join accepted x on x.account_id = o.account_id and x.severity = o.severity and x.scenario = o.scenario
    where o.tenant_id = ${tenantId}
    group by o.severity, o.scenario`.execute(db);
  return rows;
}

export interface SignalChanges {
  new_signals: number;
  resolved_signals: number;
  accounts: {
    aws_account_id: string;
    cloud_account_id: string;
    display_name: string | null;
    new_signals: number;
    resolved_signals: number;
  }[];
}

/**
 * Signals of the monitored accounts detected or resolved after `since`, in total and per account: the `limit` accounts
 * with the most changes, most first (ties by AWS account id).
 */
export async function signalChanges({
  db,
  tenantId,
  since,
  limit,
}: {
  db: Conn;
  tenantId: string;
  since: Date;
  limit: number;
}) {
  const { rows } = await sql<{ changes: SignalChanges }>`
    with resolved as materialized (
      select account_id, count(*)::int as n from signals where tenant_id = ${tenantId} and resolved_at > ${since} group by account_id
    ), per_account as materialized (
      -- New signals counted per monitored account through its own index range (signals_account_detected_idx): a
      -- tenant-wide "detected after" read is planned from statistics that another tenant's burst of recent signals can
      -- skew into reading every signal.
      select a.aws_account_id, a.display_name, d.n as new_signals, coalesce(r.n, 0) as resolved_signals
      from accounts a
      cross join lateral (select count(*)::int as n from signals s where s.account_id = a.id and s.detected_at > ${since}) d
      left join resolved r on r.account_id = a.id
      where a.tenant_id = ${tenantId} and a.status <> 'DISCONNECTED'
    ), ranked as (
      select p.*, row_number() over (order by p.new_signals + p.resolved_signals desc, p.aws_account_id) as position
      from per_account p
      where p.new_signals + p.resolved_signals > 0
    )
    select json_build_object(
      'new_signals', coalesce(sum(new_signals), 0),
      'resolved_signals', coalesce(sum(resolved_signals), 0),
      'accounts', coalesce(json_agg(json_build_object(${ACCOUNT_NAME}, 'new_signals', a.new_signals,
        'resolved_signals', a.resolved_signals) order by a.position) filter (where a.position <= ${limit}), '[]')
    ) as changes
    from ranked a`.execute(db);
  return rows[0]!.changes;
}

/** When the first of the tenant's acceptances in force at `now` expires, if any does: the overview's counts change then. */
export async function firstAcceptanceExpiry({ db, tenantId, now }: { db: Conn; tenantId: string; now: Date }) {
  const row = await db
    .selectFrom('signal_acceptances')
    .select((eb) => eb.fn.min('expires_at').as('first'))
    .where('tenant_id', '=', tenantId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.first ? new Date(row.first) : undefined;
}
