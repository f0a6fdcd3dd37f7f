import { z } from 'zod';
import { PLAN_IDS } from '../../domain/tenancy/plans';

export const plan = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  price_usd_month: z.number().int(),
  account_limit: z.number().int(),
  organization_limit: z.number().int().meta({
    description: 'AWS Organizations connected at once (their member accounts count toward account_limit)',
  }),
  scan_interval_minutes: z.number().int(),
  features: z.array(z.string()),
  aws_cost_explorer_requests_per_account_month: z
    .number()
    .int()
    .meta({
      description:
        'Cost Explorer requests the scheduled scans of one account make in a 30-day month; AWS bills them to the ' +
        "account's owner at 0.01 USD each. Manual scans add at most one read (three requests) per interval.",
    }),
  aws_cost_explorer_usd_per_account_month: z.number().meta({ description: 'The same, in USD' }),
});
export const plansOutput = z.object({ plans: z.array(plan) });

// Where Stripe sends the user back: http(s) only, so no javascript: or data: URL can be planted.
const returnUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2048, 'must be at most 2048 characters');

export const checkoutInput = z.strictObject({
  plan_id: plan.shape.id,
  success_url: returnUrl,
  cancel_url: returnUrl,
});
export const checkoutOutput = z.object({ checkout_url: z.string().meta({ format: 'uri' }) });

export const portalQuery = z.strictObject({ return_url: returnUrl.optional() });
export const portalOutput = z.object({ portal_url: z.string().meta({ format: 'uri' }) });

export const stripeWebhookOutput = z.object({ received: z.literal(true), duplicate: z.literal(true).optional() });

export type CheckoutInput = z.output<typeof checkoutInput>;
