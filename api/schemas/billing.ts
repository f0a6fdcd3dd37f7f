import { z } from 'zod';

export const plan = z.object({
  id: z.enum(['solo', 'team', 'agency', 'enterprise']),
  name: z.string(),
  price_usd_month: z.number().int(),
  account_limit: z.number().int(),
  scan_interval_minutes: z.number().int(),
  features: z.array(z.string()),
});
export const plansOutput = z.object({ plans: z.array(plan) });
