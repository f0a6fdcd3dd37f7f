import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import type { AppDeps } from './context';
import { jsonBody } from './middleware/body';
import { errorHandler, routeNotFound } from './middleware/errors';
import { accountsRouter } from './routes/accounts';
import { alertRulesRouter } from './routes/alert-rules';
import { alertsRouter } from './routes/alerts';
import { authRouter } from './routes/auth';
import { billingRouter, plansRouter } from './routes/billing';
import { dashboardRouter } from './routes/dashboard';
import { docsRouter } from './routes/docs';
import { exportsRouter } from './routes/exports';
import { healthRouter } from './routes/health';
import { integrationsRouter } from './routes/integrations';
import { invitationsRouter } from './routes/invitations';
import { meRouter } from './routes/me';
import { stripeWebhookRouter } from './routes/stripe-webhook';
import { usersRouter } from './routes/users';
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

  app.use(healthRouter(deps));
  // Stripe signs the exact bytes it sent: its webhook reads the raw body, so it comes before the JSON parser.
  app.use(stripeWebhookRouter(deps));
  app.use(jsonBody);

  // Public routes (signed links and the Slack callback carry their own proof instead of a bearer token).
  app.use(authRouter(deps));
  app.use(invitationsRouter(deps));
  app.use(plansRouter(deps));
  app.use(docsRouter());

  // Authenticated resources: each route names requireAuth itself, so unknown paths still reach the 404.
  app.use(meRouter(deps));
  app.use(accountsRouter(deps));
  app.use(exportsRouter(deps));
  app.use(alertRulesRouter(deps));
  app.use(alertsRouter(deps));
  app.use(usersRouter(deps));
  app.use(billingRouter(deps));
  app.use(integrationsRouter(deps));

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
