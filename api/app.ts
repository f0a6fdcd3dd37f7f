import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import type { AppDeps } from './context';
import { jsonBody } from './middleware/body';
import { errorHandler, routeNotFound } from './middleware/errors';
import { openApiJson } from './openapi/document';
import { OPERATIONS } from './operations';
import { docsAssets } from './operations/docs';
import { operationRoutes } from './operations/express';
import { dashboardRouter } from './routes/dashboard';
import { trpcMiddleware } from './trpc/express';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Builds the Express app. No listening, no global state: tests and main.ts both call this. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.http.trustProxy);

  app.use(pinoHttp({
    logger: deps.log,
    // Every line logged for a request (by us or by pino-http) carries a flat `reqId`.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'reqId' },
    // A caller-supplied X-Request-Id is kept when it is sane, so one id follows a request across services.
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: { req: redactCredentialQuery },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
  }));

  // Health checks and the Stripe webhook come before the JSON parser: /healthz touches nothing, and Stripe signs
  // the exact bytes it sent, so its webhook reads the raw body.
  app.use(operationRoutes(deps, OPERATIONS.filter((op) => op.beforeJsonParser)));
  app.use(jsonBody);

  // Every other operation (api/operations/). Each route checks its own bearer token, so unknown paths still reach the 404.
  app.use(operationRoutes(deps, OPERATIONS.filter((op) => !op.beforeJsonParser)));
  // Built now, so a registry that does not match its schemas stops the start-up rather than a request.
  openApiJson();
  app.use('/docs', docsAssets);

  // The dashboard (/app) and its API (/trpc, the same services, auth and schemas as the routes above).
  app.use(dashboardRouter());
  app.use('/trpc', trpcMiddleware(deps));

  app.use(routeNotFound);
  app.use(errorHandler);
  return app;
}

// Query parameters that are credentials wherever they appear: the Slack install's one-time code and state,
// signed download links' signatures, invitation tokens. Logged as [redacted], whatever the path or its case.
const CREDENTIAL_PARAMS = new Set(['code', 'state', 'signature', 'token']);

function redactCredentialQuery<T extends { url: string; query?: unknown }>(req: T): T {
  const at = req.url.indexOf('?');
  if (at < 0) return req;
  const params = new URLSearchParams(req.url.slice(at + 1));
  let redacted = false;
  for (const key of [...params.keys()]) {
    if (CREDENTIAL_PARAMS.has(key.toLowerCase())) {
      params.set(key, '[redacted]');
      redacted = true;
    }
  }
  return redacted ? { ...req, url: `${req.url.slice(0, at)}?${params.toString()}`, query: Object.fromEntries(params) } : req;
}
