import type { Budget, CostAnomaly, DailyCost, Inventory } from '../scans/inventory';
import { addDays, failing, failWhen, onPart, withPart } from './helpers';
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

/**
 * The anomalies of 10 USD of impact and more. Anomalies found are found whatever else was read; none found means
 * "no anomalies" only when a Cost Anomaly Detection monitor looks for them: without one (or without knowing) the
 * check is not evaluated.
 */
function costAnomalies(anomalies: CostAnomaly[], monitors: Inventory['anomalyMonitors']): CheckResult {
  const result = failing(
    anomalies
      .filter((anomaly) => anomaly.impactUsd >= ANOMALY_MIN_IMPACT_USD)
      .map((anomaly) => ({
        resource: anomaly.id,
        detail: `Anomaly since ${anomaly.startDate}${anomaly.service ? ` in ${anomaly.service}` : ''}: ${usd(anomaly.impactUsd)} impact.`,
      })),
  );
  if (result.status === 'fail') return result;
  if (monitors.status !== 'ok') {
    return {
      status: 'not_evaluated',
      reason: `Whether a Cost Anomaly Detection monitor looks for anomalies is unknown: ${monitors.reason}`,
    };
  }
  if (monitors.value.monitors.length === 0) {
    return {
      status: 'not_evaluated',
      reason:
        'The account has no Cost Anomaly Detection monitor, so AWS looks for no anomalies: that none is reported is no ' +
        'sign that spend is normal (see "Cost Anomaly Detection not set up").',
    };
  }
  return result;
}

/**
 * Whether some budget alerts anyone: one with a notification (AWS keeps none without a subscriber). A budget without
 * one does not count. Unknown when none is known to alert but one whose notifications could not be read might.
 */
function budgetWithAlerts(budgets: Budget[]): CheckResult {
  if (budgets.some((b) => b.alerts.read && b.alerts.notifies)) return { status: 'pass' };
  const unknown = budgets.flatMap((b) => (b.alerts.read ? [] : [`${b.name}: ${b.alerts.reason}`]));
  if (unknown.length > 0) {
    return { status: 'not_evaluated', reason: `Whether these budgets alert anyone is unknown. ${unknown.join(' ')}` };
  }
  const names = budgets.map((b) => b.name).join(', ');
  return failing([
    {
      resource: 'budgets',
      detail:
        budgets.length === 0
          ? 'No budget exists.'
          : `No budget alerts anyone: ${names} ${budgets.length === 1 ? 'has' : 'have'} no notification, so no subscriber.`,
    },
  ]);
}

/** Budgets that cap spend: one without an amount for the current period is left out. */
const capped = (budgets: Budget[]) =>
  budgets.filter((budget): budget is Budget & { limitUsd: number } => budget.limitUsd !== null);

