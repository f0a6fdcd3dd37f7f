import { BudgetsClient, paginateDescribeBudgets } from '@aws-sdk/client-budgets';
import { CostExplorerClient, GetCostAndUsageCommand, paginateGetAnomalies, type ResultByTime } from '@aws-sdk/client-cost-explorer';
import type { Inventory } from '../../../domain/inventory';
import { settleAll } from './concurrency';
import { allPages } from './pages';
import { readPart, type RefusedError } from './refusals';
import type { Session } from './session';

// Cost Explorer and Budgets are global services. Costs cover the 14 full days before the scan's day: today's
// figure is partial and would read as a drop.

const DAYS = 14;
const DAY_MS = 86_400_000;

const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

// An account that has never opened Cost Explorer answers AccessDenied ("not enabled for cost explorer
// access") or DataUnavailable, whatever the role's permissions.
function costExplorerReason(refused: RefusedError): string {
  const message = refused.cause instanceof Error ? refused.cause.message : '';
  if (refused.code === 'DataUnavailable' || /not enabled for cost explorer/i.test(message)) {
    return 'Cost Explorer is not enabled for this account: open it once in the AWS Billing console; '
      + 'its data becomes available within 24 hours.';
  }
  return refused.reason;
}

async function dailyCosts(ce: CostExplorerClient, now: Date) {
  const results: ResultByTime[] = [];
  let token: string | undefined;
  do {
    const page = await ce.send(new GetCostAndUsageCommand({
      TimePeriod: { Start: isoDate(now.getTime() - DAYS * DAY_MS), End: isoDate(now.getTime()) },
      Granularity: 'DAILY',
      Metrics: ['UnblendedCost'],
      NextPageToken: token,
    }));
    results.push(...(page.ResultsByTime ?? []));
    token = page.NextPageToken;
  } while (token);
  return {
    daily: results.map((r) => ({ date: r.TimePeriod?.Start ?? '', amountUsd: Number(r.Total?.UnblendedCost?.Amount ?? 0) })),
  };
}

async function anomalies(ce: CostExplorerClient, now: Date) {
  const pages = await allPages(paginateGetAnomalies({ client: ce }, {
    DateInterval: { StartDate: isoDate(now.getTime() - DAYS * DAY_MS) },
  }));
  return {
    anomalies: pages.flatMap((page) => page.Anomalies ?? []).map((a) => ({
      id: a.AnomalyId ?? '',
      impactUsd: a.Impact?.TotalImpact ?? a.Impact?.MaxImpact ?? 0,
      startDate: a.AnomalyStartDate ?? '',
      service: a.RootCauses?.[0]?.Service ?? null,
    })),
  };
}

async function budgets(client: BudgetsClient, accountId: string) {
  const pages = await allPages(paginateDescribeBudgets({ client }, { AccountId: accountId }));
  return {
    // Only cost budgets are in dollars; usage, reservation and savings plan budgets do not cap spend.
    budgets: pages.flatMap((page) => page.Budgets ?? []).filter((b) => b.BudgetType === 'COST').map((b) => ({
      name: b.BudgetName ?? '',
      limitUsd: Number(b.BudgetLimit?.Amount ?? 0),
      actualSpendUsd: Number(b.CalculatedSpend?.ActualSpend?.Amount ?? 0),
      forecastedSpendUsd: b.CalculatedSpend?.ForecastedSpend?.Amount === undefined
        ? null : Number(b.CalculatedSpend.ForecastedSpend.Amount),
    })),
  };
}

export async function collectBilling({ session, now }: { session: Session; now: Date }): Promise<Pick<Inventory, 'costs' | 'anomalies' | 'budgets'>> {
  const ce = session.client((config) => new CostExplorerClient(config));
  const budgetsClient = session.client((config) => new BudgetsClient(config));
  const [costs, found, budgeted] = await settleAll([
    readPart(() => dailyCosts(ce, now), costExplorerReason),
    readPart(() => anomalies(ce, now), costExplorerReason),
    readPart(() => budgets(budgetsClient, session.accountId)),
  ]);
  return { costs, anomalies: found, budgets: budgeted };
}
