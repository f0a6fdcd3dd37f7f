import { Router } from 'express';
import type { AppDeps } from '../context';

export function stripeWebhookRouter(_deps: AppDeps): Router {
  return Router();
}