export const BILLING_CHECKS: readonly Check[] = [
  {
    id: 'billing.daily_spend_spike',
    service: 'billing',
    scenario: 'billing',
    severity: 'HIGH',
    title: 'Daily spend spike',
    description:
      `The usage cost of the last complete day (the day before yesterday, UTC: Cost Explorer is still adding to ` +
      `yesterday) is more than ${SPIKE_FACTOR}x the average of the ${SPIKE_BASELINE_DAYS} days before it and at least ` +
      `${SPIKE_MIN_INCREASE_USD} USD above that average. Usage only: fees, credits, refunds and tax are left out.`,
    remediation:
      'Open Cost Explorer grouped by service, region and usage type for the day to find what grew. If it was not ' +
      'planned, stop the resources behind it and check CloudTrail for who created them. In the console: Billing and Cost Management > Cost Explorer. With the CLI: aws ce get-cost-and-usage --time-period Start=<day>,End=<next day> --granularity DAILY --metrics UnblendedCost --group-by Type=DIMENSION,Key=SERVICE.',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/ce-what-is.html',
    evaluate: onPart('costs', ({ daily }, ctx) => spendSpike(daily, ctx.now)),
  },
  {
    id: 'billing.cost_anomaly',
    service: 'billing',
    scenario: 'billing',
    severity: 'HIGH',
    title: 'Cost anomaly detected',
    description:
      `AWS Cost Anomaly Detection reports unusual spend with an impact of ${ANOMALY_MIN_IMPACT_USD} USD or more. ` +
      'Without a Cost Anomaly Detection monitor AWS looks for none, so the check is then not evaluated rather than passed.',
    remediation:
      'Open the anomaly in Cost Anomaly Detection to see its root causes (service, account, region, usage type), ' +
      'confirm whether the usage is expected, and stop it if not. Subscribe a team address to anomaly alerts. In the console: Billing and Cost Management > Cost Anomaly Detection. With the CLI: aws ce get-anomalies --date-interval StartDate=<date>, and aws ce create-anomaly-subscription for the alerts.',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/manage-ad.html',
    evaluate: (inventory) =>
      withPart(inventory.anomalies, ({ anomalies }) => costAnomalies(anomalies, inventory.anomalyMonitors)),
  },
  {
    id: 'billing.no_cost_anomaly_monitor',
    service: 'billing',
    scenario: 'billing',
    severity: 'MEDIUM',
    title: 'Cost Anomaly Detection not set up',
    description:
      'The account has no AWS Cost Anomaly Detection monitor, so AWS looks for no unusual spend: crypto-mining on ' +
      'stolen credentials or a runaway service shows only on the bill, and Sentinel has no anomaly to report. A member ' +
      'account of an organization does not see the monitors of its management account, nor their anomalies.',
    remediation:
      'In the console: Create a monitor of AWS services, which watches the spend of every service: Billing and Cost Management > Cost ' +
      'Anomaly Detection > Monitors > Create monitor > AWS services. Then create an alert subscription on it (a ' +
      'threshold such as 100 USD of impact) that notifies a monitored address or SNS topic. With the CLI: aws ce ' +
      'create-anomaly-monitor --anomaly-monitor \'{"MonitorName":"aws-services","MonitorType":"DIMENSIONAL",' +
      '"MonitorDimension":"SERVICE"}\', then aws ce create-anomaly-subscription. In an organization whose management ' +
      'account already watches the member accounts, add a monitor in this account too so that its anomalies are visible here.',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/getting-started-ad.html',
    evaluate: onPart('anomalyMonitors', ({ monitors }) =>
      failWhen(monitors.length === 0, {
        resource: 'cost-anomaly-detection',
        detail: 'The account has no Cost Anomaly Detection monitor.',
      }),
    ),
  },
  {
    id: 'billing.no_budget',
    service: 'billing',
    scenario: 'billing',
    severity: 'MEDIUM',
    title: 'No AWS Budget with alerts',
    description:
      'The account has no AWS Budget that alerts anyone: no budget at all, or only budgets without a notification ' +
      '(AWS keeps no notification without a subscriber), so nobody is told when spend runs away.',
    remediation:
      'In the console: Create a monthly cost budget (Billing and Cost Management > Budgets > Create budget) at your expected ' +
      'spend, with alerts on actual spend at 80% and 100% and on forecasted spend at 100%, sent to a monitored address. ' +
      'For an existing budget without alerts: Budgets > the budget > Alerts > Add an alert threshold, with an e-mail ' +
      'recipient or an SNS topic (or aws budgets create-notification with --subscribers).',
    docsUrl: 'https://docs.aws.amazon.com/cost-management/latest/userguide/budgets-managing-costs.html',
    evaluate: onPart('budgets', ({ budgets }) => budgetWithAlerts(budgets)),
  },
  {
    id: 'billing.budget_forecast_exceeded',
    service: 'billing',
    scenario: 'billing',
    severity: 'HIGH',
    title: 'Budget forecast over its limit',
    description:
      'A budget is forecast to end the period above its limit while actual spend is still under it (a budget ' +
      'already over its limit is reported by billing.budget_exceeded).',
    remediation:
      'Find in Cost Explorer what drives the forecast, reduce or stop it, or raise the budget if the growth is ' +
      'planned. Make sure the budget has a forecast alert. In the console: Billing and Cost Management > Budgets > the budget. With the CLI: aws budgets describe-budget --account-id <account> --budget-name <budget>, and aws budgets update-budget to raise it.',
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
    service: 'billing',
    scenario: 'billing',
    severity: 'CRITICAL',
    title: 'Budget exceeded',
    description: "Actual spend in the current period is above a budget's limit.",
    remediation:
      'Find in Cost Explorer which services and regions exceed the plan and stop what is not expected; if usage ' +
      'is unexplained, treat it as a possible compromise and review CloudTrail. Consider budget actions that apply a ' +
      'deny policy when the limit is reached. In the console: Billing and Cost Management > Cost Explorer. With the CLI: aws ce get-cost-and-usage --time-period Start=<month start>,End=<today> --granularity MONTHLY --metrics UnblendedCost --group-by Type=DIMENSION,Key=SERVICE.',
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
