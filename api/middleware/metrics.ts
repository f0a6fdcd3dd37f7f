import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, httpRequestsInFlight } from '../../observability/metrics';

// Outside the operations, the route label is the mount point: never the raw path, which holds ids and would make a
// series per account.
const MOUNTS = ['/trpc', '/app', '/docs'];

/** The route template a request matched: set by the operation routes (`res.locals.route`), else its mount. */
function routeOf(req: Request, res: Response): string {
  const route = res.locals.route as string | undefined;
  if (route) return route;
  return MOUNTS.find((mount) => req.path === mount || req.path.startsWith(`${mount}/`)) ?? 'unmatched';
}

/** Request duration by route template and status, and requests in flight (`sentinel_http_*`). */
export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = performance.now();
  httpRequestsInFlight.inc();
  // 'close' ends every response: after the last byte written, or when the client went away first.
  res.once('close', () => {
    httpRequestsInFlight.dec();
    httpRequestDuration.observe(
      { method: req.method, route: routeOf(req, res), status: String(res.statusCode) },
      (performance.now() - started) / 1000,
    );
  });
  next();
}
