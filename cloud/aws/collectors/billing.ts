import {
  type Budget as AwsBudget,
  BudgetsClient,
  paginateDescribeBudgets,
  paginateDescribeNotificationsForBudget,
} from '@aws-sdk/client-budgets';
import {
  CostExplorerClient,
  GetCostAndUsageCommand,
  paginateGetAnomalies,
  paginateGetAnomalyMonitors,
} from '@aws-sdk/client-cost-explorer';
import type { AnomalyMonitor, Budget, BudgetAlerts, CostAnomaly, DailyCost } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, globalPart, type ReadContext } from './reader';

// Cost Explorer and Budgets are global services. Costs cover the 14 days before the scan's day, usage only (record
// type Usage: fees, credits, refunds and tax would read as spikes and drops). AWS bills every Cost Explorer
// request to the customer ($0.01 each): the scan reuses these parts (costs, anomalies and the anomaly monitors) for a
// while (see core/scans/scan-account.ts).

const BUDGETS_AT_ONCE = 4;

const DAYS = 14;
const DAY_MS = 86_400_000;

const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Cost Explorer refusing an account that never opened it: the reason says how to open it. */
class CostExplorerNotEnabled extends ReadFailure {
  constructor(failure: ReadFailure) {
    super(failure.call, failure.cause);
  }

  override get reason(): string {
    return (
      'Cost Explorer is not enabled for this account: open it once in the AWS Billing console; its data becomes ' +
      'available within 24 hours.'
    );
  }
}

// An account that has never opened Cost Explorer answers AccessDenied ("not enabled for cost explorer
// access") or DataUnavailable, whatever the role's permissions.
async function explainCostExplorer<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const message = err instanceof ReadFailure && err.cause instanceof Error ? err.cause.message : '';
    if (
      err instanceof ReadFailure &&
      (err.code === 'DataUnavailable' || /not enabled for cost explorer/i.test(message))
    ) {
      throw new CostExplorerNotEnabled(err);
    }
    throw err;
  }
}

const costExplorer = (ctx: ReadContext) => ctx.session.client((config) => new CostExplorerClient(config));

export const costsPart = globalPart({
  part: 'costs',
  read: (ctx: ReadContext) =>
    explainCostExplorer(async () => {
      const ce = costExplorer(ctx);
      const daily: DailyCost[] = [];
      let token: string | undefined;
      do {
        const page = await ce.send(
          new GetCostAndUsageCommand({
            TimePeriod: { Start: isoDate(ctx.now.getTime() - DAYS * DAY_MS), End: isoDate(ctx.now.getTime()) },
            Granularity: 'DAILY',
            Metrics: ['UnblendedCost'],
            Filter: { Dimensions: { Key: 'RECORD_TYPE', Values: ['Usage'] } },
            NextPageToken: token,
          }),
        );
        for (const r of page.ResultsByTime ?? [])
          daily.push({ date: r.TimePeriod?.Start ?? '', amountUsd: Number(r.Total?.UnblendedCost?.Amount ?? 0) });
        token = page.NextPageToken;
      } while (token);
      return { value: { daily } };
    }),
});

export const anomaliesPart = globalPart({
  part: 'anomalies',
  read: (ctx: ReadContext) =>
    explainCostExplorer(async () => ({
      value: {
        anomalies: await foldPages(
          paginateGetAnomalies(
            { client: costExplorer(ctx) },
            {
              DateInterval: { StartDate: isoDate(ctx.now.getTime() - DAYS * DAY_MS) },
            },
          ),
          [] as CostAnomaly[],
          (into, page) => [
            ...into,
            ...(page.Anomalies ?? []).map((a) => ({
              id: a.AnomalyId ?? '',
              impactUsd: a.Impact?.TotalImpact ?? a.Impact?.MaxImpact ?? 0,
              startDate: a.AnomalyStartDate ?? '',
              service: a.RootCauses?.[0]?.Service ?? null,
            })),
          ],
        ),
      },
    })),
});

/**
 * The account's Cost Anomaly Detection monitors: without one AWS looks for no anomaly, so an empty GetAnomalies says
 * nothing. A part of its own, so that a refusal costs only this.
 */
export const anomalyMonitorsPart = globalPart({
  part: 'anomalyMonitors',
  read: (ctx: ReadContext) =>
    explainCostExplorer(async () => ({
      value: {
        monitors: await foldPages(
          paginateGetAnomalyMonitors({ client: costExplorer(ctx) }, {}),
          [] as AnomalyMonitor[],
          (into, page) => [
            ...into,
            ...(page.AnomalyMonitors ?? []).map((m) => ({
              arn: m.MonitorArn ?? '',
              name: m.MonitorName ?? '',
              type: m.MonitorType ?? '',
            })),
          ],
        ),
      },
    })),
});

/**
 * Whether a budget alerts anyone: whether it has a notification (DescribeNotificationsForBudget), AWS keeping none
 * without a subscriber. A refusal or an answer no retry changes leaves that budget's alerts unread; null: the budget
 * was deleted since it was listed.
 */
async function alertsOf(client: BudgetsClient, accountId: string, name: string): Promise<BudgetAlerts | null> {
  try {
    for await (const page of paginateDescribeNotificationsForBudget(
      { client },
      { AccountId: accountId, BudgetName: name },
    )) {
      if ((page.Notifications ?? []).length > 0) return { read: true, notifies: true };
    }
    return { read: true, notifies: false };
  } catch (err) {
    if (isAbsent(err, 'NotFoundException')) return null;
    if (err instanceof ReadFailure && !err.retryable) return { read: false, reason: err.reason };
    throw err;
  }
}

/**
 * A budget's amount for the current period: its fixed limit, or for a planned budget the amount of the period
 * that has started last (planned limits are keyed by their period's start, in epoch seconds). null: none.
 */
function currentLimit(budget: AwsBudget, now: Date): number | null {
  if (budget.BudgetLimit?.Amount !== undefined) return Number(budget.BudgetLimit.Amount);
  const started = Object.entries(budget.PlannedBudgetLimits ?? {})
    .filter(([start]) => Number(start) * 1000 <= now.getTime())
    .sort(([a], [b]) => Number(a) - Number(b));
  const amount = started.at(-1)?.[1].Amount;
  return amount === undefined ? null : Number(amount);
}

export const budgetsPart = globalPart({
  part: 'budgets',
  read: async ({ session, now }: ReadContext) => {
    const client = session.client((config) => new BudgetsClient(config));
    const listed = await foldPages(
      paginateDescribeBudgets({ client }, { AccountId: session.accountId }),
      [] as Omit<Budget, 'alerts'>[],
      (into, page) => [
        ...into,
        ...(page.Budgets ?? [])
          // Only cost budgets are in dollars; usage, reservation and savings plan budgets do not cap spend.
          .filter((b) => b.BudgetType === 'COST')
          .map((b) => ({
            name: b.BudgetName ?? '',
            limitUsd: currentLimit(b, now),
            actualSpendUsd: Number(b.CalculatedSpend?.ActualSpend?.Amount ?? 0),
            forecastedSpendUsd:
              b.CalculatedSpend?.ForecastedSpend?.Amount === undefined
                ? null
                : Number(b.CalculatedSpend.ForecastedSpend.Amount),
          })),
      ],
    );
    const alerts = await mapLimit({
      items: listed,
      limit: BUDGETS_AT_ONCE,
      run: (budget) => alertsOf(client, session.accountId, budget.name),
    });
    const budgets = listed.flatMap((budget, i): Budget[] => {
      const of = alerts[i];
      return of ? [{ ...budget, alerts: of }] : [];
    });
    return { value: { budgets } };
  },
});
