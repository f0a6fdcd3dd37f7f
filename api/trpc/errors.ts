import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { AppError, type ErrorCode, type FieldProblem } from '../../core/errors';
import { toAppError } from '../middleware/errors';
import { validationFailed } from '../../core/validation';

type TrpcCode = TRPCError['code'];

// The HTTP status of each of our errors, as the tRPC code whose own HTTP status is the same number.
const BY_STATUS: Record<number, TrpcCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

// Errors tRPC raises itself before any procedure runs (unknown procedure, unreadable body), in our vocabulary.
const FRAMEWORK_CODES: Partial<Record<TrpcCode, ErrorCode>> = {
  NOT_FOUND: 'route_not_found',
  METHOD_NOT_SUPPORTED: 'route_not_found',
  PARSE_ERROR: 'invalid_json',
  BAD_REQUEST: 'validation_failed',
  PAYLOAD_TOO_LARGE: 'body_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_content_type',
};

/** Our error, carried by a TRPCError so the formatter can put its `code` and `details` in the error data. */
export class AppTrpcError extends TRPCError {
  constructor(readonly appError: AppError) {
    super({ code: BY_STATUS[appError.status] ?? 'INTERNAL_SERVER_ERROR', message: appError.message, cause: appError });
  }
}

export const INTERNAL = () => new AppTrpcError(new AppError('internal_error', 'Internal server error'));

/**
 * Turns what a procedure threw into the error the REST route would answer: a failed input parse is our
 * validation_failed 400 with the same wording, tRPC's own refusals of the request keep their 4xx, the service's
 * AppErrors keep their code, an unreachable database or Temporal is its 503. Null for anything unknown (logged,
 * then a bare 500).
 */
export function translate(error: TRPCError): AppTrpcError | null {
  if (error instanceof AppTrpcError) return error;
  const cause = error.cause;
  if (cause instanceof z.ZodError) return new AppTrpcError(validationFailed(cause, 'input'));
  // Raised by tRPC itself while reading the request (a batch input that is not an object): the client's doing.
  const framework = FRAMEWORK_CODES[error.code];
  if (framework && cause === undefined) return new AppTrpcError(new AppError(framework, error.message));
  const known = toAppError(cause);
  return known ? new AppTrpcError(known) : null;
}

/** The error data the dashboard reads: the same `code` string as the REST body, and the failing fields. */
export interface AppErrorData {
  code: ErrorCode;
  details?: FieldProblem[];
}

export function appErrorData(error: TRPCError): { message: string; data: AppErrorData } {
  if (error instanceof AppTrpcError) {
    const { code, message, extra } = error.appError;
    return { message, data: { code, ...(extra.details ? { details: extra.details } : {}) } };
  }
  const code = FRAMEWORK_CODES[error.code];
  // Never leak the text of an unexpected error.
  return code
    ? { message: error.message, data: { code } }
    : { message: 'Internal server error', data: { code: 'internal_error' } };
}
