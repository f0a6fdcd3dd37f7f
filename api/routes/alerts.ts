import { Router } from 'express';
import type { AppDeps } from '../context';

export function alertsRouter(_deps: AppDeps): Router {
  return Router();
}
