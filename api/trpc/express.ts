import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { RequestHandler } from 'express';
import type { AppDeps } from '../context';
import { createTrpcContext } from './context';
import { appRouter } from './router';

/** The tRPC endpoint, mounted at /trpc after the JSON body parser (so its 100 kB limit and 400s apply here too). */
export function trpcMiddleware(deps: AppDeps): RequestHandler {
  return createExpressMiddleware({
    router: appRouter,
    createContext: ({ req }) => createTrpcContext(deps, {
      authorization: req.headers.authorization,
      clientAddress: req.ip ?? 'unknown',
      log: req.log,
    }),
  });
}
