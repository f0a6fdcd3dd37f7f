import { Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { callerOf, requireAuth, requireRole } from '../middleware/auth';
import { changeRoleInput, inviteUserInput } from '../schemas/users';
import { resendInvitation } from '../services/invitations';
import { changeRole, inviteUser, listTeam, removeUser } from '../services/users';
import { parseInput } from '../validation';

export function usersRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);

  router.get('/users', auth, async (req, res) => {
    res.json(await listTeam(forRequest(deps, req), callerOf(req)));
  });

  router.post('/users/invite', auth, requireRole('admin'), async (req, res) => {
    res.status(201).json(await inviteUser(forRequest(deps, req), callerOf(req), parseInput(inviteUserInput, req.body)));
  });

  router.post('/users/:userId/resend-invite', auth, requireRole('admin'), async (req, res) => {
    res.json(await resendInvitation(forRequest(deps, req), callerOf(req), String(req.params.userId)));
  });

  router.patch('/users/:userId', auth, requireRole('owner'), async (req, res) => {
    const { role } = parseInput(changeRoleInput, req.body);
    res.json(await changeRole(forRequest(deps, req), callerOf(req), String(req.params.userId), role));
  });

  router.delete('/users/:userId', auth, requireRole('admin'), async (req, res) => {
    await removeUser(forRequest(deps, req), callerOf(req), String(req.params.userId));
    res.status(204).end();
  });

  return router;
}
