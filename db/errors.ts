// Postgres error classification, so callers can turn constraint violations into API errors and
// connection loss into 503s without string-matching in many places.

interface PgError {
  code?: string;
  constraint?: string;
}

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as PgError;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
]);

/** True when the database could not be reached (down, restarting, network), as opposed to a query error. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as PgError & { message?: string; errors?: unknown[] };
  if (e.code && (CONNECTION_ERROR_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable)) return true; // AggregateError (IPv4 + IPv6)
  const message = e.message ?? '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
    message,
  );
}

/**
 * SQLSTATE 57014: PostgreSQL cancelled the statement, past the session's statement_timeout (the API's bound on one
 * statement) or by an operator's pg_cancel_backend. The connection stays usable.
 */
export function isStatementCancelled(err: unknown): boolean {
  return (err as PgError)?.code === '57014';
}

/**
 * Class 22 "data exception": a value PostgreSQL cannot store (a NUL character in text, a timestamp out of
 * range). Our inputs are validated before they reach a query, so what gets here came from the client.
 */
export function isInvalidData(err: unknown): boolean {
  const code = (err as PgError)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
