import { costExplorerRequestsPerMonth, PLANS } from '../../domain/tenancy/plans';
import { createTestContext, type TestContext } from '../helpers/context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('GET /billing/plans', () => {
  it('lists the four plans without authentication', async () => {
    const res = await ctx.http.get('/billing/plans').expect(200);
    expect(res.body.plans.map((p: { id: string }) => p.id)).toEqual(['solo', 'team', 'agency', 'enterprise']);
    for (const plan of res.body.plans) {
      expect(Object.keys(plan).sort()).toEqual([
        'account_limit',
        'aws_cost_explorer_requests_per_account_month',
        'aws_cost_explorer_usd_per_account_month',
        'features',
        'id',
        'name',
        'organization_limit',
        'price_usd_month',
        'scan_interval_minutes',
      ]);
      expect(Number.isInteger(plan.price_usd_month)).toBe(true);
      expect(plan.account_limit).toBeGreaterThan(0);
      expect(plan.scan_interval_minutes).toBeGreaterThan(0);
    }
  });

  it('serves the catalogue that limits are enforced from', async () => {
    const res = await ctx.http.get('/billing/plans').expect(200);
    expect(res.body.plans.map((p: { account_limit: number }) => p.account_limit)).toEqual(
      PLANS.map((p) => p.account_limit),
    );
  });

  it('orders plans by price and gives higher plans more accounts and shorter intervals', async () => {
    const { plans } = (await ctx.http.get('/billing/plans').expect(200)).body as { plans: typeof PLANS };
    for (let i = 1; i < plans.length; i++) {
      expect(plans[i]!.price_usd_month).toBeGreaterThan(plans[i - 1]!.price_usd_month);
      expect(plans[i]!.account_limit).toBeGreaterThan(plans[i - 1]!.account_limit);
      expect(plans[i]!.scan_interval_minutes).toBeLessThan(plans[i - 1]!.scan_interval_minutes);
    }
  });

  it("states what each plan's scans cost the customer in Cost Explorer requests: a read at most every 12 hours", async () => {
    const { plans } = (await ctx.http.get('/billing/plans').expect(200)).body;
    const costs = Object.fromEntries(
      plans.map((p: Record<string, number | string>) => [
        p.id,
        [p.aws_cost_explorer_requests_per_account_month, p.aws_cost_explorer_usd_per_account_month],
      ]),
    );
    // Three requests a read (GetCostAndUsage, GetAnomalies, GetAnomalyMonitors): daily scans read daily, the others
    // twice a day.
    expect(costs).toEqual({ solo: [90, 0.9], team: [180, 1.8], agency: [180, 1.8], enterprise: [180, 1.8] });
  });
});

describe('costExplorerRequestsPerMonth', () => {
  it.each([
    [1440, 12, 90],
    [360, 12, 180],
    [60, 12, 180],
    [15, 12, 180],
    [15, 0, 8640],
    [15, 24, 90],
    [45, 12, 180],
    [1440, 48, 45],
  ])(
    'scans every %i minutes, reads at most every %i hours: %i requests a month',
    (scanIntervalMinutes, minIntervalHours, requests) => {
      expect(costExplorerRequestsPerMonth({ scanIntervalMinutes, minIntervalHours })).toBe(requests);
    },
  );
});
