import { Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { loginInput, logoutInput, refreshInput, signupInput } from '../schemas/auth';
import { login, logout, refresh, signup } from '../services/auth';
import { parseInput } from '../validation';

export function authRouter(deps: AppDeps): Router {
  const router = Router();

  router.post('/auth/signup', async (req, res) => {
    res.status(201).json(await signup(forRequest(deps, req), parseInput(signupInput, req.body)));
  });

  router.post('/auth/login', async (req, res) => {
    const input = parseInput(loginInput, req.body);
    res.json(await login(forRequest(deps, req), { ...input, clientAddress: req.ip ?? 'unknown' }));
  });

  router.post('/auth/refresh', async (req, res) => {
    res.json(await refresh(forRequest(deps, req), parseInput(refreshInput, req.body).refresh_token));
  });

  router.post('/auth/logout', async (req, res) => {
    await logout(forRequest(deps, req), parseInput(logoutInput, req.body).refresh_token);
    res.status(204).end();
  });

  return router;
}
