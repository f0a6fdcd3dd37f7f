import { Router } from 'express';
import type { AppDeps } from '../context';
import { loginInput, logoutInput, refreshInput, signupInput } from '../schemas/auth';
import { login, logout, refresh, signup } from '../services/auth';
import { parseInput } from '../validation';

export function authRouter(deps: AppDeps): Router {
  const router = Router();

  router.post('/auth/signup', async (req, res) => {
    res.status(201).json(await signup(deps, parseInput(signupInput, req.body)));
  });

  router.post('/auth/login', async (req, res) => {
    const input = parseInput(loginInput, req.body);
    res.json(await login(deps, { ...input, clientAddress: req.ip ?? 'unknown' }));
  });

  router.post('/auth/refresh', async (req, res) => {
    res.json(await refresh(deps, parseInput(refreshInput, req.body).refresh_token));
  });

  router.post('/auth/logout', async (req, res) => {
    await logout(deps, parseInput(logoutInput, req.body).refresh_token);
    res.status(204).end();
  });

  return router;
}
