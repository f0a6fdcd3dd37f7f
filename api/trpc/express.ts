import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { Router, type RequestHandler } from 'express';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/deps';
import { parseJsonText } from '../middleware/body';
import { createTrpcContext } from './context';
import { TRPC_MAX_BATCH } from './limits';
import { appRouter } from './router';

/**
 * What tRPC itself would fail on as a 500: a batch over the cap, and an `input` query parameter that is not JSON or
 * nests deeper than a request body may (api/middleware/body.ts). Refused before any procedure runs, with the REST
 * error body (as an unreadable JSON request body is).
 */
const guardRequest: RequestHandler = (req, _res, next) => {
  const batched = req.query.batch === '1';
  if (batched && req.path.split(',').length > TRPC_MAX_BATCH) {
    return next(new AppError('batch_too_large', `A tRPC batch holds at most ${TRPC_MAX_BATCH} procedures`));
  }
  const { input } = req.query;
  if (input !== undefined) {
    if (typeof input !== 'string')
      return next(new AppError('validation_failed', 'The input query parameter must appear once'));
    try {
      parseJsonText(input, 'The input query parameter');
    } catch (err) {
      return next(err);
    }
  }
  return next();
};

/** Like the REST answers: tokens and tenant data are never kept by a browser or proxy. */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The tRPC endpoint, mounted at /trpc after the JSON body parser (so its budget and 400s apply here too). */
export function trpcMiddleware(deps: AppDeps): RequestHandler {
  return Router().use(
    noStore,
    guardRequest,
    createExpressMiddleware({
      router: appRouter,
      maxBatchSize: TRPC_MAX_BATCH,
      createContext: ({ req }) =>
        createTrpcContext(deps, {
          authorization: req.headers.authorization,
          clientAddress: req.ip ?? 'unknown',
          log: req.log,
        }),
    }),
  );
}
