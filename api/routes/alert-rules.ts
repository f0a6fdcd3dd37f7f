import { Router } from 'express';
import type { AppDeps } from '../context';

export function alertRulesRouter(_deps: AppDeps): Router {
  return Router();
}
