import { Router } from 'express';
import type { AppDeps } from '../context';

export function exportsRouter(_deps: AppDeps): Router {
  return Router();
}
