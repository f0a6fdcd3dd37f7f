// The plan catalogue. Limits and scan intervals are enforced from here and nowhere else.

export const PLAN_IDS = ['solo', 'team', 'agency', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  price_usd_month: number;
  account_limit: number;
  /**
   * AWS Organizations connected at once (PENDING or ACTIVE): each is a workflow that lives as long as the connection and
   * reads the organization every sync. Their member accounts count toward `account_limit` like any other.
   */
  organization_limit: number;
  scan_interval_minutes: number;
  /** Manual scans allowed per account per hour; they count toward the scan rate limit. */
  manual_scans_per_hour: number;
  /**
   * The tenant's share of the workers while scans are backlogged, relative to the other tenants with scans waiting
   * (Temporal task-queue fairness; see docs/operations.md, "Fairness"). Not shown in the plan listing.
   */
  fairness_weight: number;
  features: string[];
}

// What each plan includes, as `GET /billing/plans` lists it. Every entry is something the service does; the
// plans differ in their limits and in `csv_export`, the one feature checked per plan (see csv-export.ts).
const EVERY_PLAN = [
  'security_risk_score',
  'signals',
  'score_history',
  'recovery_checklist',
  'email_alerts',
  'slack_alerts',
  'pagerduty_alerts',
  'team_users',
  'panic_export',
];

export const PLANS: readonly Plan[] = Object.freeze(
  [
    {
      id: 'solo',
      name: 'Solo',
      price_usd_month: 29,
      account_limit: 1,
      organization_limit: 1,
      scan_interval_minutes: 1440,
      manual_scans_per_hour: 2,
      fairness_weight: 1,
      features: [...EVERY_PLAN],
    },
    {
      id: 'team',
      name: 'Team',
      price_usd_month: 99,
      account_limit: 5,
      organization_limit: 2,
      scan_interval_minutes: 360,
      manual_scans_per_hour: 6,
      fairness_weight: 2,
      features: [...EVERY_PLAN, 'csv_export'],
    },
    {
      id: 'agency',
      name: 'Agency',
      price_usd_month: 299,
      account_limit: 25,
      organization_limit: 10,
      scan_interval_minutes: 60,
      manual_scans_per_hour: 12,
      fairness_weight: 4,
      features: [...EVERY_PLAN, 'csv_export'],
    },
    {
      id: 'enterprise',
      name: 'Enterprise',
      price_usd_month: 999,
      account_limit: 250,
      organization_limit: 25,
      scan_interval_minutes: 15,
      manual_scans_per_hour: 30,
      fairness_weight: 8,
      features: [...EVERY_PLAN, 'csv_export'],
    },
  ].map((plan) => Object.freeze(plan as Plan)),
);

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function getPlan(id: PlanId): Plan {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`unknown plan ${id}`);
  return plan;
}

// What AWS bills the customer for Sentinel's Cost Explorer reads ($0.01 per request): a read is GetCostAndUsage,
// GetAnomalies and GetAnomalyMonitors, one page each, and a scan reads only when the last read is at least
// `minIntervalHours` old.

export const COST_EXPLORER_REQUESTS_PER_READ = 3;
export const COST_EXPLORER_USD_PER_REQUEST = 0.01;
const MONTH_MINUTES = 30 * 24 * 60;

/** Cost Explorer requests per connected account in a 30-day month of scheduled scans at `scanIntervalMinutes`. */
export function costExplorerRequestsPerMonth({
  scanIntervalMinutes,
  minIntervalHours,
}: {
  scanIntervalMinutes: number;
  minIntervalHours: number;
}): number {
  // Reads happen on the first scheduled scan at least the interval after the last read.
  const scansBetweenReads = Math.max(1, Math.ceil((minIntervalHours * 60) / scanIntervalMinutes));
  return Math.ceil(MONTH_MINUTES / (scansBetweenReads * scanIntervalMinutes)) * COST_EXPLORER_REQUESTS_PER_READ;
}
