import { Router } from 'express';
import type { AppDeps } from '../context';

export function invitationsRouter(_deps: AppDeps): Router {
  return Router();
}
