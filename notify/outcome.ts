// How a channel send ended, in the terms the retry policy needs. Channels throw DeliveryError; anything else
// they throw (a bug, an unexpected shape) is treated as retryable by the caller.

export class DeliveryError extends Error {
  constructor(
    message: string,
    /** false: the peer refused for good (4xx other than 429, bad token, unknown channel). */
    readonly retryable: boolean,
    readonly httpStatus?: number,
    /** The peer's Retry-After, when it sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** Maps an HTTP answer to the retry policy: 5xx and 429 retry (honouring Retry-After), other 4xx do not. */
export function httpFailure(peer: string, status: number, retryAfterHeader: string | null, detail = ''): DeliveryError {
  // 3xx lands here too: redirects are not followed, and a channel that redirects is misconfigured for good.
  const retryable = status >= 500 || status === 429;
  const suffix = detail ? `: ${detail.slice(0, 200)}` : '';
  return new DeliveryError(`${peer} answered ${status}${suffix}`, retryable, status, parseRetryAfter(retryAfterHeader));
}

/** Retry-After is seconds or an HTTP date. Returns whole seconds, or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** fetch with a deadline; network failures and timeouts become retryable DeliveryErrors. */
export async function postJson(
  peer: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
      // A redirect could lead anywhere (the webhook URL check covers the first address only): never follow one.
      redirect: 'manual',
    });
  } catch (err) {
    throw new DeliveryError(`${peer} unreachable: ${(err as Error).message}`, true);
  }
}
