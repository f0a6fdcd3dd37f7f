import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Response, Router } from 'express';
import { AppError } from '../../core/errors';

/** Where `npm run build:web` puts the dashboard. */
export const DASHBOARD_DIST = path.resolve(__dirname, '..', '..', 'web', 'dist');

// The dashboard's scripts and styles are its own files: nothing inline, nothing from elsewhere. The API is on
// the same origin (/trpc); navigations to Stripe, Slack or the Temporal UI are links, which CSP does not limit.
const CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

function notBuilt(res: Response): void {
  res.status(503).json({
    error: 'The dashboard is not built: run `npm run build:web` (npm start builds it when web/dist is missing)',
    code: 'dashboard_not_built',
  });
}

/**
 * Serves the built dashboard at /app: files as they are (hashed assets cached for good), and index.html for
 * every other /app path, so the links the service sends (/app/accounts/<id>, /app/accept-invite#token=...,
 * /app/billing) open the right page. Checked per request, so a build made after start-up is picked up.
 */
export function dashboardRouter(dist = DASHBOARD_DIST): Router {
  const router = Router();
  const index = path.join(dist, 'index.html');

  router.use(
    '/app/assets',
    express.static(path.join(dist, 'assets'), { immutable: true, maxAge: '365d', index: false }),
  );
  // A missing asset is a 404, not the page: a stale tab asking for an old bundle must not get HTML as script.
  router.use('/app/assets', (req, _res, next) =>
    next(new AppError('route_not_found', `No dashboard file ${req.originalUrl}`)),
  );

  router.get(['/app', '/app/*splat'], (_req, res) => {
    if (!existsSync(index)) return notBuilt(res);
    res.set({
      'Content-Security-Policy': CSP,
      'Cache-Control': 'no-cache',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    });
    res.sendFile(index);
  });

  return router;
}
