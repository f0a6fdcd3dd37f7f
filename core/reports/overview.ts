import { readPageThrough } from '../../db/read-cache';
import {
  accountFigures,
  firstAcceptanceExpiry,
  openSignalCounts,
  scoreTrend,
  signalChanges,
} from '../../db/repositories/overview';
import { SCENARIOS, SEVERITIES } from '../../domain/checks/types';
import { SRS_BAND_FLOORS } from '../../domain/scoring/srs-bands';
import type { AppDeps, Caller } from '../deps';

// The portfolio overview (GET /overview). The accounts it looks at are those the tenant monitors (not disconnected:
// their scores and findings are frozen at the disconnection); only the counts by status include every account. An
// open signal counts unless its risk is accepted, as in the score and in an account's open findings on the dashboard.
//
// An API process keeps a tenant's overview (db/read-cache.ts) until PostgreSQL announces a change to what it shows (an
// account, a signal, an acceptance, a scan ending, a score point), so the home page of a tenant with hundreds of
// accounts costs its aggregates once per change rather than once per request. What changes with the clock alone ends
// a kept overview too: the first acceptance in force expiring, the UTC day ending (the trend's days), and MAX_AGE_MS
// (the last 24 hours slide). `generated_at` says when it was read.

const TREND_DAYS = 30;
const WORST_ACCOUNTS = 10;
const CHANGE_WINDOW_MS = 24 * 3_600_000;
const CHANGED_ACCOUNTS = 50;
const MAX_AGE_MS = 60_000;
const DAY_MS = 24 * 3_600_000;

const zeros = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** The tenant's overview: the one this process keeps, else read from the database (and kept). */
export async function tenantOverview({ db, readCache }: Pick<AppDeps, 'db' | 'readCache'>, caller: Caller) {
  let until: number | undefined;
  return readPageThrough(
    readCache,
    { kind: 'overview', tenantId: caller.tenantId, query: '' },
    async () => {
      const read = await readOverview(db, caller.tenantId, new Date());
      until = read.until;
      return read.overview;
    },
    () => until,
  );
}

/** The overview read at `now`, and until when (ms) it stays true if nothing is written. */
async function readOverview(db: AppDeps['db'], tenantId: string, now: Date) {
  // Five statements on five connections at once: the answer waits for the slowest, not for their sum.
  const [accounts, trend, open, changes, acceptanceExpiry] = await Promise.all([
    accountFigures({ db, tenantId, floors: SRS_BAND_FLOORS, worst: WORST_ACCOUNTS, now }),
    scoreTrend({ db, tenantId, days: TREND_DAYS, now }),
    openSignalCounts({ db, tenantId, now }),
    signalChanges({ db, tenantId, since: new Date(now.getTime() - CHANGE_WINDOW_MS), limit: CHANGED_ACCOUNTS }),
    firstAcceptanceExpiry({ db, tenantId, now }),
  ]);
  const bySeverity = zeros(SEVERITIES);
  const byScenario = zeros(SCENARIOS);
  for (const { severity, scenario, count } of open) {
    bySeverity[severity] += count;
    byScenario[scenario] += count;
  }
  const nextUtcDay = (Math.floor(now.getTime() / DAY_MS) + 1) * DAY_MS;
  const until = Math.min(now.getTime() + MAX_AGE_MS, nextUtcDay, acceptanceExpiry?.getTime() ?? Infinity);
  const overview = {
    generated_at: now.toISOString(),
    accounts: {
      total: accounts.total,
      by_status: accounts.by_status,
      by_srs_band: accounts.by_srs_band,
      incomplete_by_srs_band: accounts.incomplete_by_srs_band,
    },
    srs_trend: trend,
    worst_accounts: accounts.worst_accounts,
    open_signals: {
      total: open.reduce((sum, row) => sum + row.count, 0),
      by_severity: bySeverity,
      by_scenario: byScenario,
    },
    changes_24h: changes,
    attention: { incomplete_coverage: accounts.incomplete_coverage, failing_scans: accounts.failing_scans },
  };
  return { overview, until };
}
