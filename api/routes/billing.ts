import { Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { callerOf, requireAuth, requireRole } from '../middleware/auth';
import { checkoutInput, portalQuery } from '../schemas/billing';
import { createCheckoutSession, createPortalSession, listPlans, requireBillingConfigured } from '../services/billing';
import { parseInput } from '../validation';

/** Public plan catalogue (no authentication). */
export function plansRouter({ config }: Pick<AppDeps, 'config'>): Router {
  const router = Router();
  router.get('/billing/plans', (_req, res) => {
    res.json(listPlans(config));
  });
  return router;
}

/** Stripe checkout and portal (owner only). Without Stripe keys both answer 503 before looking at the input. */
export function billingRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);

  router.post('/billing/checkout', auth, requireRole('owner'), async (req, res) => {
    requireBillingConfigured(deps.config);
    const input = parseInput(checkoutInput, req.body);
    res.json(await createCheckoutSession(forRequest(deps, req), callerOf(req), input));
  });

  router.get('/billing/portal', auth, requireRole('owner'), async (req, res) => {
    requireBillingConfigured(deps.config);
    const { return_url: returnUrl } = parseInput(portalQuery, req.query, 'query');
    res.json(await createPortalSession(forRequest(deps, req), callerOf(req), returnUrl));
  });

  return router;
}
