import type { Collected } from '../../../domain/inventory';
import { customerSideErrorCode } from '../errors';

// A part of the inventory that AWS will not let Sentinel read is "not evaluated", never an empty (passing)
// part. Only answers that say so become that: AWS refusing the call for lack of permission or of a
// subscription. Anything else (throttling, 5xx, an unexpected answer) is thrown, so Temporal retries.

// Codes as customerSideErrorCode gives them, without the `Exception` suffix.
const DENIED = new Set(['AccessDenied', 'UnauthorizedOperation']);
// DataUnavailable: Cost Explorer has nothing for an account that has never enabled it.
const UNSUBSCRIBED = new Set(['OptInRequired', 'SubscriptionRequired', 'NotSignedUp', 'DataUnavailable']);

interface Refusal {
  kind: 'denied' | 'unsubscribed';
  code: string;
}

export function refusalKind(err: unknown): Refusal | undefined {
  const code = customerSideErrorCode(err);
  if (code && DENIED.has(code)) return { kind: 'denied', code };
  if (code && UNSUBSCRIBED.has(code)) return { kind: 'unsubscribed', code };
  return undefined;
}

/** A call AWS refused, named after the client and command that made it (see Session.client). */
export class RefusedError extends Error {
  readonly kind: Refusal['kind'];
  readonly code: string;
  readonly service: string;
  readonly operation: string;
  readonly region: string | undefined;
  /** The resource the call was about, when the client cannot tell (e.g. "bucket logs-archive"). */
  readonly resource: string | undefined;

  constructor({ kind, code, service, operation, region, resource, cause }: Refusal & {
    service: string; operation: string; region: string | undefined; resource?: string; cause: unknown;
  }) {
    super(`${service} ${operation}${region ? ` in ${region}` : ''} refused: ${code}`, { cause });
    this.name = 'RefusedError';
    this.kind = kind;
    this.code = code;
    this.service = service;
    this.operation = operation;
    this.region = region;
    this.resource = resource;
  }

  about(resource: string): RefusedError {
    const { kind, code, service, operation, region, cause } = this;
    return new RefusedError({ kind, code, service, operation, region, resource, cause });
  }

  /** What the user reads on the checks this part would have run. */
  get reason(): string {
    const where = `${this.resource ? ` on ${this.resource}` : ''}${this.region ? ` in ${this.region}` : ''}`;
    if (this.kind === 'unsubscribed') {
      return `The account is not subscribed to ${this.service}${where}: AWS answered ${this.code} to ${this.operation}.`;
    }
    return `AWS denied Sentinel's role ${this.service} ${this.operation}${where} (${this.code}). The role needs the `
      + 'SecurityAudit and ViewOnlyAccess policies and the SentinelBillingRead inline policy that the setup attaches; '
      + 'check that they are still attached and that no service control policy or permissions boundary denies the call.';
  }
}

/** Reads one part of the inventory; a refusal makes the whole part "not evaluated", with its reason. */
export async function readPart<T>(read: () => Promise<T>, reason?: (refused: RefusedError) => string): Promise<Collected<T>> {
  try {
    return { status: 'ok', value: await read() };
  } catch (err) {
    if (!(err instanceof RefusedError)) throw err;
    return { status: 'not_evaluated', reason: reason ? reason(err) : err.reason };
  }
}
