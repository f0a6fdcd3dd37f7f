import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { AWS_ACCOUNT_ID, TENANT_ID, USER_ID } from '../../observability/tracing';
import type { Caller } from '../../core/deps';

/**
 * A SERVER span per request, installed with tracing on (api/app.ts). The rest of the request runs in its context, so
 * the Temporal client's spans, and through the workflow's headers the workflow's and its activities', join the
 * request's trace. Named by the route template once routing knows it, never by the raw path (it holds ids); no
 * header, query or body goes into it. A request starts a trace of its own: a trace context sent by the caller is
 * not followed.
 */
export function requestTracing(req: Request, res: Response, next: NextFunction): void {
  const span = trace.getTracer('sentinel-api').startSpan(req.method, {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': req.method },
  });
  // 'close' ends every response: after the last byte written, or when the client went away first.
  res.once('close', () => {
    // Operations name their template (api/operations/express.ts); other routes have their Express path.
    const route =
      (res.locals.route as string | undefined) ?? (typeof req.route?.path === 'string' ? req.route.path : undefined);
    if (route) span.updateName(`${req.method} ${route}`).setAttribute('http.route', route);
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(trace.setSpan(context.active(), span), next);
}

/**
 * Names the authenticated caller on the request's span (ids only: never the e-mail address or the token), and the
 * AWS account of a route's `{account_id}` (Express calls it `accountId`). Without tracing there is no span, and
 * nothing to do.
 */
export function traceCaller(caller: Pick<Caller, 'tenantId' | 'userId'>, params: Request['params'] = {}): void {
  const { accountId } = params;
  trace.getActiveSpan()?.setAttributes({
    [TENANT_ID]: caller.tenantId,
    [USER_ID]: caller.userId,
    ...(typeof accountId === 'string' ? { [AWS_ACCOUNT_ID]: accountId } : {}),
  });
}
