// Sorts AWS SDK errors into answers about the customer's setup and everything else. Everything else
// (network, 5xx, throttling, our own credentials) is thrown on, so Temporal retries the activity.

// Codes without the `Exception` suffix: the SDK names modeled errors NoSuchEntityException for the wire's
// NoSuchEntity, and some services use either form.
const THROTTLING = new Set([
  'Throttling',
  'Throttled',
  'RequestThrottled',
  'TooManyRequests',
  'RequestLimitExceeded',
  'SlowDown',
  'PriorRequestNotComplete',
]);

// 4xx codes that say Sentinel's own credentials are bad or stale: an operator problem, not the customer's.
const OWN_CREDENTIALS = new Set([
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'UnrecognizedClient',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'RequestExpired',
]);

/** The code of an error by which AWS refused the request for what it asked, never of a transient fault. */
export function customerSideErrorCode(err: unknown): string | undefined {
  if (!(err instanceof Error) || !('$metadata' in err)) return undefined;
  const status = (err.$metadata as { httpStatusCode?: number }).httpStatusCode;
  if (status === undefined || status < 400 || status >= 500 || status === 429) return undefined;
  const code = err.name.replace(/Exception$/, '');
  return THROTTLING.has(code) || OWN_CREDENTIALS.has(code) ? undefined : code;
}

/** Whether AWS refused a request for its rate (the SDK retries these, slowing down). */
export function isThrottling(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const status = '$metadata' in err ? (err.$metadata as { httpStatusCode?: number }).httpStatusCode : undefined;
  return status === 429 || THROTTLING.has(err.name.replace(/Exception$/, ''));
}

export function hasCode(err: unknown, code: string): boolean {
  return customerSideErrorCode(err) === code;
}
