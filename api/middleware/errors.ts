import { isGrpcServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import type { NextFunction, Request, Response } from 'express';
import { isDatabaseUnavailable, isInvalidData, isStatementCancelled } from '../../db/errors';
import { AppError } from '../../core/errors';

// gRPC status codes that mean "Temporal could not be reached", as opposed to a bad request.
const TEMPORAL_UNREACHABLE = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */]);

function isTemporalUnavailable(err: unknown): boolean {
  const cause = (err as { cause?: unknown })?.cause;
  // An update cut off at our deadline: the server may reset the call (CANCELLED) just before our own timer fires.
  return (
    err instanceof WorkflowUpdateRPCTimeoutOrCancelledError ||
    (isGrpcServiceError(err) && TEMPORAL_UNREACHABLE.has(err.code)) ||
    (isGrpcServiceError(cause) && TEMPORAL_UNREACHABLE.has(cause.code)) ||
    (err instanceof Error && err.name === 'ServiceError' && /UNAVAILABLE|DEADLINE_EXCEEDED|connect/i.test(err.message))
  );
}

/** Maps anything thrown by a handler to an AppError; unknown errors become a bare 500. */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  // Express could not decode a path parameter (a malformed percent-escape such as %E0): the client's mistake.
  if (err instanceof URIError) return new AppError('invalid_input', 'The path holds a malformed percent-escape');
  if (isInvalidData(err))
    return new AppError(
      'invalid_input',
      'The request holds a value that cannot be stored (for example a NUL character)',
    );
  // A statement past the API's statement_timeout: the database is busy (a lock held long, a heavy read), not broken.
  if (isStatementCancelled(err))
    return new AppError('database_timeout', 'The database took too long to answer this request; retry shortly', {
      retryAfterSeconds: 5,
    });
  if (isDatabaseUnavailable(err))
    return new AppError('database_unavailable', 'The database is unavailable; retry shortly', { retryAfterSeconds: 5 });
  if (isTemporalUnavailable(err))
    return new AppError('temporal_unavailable', 'The workflow service is unavailable; retry shortly', {
      retryAfterSeconds: 5,
    });
  return null;
}

export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  const known = toAppError(err);
  if (!known) {
    req.log.error({ err }, 'unhandled error');
    res.status(500).json({ error: 'Internal server error', code: 'internal_error' });
    return;
  }
  if (known.status >= 500) req.log.warn({ code: known.code, err }, known.message);
  if (known.extra.retryAfterSeconds) res.setHeader('Retry-After', String(known.extra.retryAfterSeconds));
  res.status(known.status).json({
    error: known.message,
    code: known.code,
    ...(known.extra.details ? { details: known.extra.details } : {}),
  });
}

export function routeNotFound(req: Request, _res: Response, next: NextFunction): void {
  next(new AppError('route_not_found', `No route for ${req.method} ${req.path}`));
}
