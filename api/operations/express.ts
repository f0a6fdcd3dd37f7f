import { type NextFunction, type Request, type Response, Router } from 'express';
import { type AppDeps, forRequest } from '../context';
import { requireAuth, requireRole } from '../middleware/auth';
import { expressParam, expressPath, pathParamsOf, pathsOf, PUBLIC } from '../openapi/registry';
import { parseInput } from '../validation';
import { CustomAnswer, type Endpoint } from './operation';

function paramsOf(op: Endpoint, req: Request): Record<string, string> {
  return Object.fromEntries(pathParamsOf(op.path).map((name) => [name, String(req.params[expressParam(name)])]));
}

// Answers as JSON, each object written once: a page the read cache keeps (api/read-cache.ts) is the same object for
// every request that gets it, so its JSON is too. Answers are never changed once given.
const jsonOfAnswer = new WeakMap<object, string>();

function jsonOf(answer: unknown): string {
  if (typeof answer !== 'object' || answer === null) return JSON.stringify(answer);
  let json = jsonOfAnswer.get(answer);
  if (json === undefined) {
    json = JSON.stringify(answer);
    jsonOfAnswer.set(answer, json);
  }
  return json;
}

/**
 * The operations as Express routes, under their path and aliases. Each request goes through the bearer token and
 * the role check (unless public), then `before`, then its query and body parsed with the declared schemas (a 400
 * naming every failing field), then the handler; the answer is the declared success status with the handler's
 * JSON (or no body), or what the handler writes itself, never to be cached.
 */
export function operationRoutes(deps: AppDeps, operations: readonly Endpoint[]): Router {
  const router = Router();
  const auth = requireAuth(deps);
  for (const op of operations) {
    const guard = op.access === PUBLIC ? [] : [auth, requireRole(op.access)];
    // The route template, for the request metrics (set first, so a request refused by its guard is counted under it).
    const named = (_req: Request, res: Response, next: NextFunction) => {
      res.locals.route = op.path;
      next();
    };
    router[op.method](pathsOf(op).map(expressPath), named, ...guard, async (req, res) => {
      // Answers carry tokens and tenant data: no browser or proxy keeps them (a handler may say otherwise).
      res.setHeader('Cache-Control', 'no-store');
      const requestDeps = forRequest(deps, req);
      await op.before?.({ deps: requestDeps, req, res });
      let answer: unknown;
      try {
        answer = await op.handler({
          deps: requestDeps,
          caller: req.caller,
          params: paramsOf(op, req),
          query: op.rawInput ? req.query : op.query && parseInput(op.query, req.query, 'query'),
          body: op.rawInput ? req.body : op.body && parseInput(op.body, req.body),
          req,
        });
      } finally {
        // The caller's next read on this process shows what they changed (api/read-cache.ts).
        if (op.method !== 'get' && req.caller) deps.readCache?.forgetTenant(req.caller.tenantId);
      }
      if (answer instanceof CustomAnswer) {
        await answer.write(res);
      } else if (op.success.schema) {
        res.status(op.success.status).type('application/json').send(jsonOf(answer));
      } else {
        res.status(op.success.status).end();
      }
    });
  }
  return router;
}
