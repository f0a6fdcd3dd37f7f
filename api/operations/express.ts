import { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import type { AppDeps } from '../../core/deps';
import type { Logger } from '../../config/logger';
import { requireAuth, requireRole } from '../middleware/auth';
import { expressParam, expressPath, pathParamsOf, pathsOf, PUBLIC } from '../openapi/registry';
import { parseInput } from '../../core/validation';
import { jsonOfKeptPage } from '../../db/read-cache';
import { CustomAnswer, type Endpoint } from './operation';

/** Reads a request's path parameters under their OpenAPI names (`account_id`), from their Express names (`accountId`). */
function paramReader(op: Endpoint): (req: Request) => Record<string, string> {
  const names = pathParamsOf(op.path).map((name) => [name, expressParam(name)] as const);
  return (req) => Object.fromEntries(names.map(([name, expressName]) => [name, String(req.params[expressName])]));
}

// A page the read cache keeps (db/read-cache.ts) is given to every request that asks for it, with the JSON the cache
// wrote of it when it kept it. Other answers are new objects, encoded once and dropped.
function bytesOf(answer: unknown): Buffer {
  const kept = typeof answer === 'object' && answer !== null ? jsonOfKeptPage(answer) : undefined;
  return kept ?? Buffer.from(JSON.stringify(answer));
}

/** What `res.status().json()` sends, without Express's per-request conversions (no ETag here, nothing to convert). */
function sendJson(res: Response, status: number, body: Buffer): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body); // Node leaves the body out of an answer to HEAD
}

/** The first segment of a request path, as Express matches it (case-insensitively): `accounts` for `/accounts/1/scan`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * The operations as Express routes, under their path and aliases. Each request goes through the bearer token and
 * the role check (unless public), then `before`, then its query and body parsed with the declared schemas (a 400
 * naming every failing field), then the handler; the answer is the declared success status with the handler's
 * JSON (or no body), or what the handler writes itself, never to be cached.
 */
export function operationRoutes(deps: AppDeps, operations: readonly Endpoint[]): RequestHandler {
  // One router per first path segment: a request is matched against the dozen routes under its segment, not the
  // hundred of the whole API in turn (the router's walk was a tenth of a read's time).
  const routers = new Map<string, Router>();
  const routerFor = (path: string) => {
    const segment = firstSegment(path);
    let router = routers.get(segment);
    if (!router) routers.set(segment, (router = Router()));
    return router;
  };
  const auth = requireAuth(deps);
  for (const op of operations) {
    const guard = op.access === PUBLIC ? [] : [auth, requireRole(op.access)];
    const paramsOf = paramReader(op);
    // The route template, for the request metrics (set first, so a request refused by its guard is counted under it).
    const named = (_req: Request, res: Response, next: NextFunction) => {
      res.locals.route = op.path;
      next();
    };
    const serve = async (req: Request, res: Response) => {
      // Answers carry tokens and tenant data: no browser or proxy keeps them (a handler may say otherwise).
      res.setHeader('Cache-Control', 'no-store');
      const requestDeps = forRequest(deps, req);
      await op.before?.({ deps: requestDeps, req, res });
      let answer: unknown;
      try {
        answer = await op.handler({
          deps: requestDeps,
          caller: req.caller,
          params: paramsOf(req),
          query: op.rawInput ? req.query : op.query && parseInput(op.query, req.query, 'query'),
          body: op.rawInput ? req.body : op.body && parseInput(op.body, req.body),
          req,
        });
      } finally {
        // The caller's next read on this process shows what they changed (db/read-cache.ts).
        if (op.method !== 'get' && req.caller) deps.readCache?.forgetTenant(req.caller.tenantId);
      }
      if (answer instanceof CustomAnswer) {
        await answer.write(res);
      } else if (op.success.schema) {
        sendJson(res, op.success.status, bytesOf(answer));
      } else {
        res.status(op.success.status).end();
      }
    };
    for (const path of pathsOf(op)) routerFor(path)[op.method](expressPath(path), named, ...guard, serve);
  }
  const dispatch: RequestHandler = (req, res, next) => {
    const router = routers.get(firstSegment(req.path));
    if (router) router(req, res, next);
    else next();
  };
  // The routers it chooses among, so the routing table can still be read from the app (test/helpers/routes.ts).
  return Object.assign(dispatch, { routers: [...routers.values()] });
}

/**
 * The dependencies for one request: the logger is the request's child logger, so every line carries its id. Read
 * when something logs, not before: most requests never build one (api/middleware/request-log.ts).
 */
function forRequest(deps: AppDeps, req: { log: Logger }): AppDeps {
  return {
    ...deps,
    get log() {
      return req.log;
    },
  };
}
