import { Router } from 'express';
import { PLANS } from '../../domain/plans';
import type { AppDeps } from '../context';

/** Public plan catalogue (no authentication). The internal manual-scan quota is not part of the contract. */
export function plansRouter(): Router {
  const router = Router();
  router.get('/billing/plans', (_req, res) => {
    res.json({
      plans: PLANS.map(({ id, name, price_usd_month, account_limit, scan_interval_minutes, features }) =>
        ({ id, name, price_usd_month, account_limit, scan_interval_minutes, features })),
    });
  });
  return router;
}

/** Stripe checkout and portal (owner only). */
export function billingRouter(_deps: AppDeps): Router {
  return Router();
}
