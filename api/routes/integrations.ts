import { Router } from 'express';
import type { AppDeps } from '../context';

export function integrationsRouter(_deps: AppDeps): Router {
  return Router();
}
