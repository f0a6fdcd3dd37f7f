import { accountFigures, openSignalCounts, scoreTrend, signalChanges } from '../../db/repositories/overview';
import { SCENARIOS, SEVERITIES } from '../../domain/checks/types';
import { SRS_BAND_FLOORS } from '../../domain/scoring/srs-bands';
import type { AppDeps, Caller } from '../deps';

// The portfolio overview (GET /overview). The accounts it looks at are those the tenant monitors (not disconnected:
// their scores and findings are frozen at the disconnection); only the counts by status include every account. An
// open signal counts unless its risk is accepted, as in the score and in an account's open findings on the dashboard.

const TREND_DAYS = 30;
const WORST_ACCOUNTS = 10;
const CHANGE_WINDOW_MS = 24 * 3_600_000;
const CHANGED_ACCOUNTS = 50;

const zeros = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export async function tenantOverview({ db }: Pick<AppDeps, 'db'>, caller: Caller) {
  const now = new Date();
  const { tenantId } = caller;
  // Four statements on four connections at once: the answer waits for the slowest, not for their sum.
  const [accounts, trend, open, changes] = await Promise.all([
    accountFigures({ db, tenantId, floors: SRS_BAND_FLOORS, worst: WORST_ACCOUNTS, now }),
    scoreTrend({ db, tenantId, days: TREND_DAYS, now }),
    openSignalCounts({ db, tenantId, now }),
    signalChanges({ db, tenantId, since: new Date(now.getTime() - CHANGE_WINDOW_MS), limit: CHANGED_ACCOUNTS }),
  ]);
  const bySeverity = zeros(SEVERITIES);
  const byScenario = zeros(SCENARIOS);
  for (const { severity, scenario, count } of open) {
    bySeverity[severity] += count;
    byScenario[scenario] += count;
  }
  return {
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
}
