import { Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { acceptInviteInput } from '../schemas/users';
import { acceptInvitation } from '../services/invitations';
import { parseInput } from '../validation';

/** Public: the invitation token in the body is the proof, there is no bearer token yet. */
export function invitationsRouter(deps: AppDeps): Router {
  const router = Router();

  router.post('/auth/accept-invite', async (req, res) => {
    const input = parseInput(acceptInviteInput, req.body);
    res.json(await acceptInvitation(forRequest(deps, req), { ...input, clientAddress: req.ip ?? 'unknown' }));
  });

  return router;
}
