import { Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { callerOf, requireAuth, requireRole } from '../middleware/auth';
import { listAlertsQuery } from '../schemas/alerts';
import { acknowledgeAlert, listTenantAlerts } from '../services/alerts';
import { parseInput } from '../validation';

export function alertsRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);

  router.get('/alerts', auth, async (req, res) => {
    res.json(await listTenantAlerts(forRequest(deps, req), callerOf(req), parseInput(listAlertsQuery, req.query, 'query')));
  });

  router.post('/alerts/:alertId/ack', auth, requireRole('member'), async (req, res) => {
    res.json(await acknowledgeAlert(forRequest(deps, req), callerOf(req), String(req.params.alertId)));
  });

  return router;
}
