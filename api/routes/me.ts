import { Router } from 'express';
import type { AppDeps } from '../context';
import { callerOf } from '../middleware/auth';
import { patchMeInput } from '../schemas/me';
import { getProfile, renameSelf } from '../services/profile';
import { parseInput } from '../validation';

export function meRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/me', async (req, res) => {
    res.json(await getProfile(deps, callerOf(req)));
  });
  router.patch('/me', async (req, res) => {
    res.json(await renameSelf(deps, callerOf(req), parseInput(patchMeInput, req.body).name));
  });
  return router;
}
