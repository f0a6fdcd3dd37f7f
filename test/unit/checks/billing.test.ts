import { checkById } from '../../../domain/checks/catalog';
import type { Budget, DailyCost, Inventory } from '../../../domain/scans/inventory';
import { cleanInventory, outcome, part, withoutPart } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

const DAY_MS = 86_400_000;

/** The seven days before `lastDate` at `baseline` a day, then `lastDate` at `last`. */
function costs(last: number, baseline: number, lastDate = '2026-03-13'): DailyCost[] {
  const day = (offset: number) =>
    new Date(Date.parse(`${lastDate}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
  return [
    ...Array.from({ length: 7 }, (_, i) => ({ date: day(i - 7), amountUsd: baseline })),
    { date: lastDate, amountUsd: last },
  ];
}

function spike(daily: DailyCost[]) {
  const inventory = cleanInventory(NOW);
  part(inventory.costs).daily = daily;
  return outcome('billing.daily_spend_spike', inventory);
}

describe('billing checks', () => {
  describe('daily spend spike (> 2x the 7-day average and >= 50 USD more)', () => {
    it.each([
      [70, 20, true], // 3.5x and exactly 50 more
      [69.99, 20, false], // 3.5x but under 50 more
      [201, 100, true],
      [200, 100, false], // exactly 2x is not more than 2x
      [60, 0, true], // from nothing
    ])('%p after a week at %p: %p', (last, baseline, fails) => {
      expect(spike(costs(last, baseline))).toEqual(fails ? ['daily-spend@global'] : 'pass');
    });

    it('ignores the scan day and yesterday, whose figures Cost Explorer is still completing', () => {
      expect(
        spike([...costs(20, 20), { date: '2026-03-14', amountUsd: 10_000 }, { date: '2026-03-15', amountUsd: 10_000 }]),
      ).toBe('pass');
    });

    it('averages only the week before the last complete day', () => {
      const daily = [{ date: '2026-03-01', amountUsd: 5000 }, ...costs(70, 20)];
      expect(spike(daily)).toEqual(['daily-spend@global']);
    });

    it('judges the latest complete day when the day before yesterday has no data', () => {
      expect(spike(costs(70, 20, '2026-03-12'))).toEqual(['daily-spend@global']);
    });

    it.each([
      ['no data', []],
      [
        'only today and yesterday',
        [
          { date: '2026-03-14', amountUsd: 100 },
          { date: '2026-03-15', amountUsd: 100 },
        ],
      ],
      ['no week before', [{ date: '2026-03-13', amountUsd: 100 }]],
    ])('is not evaluated with %s', (_, daily) => {
      expect(spike(daily)).toBe('not_evaluated');
    });
  });

  it.each([
    [10, ['a-1@global']],
    [9.99, 'pass'],
  ])('reports anomalies from 10 USD of impact (%d)', (impactUsd, expected) => {
    const inventory = cleanInventory(NOW);
    part(inventory.anomalies).anomalies = [{ id: 'a-1', impactUsd, startDate: '2026-03-14', service: null }];
    expect(outcome('billing.cost_anomaly', inventory)).toEqual(expected);
  });

  describe('cost anomalies are "none" only where a monitor looks for them', () => {
    const ANOMALIES = 'billing.cost_anomaly';
    const MONITOR = 'billing.no_cost_anomaly_monitor';
    const withoutMonitors = () => {
      const inventory = cleanInventory(NOW);
      part(inventory.anomalyMonitors).monitors = [];
      return inventory;
    };
    const evaluate = (id: string, inventory: Inventory) => checkById(id)!.evaluate(inventory, { now: NOW });

    it('passes with a monitor and no anomaly of 10 USD or more', () => {
      expect(evaluate(ANOMALIES, cleanInventory(NOW))).toEqual({ status: 'pass' });
      expect(evaluate(MONITOR, cleanInventory(NOW))).toEqual({ status: 'pass' });
    });

    it('is not evaluated without a monitor, which is a finding of its own', () => {
      const inventory = withoutMonitors();
      expect(evaluate(ANOMALIES, inventory)).toEqual({
        status: 'not_evaluated',
        reason: expect.stringMatching(
          /^The account has no Cost Anomaly Detection monitor, so AWS looks for no anomalies/,
        ),
      });
      expect(evaluate(MONITOR, inventory)).toEqual({
        status: 'fail',
        resources: [
          { resource: 'cost-anomaly-detection', detail: 'The account has no Cost Anomaly Detection monitor.' },
        ],
      });
    });

    it('still reports the anomalies AWS gives without a monitor (a deleted one keeps them)', () => {
      const inventory = withoutMonitors();
      part(inventory.anomalies).anomalies.push({ id: 'a-2', impactUsd: 300, startDate: '2026-03-12', service: null });
      expect(outcome(ANOMALIES, inventory)).toEqual(['a-2@global']);
    });

    it('never claims "no anomalies" when the monitors could not be read', () => {
      const inventory = withoutPart(cleanInventory(NOW), 'anomalyMonitors', 'AccessDenied on GetAnomalyMonitors');
      expect(evaluate(ANOMALIES, inventory)).toEqual({
        status: 'not_evaluated',
        reason:
          'Whether a Cost Anomaly Detection monitor looks for anomalies is unknown: AccessDenied on GetAnomalyMonitors',
      });
      expect(outcome(MONITOR, inventory)).toBe('not_evaluated');
      expect(outcome(ANOMALIES, withoutPart(cleanInventory(NOW), 'anomalies'))).toBe('not_evaluated');
    });
  });

  describe('a budget counts only when it alerts someone', () => {
    const NO_BUDGET = 'billing.no_budget';
    const budget = (name: string, alerts: Budget['alerts']): Budget => ({
      name,
      limitUsd: 1000,
      actualSpendUsd: 100,
      forecastedSpendUsd: 200,
      alerts,
    });
    const withBudgets = (...budgets: Budget[]) => {
      const inventory = cleanInventory(NOW);
      part(inventory.budgets).budgets = budgets;
      return inventory;
    };
    const detail = (inventory: Inventory) => {
      const result = checkById(NO_BUDGET)!.evaluate(inventory, { now: NOW });
      return result.status === 'fail' ? result.resources.map((r) => r.detail) : result.status;
    };

    it('passes when one budget has a notification, whatever the others', () => {
      const inventory = withBudgets(
        budget('silent', { read: true, notifies: false }),
        budget('alerting', { read: true, notifies: true }),
        budget('hidden', { read: false, reason: 'AccessDenied' }),
      );
      expect(outcome(NO_BUDGET, inventory)).toBe('pass');
    });

    it('fails when the only budgets alert nobody, saying so, as when there is none', () => {
      expect(detail(withBudgets(budget('silent', { read: true, notifies: false })))).toEqual([
        'No budget alerts anyone: silent has no notification, so no subscriber.',
      ]);
      expect(
        detail(withBudgets(budget('a', { read: true, notifies: false }), budget('b', { read: true, notifies: false }))),
      ).toEqual(['No budget alerts anyone: a, b have no notification, so no subscriber.']);
      expect(detail(withBudgets())).toEqual(['No budget exists.']);
    });

    it('is not evaluated when a budget whose notifications could not be read might be the one that alerts', () => {
      const inventory = withBudgets(
        budget('silent', { read: true, notifies: false }),
        budget('hidden', { read: false, reason: "AWS denied Sentinel's role Budgets DescribeNotificationsForBudget." }),
      );
      expect(checkById(NO_BUDGET)!.evaluate(inventory, { now: NOW })).toEqual({
        status: 'not_evaluated',
        reason:
          "Whether these budgets alert anyone is unknown. hidden: AWS denied Sentinel's role Budgets DescribeNotificationsForBudget.",
      });
      expect(outcome(NO_BUDGET, withoutPart(cleanInventory(NOW), 'budgets'))).toBe('not_evaluated');
    });

    it('still judges the spend of a budget without alerts', () => {
      const inventory = withBudgets({ ...budget('silent', { read: true, notifies: false }), actualSpendUsd: 1200 });
      expect(outcome('billing.budget_exceeded', inventory)).toEqual(['silent@global']);
    });
  });

  it.each([
    ['under, forecast under', 900, 950, 'pass', 'pass'],
    ['under, no forecast', 900, null, 'pass', 'pass'],
    ['at the limit, forecast over', 1000, 1100, ['monthly@global'], 'pass'],
    ['over the limit', 1000.01, 1300, 'pass', ['monthly@global']],
  ])('keeps forecast and actual overruns apart: %s', (_, actualSpendUsd, forecastedSpendUsd, forecast, actual) => {
    const inventory = cleanInventory(NOW);
    Object.assign(part(inventory.budgets).budgets[0]!, { actualSpendUsd, forecastedSpendUsd });
    expect(outcome('billing.budget_forecast_exceeded', inventory)).toEqual(forecast);
    expect(outcome('billing.budget_exceeded', inventory)).toEqual(actual);
  });

  it('skips a budget without an amount for the period (it caps nothing), and still counts it as a budget', () => {
    const inventory = cleanInventory(NOW);
    Object.assign(part(inventory.budgets).budgets[0]!, {
      limitUsd: null,
      actualSpendUsd: 5000,
      forecastedSpendUsd: 9000,
    });
    expect(outcome('billing.budget_exceeded', inventory)).toBe('pass');
    expect(outcome('billing.budget_forecast_exceeded', inventory)).toBe('pass');
    expect(outcome('billing.no_budget', inventory)).toBe('pass');
  });
});
