import { Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { callerOf, requireAuth, requireRole } from '../middleware/auth';
import { createAlertRuleInput, patchAlertRuleInput } from '../schemas/alerts';
import { createAlertRule, deleteAlertRule, listTenantAlertRules, patchAlertRule } from '../services/alert-rules';
import { parseInput } from '../validation';

export function alertRulesRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);

  router.get('/alert-rules', auth, async (req, res) => {
    res.json(await listTenantAlertRules(forRequest(deps, req), callerOf(req)));
  });

  router.post('/alert-rules', auth, requireRole('member'), async (req, res) => {
    res.status(201).json(await createAlertRule(forRequest(deps, req), callerOf(req), parseInput(createAlertRuleInput, req.body)));
  });

  router.patch('/alert-rules/:ruleId', auth, requireRole('member'), async (req, res) => {
    const patch = parseInput(patchAlertRuleInput, req.body);
    res.json(await patchAlertRule(forRequest(deps, req), callerOf(req), String(req.params.ruleId), patch));
  });

  router.delete('/alert-rules/:ruleId', auth, requireRole('member'), async (req, res) => {
    res.json(await deleteAlertRule(forRequest(deps, req), callerOf(req), String(req.params.ruleId)));
  });

  return router;
}
