import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { AppError } from '../errors';
import { receiveStripeWebhook } from '../services/stripe-events';

const BODY_LIMIT = '1mb';
const rawParser = express.raw({ type: 'application/json', limit: BODY_LIMIT });

/** The exact bytes Stripe sent, as a Buffer: the signature covers them, not a re-serialised object. */
function rawJsonBody(req: Request, res: Response, next: NextFunction): void {
  rawParser(req, res, (err?: unknown) => {
    if (!err) return next();
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') return next(new AppError('body_too_large', `Request body exceeds ${BODY_LIMIT}`));
    if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
      return next(new AppError('unsupported_content_type', 'Request body must be UTF-8 JSON'));
    }
    // Other 4xx are bodies that could not be read in full (an aborted request, a length that does not match
    // Content-Length, a corrupt gzip stream): the sender's doing, not a server error.
    const status = (err as { status?: number }).status ?? 500;
    if (status < 500) return next(new AppError('invalid_json', 'The request body could not be read in full'));
    next(err);
  });
}

/** Stripe's webhook endpoint: no bearer token, the Stripe-Signature header is the proof. */
export function stripeWebhookRouter(deps: AppDeps): Router {
  const router = Router();
  router.post('/webhooks/stripe', rawJsonBody, async (req, res) => {
    res.json(await receiveStripeWebhook(forRequest(deps, req), req.body, req.headers['stripe-signature']));
  });
  return router;
}
