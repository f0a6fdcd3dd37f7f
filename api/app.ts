import express, { type Express } from 'express';
import { tracingOn } from '../observability/tracing';
import type { AppDeps } from '../core/deps';
import { jsonBody } from './middleware/body';
import { errorHandler, routeNotFound } from './middleware/errors';
import { httpMetrics } from './middleware/metrics';
import { requestLog } from './middleware/request-log';
import { requestTracing } from './middleware/tracing';
import { openApiJson } from './openapi/document';
import { OPERATIONS } from './operations';
import { docsAssets } from './operations/docs';
import { operationRoutes } from './operations/express';
import { dashboardRouter } from './routes/dashboard';
import { trpcMiddleware } from './trpc/express';

/** Builds the Express app. No listening, no global state: tests and main.ts both call this. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.http.trustProxy);
  app.use(httpMetrics);
  if (tracingOn()) app.use(requestTracing);

  // API answers are never cached (Cache-Control: no-store): no ETag to hash each body for.
  app.set('etag', false);
  app.use(requestLog(deps.log));

  // Health checks and the Stripe webhook come before the JSON parser: /healthz touches nothing, and Stripe signs
  // the exact bytes it sent, so its webhook reads the raw body.
  app.use(
    operationRoutes(
      deps,
      OPERATIONS.filter((op) => op.beforeJsonParser),
    ),
  );
  app.use(jsonBody);

  // Every other operation (api/operations/). Each route checks its own bearer token, so unknown paths still reach the 404.
  app.use(
    operationRoutes(
      deps,
      OPERATIONS.filter((op) => !op.beforeJsonParser),
    ),
  );
  // Built now, so a registry that does not match its schemas stops the start-up rather than a request.
  openApiJson(OPERATIONS);
  app.use('/docs', docsAssets);

  // The dashboard (/app) and its API (/trpc, the same services, auth and schemas as the routes above).
  app.use(dashboardRouter());
  app.use('/trpc', trpcMiddleware(deps));

  app.use(routeNotFound);
  app.use(errorHandler);
  return app;
}
