import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '../../config/logger';

declare module 'http' {
  interface IncomingMessage {
    /** The request's id: the caller's X-Request-Id when sane, else a new UUID. Every line logged for it carries it. */
    id: string;
    /** The request's logger: `reqId` on every line. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const UNLOGGED = new Set(['/healthz', '/readyz']);

// Query parameters that are credentials wherever they appear: the Slack install's one-time code and state,
// signed download links' signatures, invitation tokens. Logged as [redacted], whatever the path or its case.
const CREDENTIAL_PARAMS = new Set(['code', 'state', 'signature', 'token']);

export function redactCredentialQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  let redacted = false;
  for (const key of [...params.keys()]) {
    if (CREDENTIAL_PARAMS.has(key.toLowerCase())) {
      params.set(key, '[redacted]');
      redacted = true;
    }
  }
  return redacted ? `${url.slice(0, at)}?${params.toString()}` : url;
}

/** What a request's logger is made of, until something logs (then `child`). */
interface LogState {
  base: Logger;
  bindings: Record<string, string>;
  child?: Logger;
}

const LOG_STATE = Symbol('requestLogState');
type LoggedRequest = Request & { [LOG_STATE]?: LogState };

// `req.log`, made on first use: most requests log only their last line, and a request whose level leaves even that
// out never builds a child logger. A getter on Express's request prototype, defined once, rather than a property
// defined on every request.
Object.defineProperty(express.request, 'log', {
  configurable: true,
  get(this: LoggedRequest): Logger | undefined {
    const state = this[LOG_STATE];
    return state && (state.child ??= state.base.child(state.bindings));
  },
  set(this: LoggedRequest, value: Logger) {
    this[LOG_STATE] = { base: value, bindings: {}, child: value };
  },
});

/** Adds fields to every later line of the request (the caller, once authenticated). */
export function bindRequestLog(req: Request, bindings: Record<string, string>): void {
  const state = (req as LoggedRequest)[LOG_STATE];
  if (!state) return; // a request the request log never saw has no logger to bind to
  if (state.child) state.child = state.child.child(bindings);
  else Object.assign(state.bindings, bindings);
}

/**
 * Gives each request its id (answered in X-Request-Id, so one id follows a request across services) and a child
 * logger that carries it, and logs one line when the answer is sent: method, URL (credentials redacted), status
 * and time, at `warn` for 4xx and `error` for 5xx. No headers: they hold the bearer token and cookies. Nothing is
 * built for a line the level leaves out, so the hot path pays for logging only when it logs.
 */
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    (req as LoggedRequest)[LOG_STATE] = { base: log, bindings: { reqId: id } };
    if (!UNLOGGED.has(req.url)) {
      const started = performance.now();
      res.once('close', () => {
        const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
        // Asked of the process's logger: a request's child has its level.
        if (!log.isLevelEnabled(level)) return;
        req.log[level](
          {
            req: { method: req.method, url: redactCredentialQuery(req.originalUrl) },
            res: { statusCode: res.statusCode },
            responseTime: Math.round(performance.now() - started),
          },
          res.writableFinished ? 'request completed' : 'request aborted',
        );
      });
    }
    next();
  };
}
