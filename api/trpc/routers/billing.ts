import { checkoutInput, portalQuery } from '../../../core/schemas/billing';
import {
  createCheckoutSession,
  createPortalSession,
  listPlans,
  requireBillingConfigured,
} from '../../../core/billing/billing';
import { procedureFor, publicProcedureFor, router } from '../init';

// As in the REST routes: without Stripe keys both answer 503 before the input is looked at.
const owner = (operationId: string) =>
  procedureFor(operationId).use(({ ctx, next }) => {
    requireBillingConfigured(ctx.deps.config);
    return next();
  });

export const billingRouter = router({
  plans: publicProcedureFor('listPlans').query(({ ctx }) => listPlans(ctx.deps.config)),
  checkout: owner('startCheckout')
    .input(checkoutInput)
    .mutation(({ ctx, input }) => createCheckoutSession(ctx.deps, ctx.caller, input)),
  portal: owner('openBillingPortal')
    .input(portalQuery.prefault({}))
    .mutation(({ ctx, input }) => createPortalSession(ctx.deps, ctx.caller, input.return_url)),
});
