import type { Budget, DailyCost } from '../scans/inventory';
import { addDays, failing, failWhen, onPart } from './helpers';
import type { Check, CheckResult } from './types';

// Billing checks: runaway spend, which is both a cost risk and often the first visible sign of a compromise.

const SPIKE_FACTOR = 2;
const SPIKE_MIN_INCREASE_USD = 50;
const SPIKE_BASELINE_DAYS = 7;
const ANOMALY_MIN_IMPACT_USD = 10;

const usd = (amount: number) => `${amount.toFixed(2)} USD`;

/**
 * Compares the last complete day with the average of the days of the week before it. Cost Explorer keeps adding
 * to a day's figures for about a day after it ends, so the scan's own day and the day before are left out: the
 * last complete day is the one before yesterday (UTC). Without a complete day or a baseline the rule cannot tell.
 */
function spendSpike(daily: DailyCost[], now: string): CheckResult {
  const lastComplete = addDays(new Date(now).toISOString().slice(0, 10), -2);
  const complete = daily.filter((day) => day.date <= lastComplete).sort((a, b) => a.date.localeCompare(b.date));
  const last = complete.at(-1);
  if (!last) return { status: 'not_evaluated', reason: 'No complete day of cost data.' };
  const since = addDays(last.date, -SPIKE_BASELINE_DAYS);
  const baseline = complete.filter((day) => day.date >= since && day.date < last.date);
  if (baseline.length === 0)
    return { status: 'not_evaluated', reason: `No cost data for the week before ${last.date}.` };
  const average = baseline.reduce((sum, day) => sum + day.amountUsd, 0) / baseline.length;
  return failWhen(last.amountUsd > SPIKE_FACTOR * average && last.amountUsd - average >= SPIKE_MIN_INCREASE_USD, {
    resource: 'daily-spend',
    detail: `Usage on ${last.date} cost ${usd(last.amountUsd)} against a ${baseline.length}-day average of ${usd(average)}.`,
  });
}

/** Budgets that cap spend: one without an amount for the current period is left out. */
const capped = (budgets: Budget[]) =>
  budgets.filter((budget): budget is Budget & { limitUsd: number } => budget.limitUsd !== null);

export const BILLING_CHECKS: readonly Check[] = [
  {
    id: 'billing.daily_spend_spike',
    scenario: 'billing',
    severity: 'HIGH',
    title: 'Daily spend spike',
    description:
      `The usage cost of the last complete day (the day before yesterday, UTC: Cost Explorer is still adding to ` +
      `yesterday) is more than ${SPIKE_FACTOR}x the average of the ${SPIKE_BASELINE_DAYS} days before it and at least ` +
      `${SPIKE_MIN_INCREASE_USD} USD above that average. Usage only: fees, credits, refunds and tax are left out.`,
    remediation:
      'Open Cost Explorer grouped by service, region and usage type for the day to find what grew. If it was not ' +
      'planned, stop the resources behind it and check CloudTrail for who created them.',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/ce-what-is.html',
    evaluate: onPart('costs', ({ daily }, ctx) => spendSpike(daily, ctx.now)),
  },
  {
    id: 'billing.cost_anomaly',
    scenario: 'billing',
    severity: 'HIGH',
    title: 'Cost anomaly detected',
    description: `AWS Cost Anomaly Detection reports unusual spend with an impact of ${ANOMALY_MIN_IMPACT_USD} USD or more.`,
    remediation:
      'Open the anomaly in Cost Anomaly Detection to see its root causes (service, account, region, usage type), ' +
      'confirm whether the usage is expected, and stop it if not. Subscribe a team address to anomaly alerts.',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/manage-ad.html',
    evaluate: onPart('anomalies', ({ anomalies }) =>
      failing(
        anomalies
          .filter((anomaly) => anomaly.impactUsd >= ANOMALY_MIN_IMPACT_USD)
          .map((anomaly) => ({
            resource: anomaly.id,
            detail: `Anomaly since ${anomaly.startDate}${anomaly.service ? ` in ${anomaly.service}` : ''}: ${usd(anomaly.impactUsd)} impact.`,
          })),
      ),
    ),
  },
  {
    id: 'billing.no_budget',
    scenario: 'billing',
    severity: 'MEDIUM',
    title: 'No AWS Budget configured',
    description: 'The account has no AWS Budget, so nobody is told when spend runs away.',
    remediation:
      'Create a monthly cost budget (Billing and Cost Management > Budgets > Create budget) at your expected ' +
      'spend, with alerts on actual spend at 80% and 100% and on forecasted spend at 100%, sent to a monitored address.',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/budgets-managing-costs.html',
    evaluate: onPart('budgets', ({ budgets }) =>
      failWhen(budgets.length === 0, { resource: 'budgets', detail: 'No budget exists.' }),
    ),
  },
  {
    id: 'billing.budget_forecast_exceeded',
    scenario: 'billing',
    severity: 'HIGH',
    title: 'Budget forecast over its limit',
    description:
      'A budget is forecast to end the period above its limit while actual spend is still under it (a budget ' +
      'already over its limit is reported by billing.budget_exceeded).',
    remediation:
      'Find in Cost Explorer what drives the forecast, reduce or stop it, or raise the budget if the growth is ' +
      'planned. Make sure the budget has a forecast alert.',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/budgets-managing-costs.html',
    evaluate: onPart('budgets', ({ budgets }) =>
      failing(
        capped(budgets)
          .filter(
            (budget) =>
              budget.forecastedSpendUsd !== null &&
              budget.forecastedSpendUsd > budget.limitUsd &&
              budget.actualSpendUsd <= budget.limitUsd,
          )
          .map((budget) => ({
            resource: budget.name,
            detail: `Budget ${budget.name}: forecast ${usd(budget.forecastedSpendUsd ?? 0)} against a limit of ${usd(budget.limitUsd)}.`,
          })),
      ),
    ),
  },
  {
    id: 'billing.budget_exceeded',
    scenario: 'billing',
    severity: 'CRITICAL',
    title: 'Budget exceeded',
    description: "Actual spend in the current period is above a budget's limit.",
    remediation:
      'Find in Cost Explorer which services and regions exceed the plan and stop what is not expected; if usage ' +
      'is unexplained, treat it as a possible compromise and review CloudTrail. Consider budget actions that apply a ' +
      'deny policy when the limit is reached.',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/budgets-controls.html',
    evaluate: onPart('budgets', ({ budgets }) =>
      failing(
        capped(budgets)
          .filter((budget) => budget.actualSpendUsd > budget.limitUsd)
          .map((budget) => ({
            resource: budget.name,
            detail: `Budget ${budget.name}: actual ${usd(budget.actualSpendUsd)} against a limit of ${usd(budget.limitUsd)}.`,
          })),
      ),
    ),
  },
];
