// The plan catalogue. Limits and scan intervals are enforced from here and nowhere else.

export const PLAN_IDS = ['solo', 'team', 'agency', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  price_usd_month: number;
  account_limit: number;
  scan_interval_minutes: number;
  /** Manual scans allowed per account per hour; they count toward the scan rate limit. */
  manual_scans_per_hour: number;
  features: string[];
}

const BASE_FEATURES = ['security_risk_score', 'signals', 'score_history', 'recovery_checklist', 'email_alerts', 'panic_export'];

export const PLANS: readonly Plan[] = Object.freeze([
  {
    id: 'solo', name: 'Solo', price_usd_month: 29, account_limit: 1, scan_interval_minutes: 1440, manual_scans_per_hour: 2,
    features: [...BASE_FEATURES],
  },
  {
    id: 'team', name: 'Team', price_usd_month: 99, account_limit: 5, scan_interval_minutes: 360, manual_scans_per_hour: 6,
    features: [...BASE_FEATURES, 'slack_alerts', 'pagerduty_alerts', 'csv_export', 'team_users'],
  },
  {
    id: 'agency', name: 'Agency', price_usd_month: 299, account_limit: 25, scan_interval_minutes: 60, manual_scans_per_hour: 12,
    features: [...BASE_FEATURES, 'slack_alerts', 'pagerduty_alerts', 'csv_export', 'team_users', 'account_tags'],
  },
  {
    id: 'enterprise', name: 'Enterprise', price_usd_month: 999, account_limit: 250, scan_interval_minutes: 15, manual_scans_per_hour: 30,
    features: [...BASE_FEATURES, 'slack_alerts', 'pagerduty_alerts', 'csv_export', 'team_users', 'account_tags', 'priority_support'],
  },
].map((plan) => Object.freeze(plan as Plan)));

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function getPlan(id: PlanId): Plan {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`unknown plan ${id}`);
  return plan;
}
