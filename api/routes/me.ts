import { Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { callerOf, requireAuth } from '../middleware/auth';
import { patchMeInput } from '../schemas/me';
import { getProfile, renameSelf } from '../services/profile';
import { parseInput } from '../validation';

export function meRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);
  router.get('/me', auth, async (req, res) => {
    res.json(await getProfile(forRequest(deps, req), callerOf(req)));
  });
  router.patch('/me', auth, async (req, res) => {
    res.json(await renameSelf(forRequest(deps, req), callerOf(req), parseInput(patchMeInput, req.body).name));
  });
  return router;
}
