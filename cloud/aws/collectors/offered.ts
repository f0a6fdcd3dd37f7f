import { ReadFailure } from './failures';

// AWS offers some services (Bedrock, SageMaker) in some of an account's enabled regions only. Where a service is
// not offered it has no endpoint at all: the name of its regional endpoint (bedrock.REGION.amazonaws.com) does not
// resolve, which is how the SDK's call fails (ENOTFOUND) rather than with an answer from AWS. A region where the
// service is not offered is read, with nothing in it: it is neither unread nor failing.

/** Whether a failed call means the service has no endpoint in the call's region. */
export function notOffered(err: unknown): boolean {
  if (!(err instanceof ReadFailure)) return false;
  const cause = err.cause as { code?: unknown; message?: unknown } | undefined;
  // The SDK may hand the lookup's error on wrapped, with only its message (getaddrinfo ENOTFOUND host) left.
  return cause?.code === 'ENOTFOUND' || (typeof cause?.message === 'string' && /\bENOTFOUND\b/.test(cause.message));
}

/** Runs a region's read; where the service is not offered, `absent` instead. */
export async function whereOffered<T>(read: () => Promise<T>, absent: T): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (notOffered(err)) return absent;
    throw err;
  }
}
