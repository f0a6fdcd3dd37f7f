import { PLANS } from '../../domain/plans';
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
      expect(Object.keys(plan).sort()).toEqual(['account_limit', 'features', 'id', 'name', 'price_usd_month', 'scan_interval_minutes']);
      expect(Number.isInteger(plan.price_usd_month)).toBe(true);
      expect(plan.account_limit).toBeGreaterThan(0);
      expect(plan.scan_interval_minutes).toBeGreaterThan(0);
    }
  });

  it('serves the catalogue that limits are enforced from', async () => {
    const res = await ctx.http.get('/billing/plans').expect(200);
    expect(res.body.plans.map((p: { account_limit: number }) => p.account_limit)).toEqual(PLANS.map((p) => p.account_limit));
  });

  it('orders plans by price and gives higher plans more accounts and shorter intervals', async () => {
    const { plans } = (await ctx.http.get('/billing/plans').expect(200)).body as { plans: typeof PLANS };
    for (let i = 1; i < plans.length; i++) {
      expect(plans[i]!.price_usd_month).toBeGreaterThan(plans[i - 1]!.price_usd_month);
      expect(plans[i]!.account_limit).toBeGreaterThan(plans[i - 1]!.account_limit);
      expect(plans[i]!.scan_interval_minutes).toBeLessThan(plans[i - 1]!.scan_interval_minutes);
    }
  });
});
