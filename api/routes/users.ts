import { Router } from 'express';
import type { AppDeps } from '../context';

export function usersRouter(_deps: AppDeps): Router {
  return Router();
}
