import { customerSideErrorCode } from '../errors';

// Every error of a call to the customer's account becomes a ReadFailure that names the call (service, operation,
// region) and says what it means for the scan:
// - denied / unsubscribed: AWS refused the call for lack of permission or of a subscription. Asking again
//   changes nothing: what it would have read is "not evaluated" at once.
// - failed, retryable: throttling, 5xx, timeouts, the network, our own session expiring. The SDK has already
//   retried; the scan's next attempt reads that part again (and only that part).
// - failed, not retryable: an answer the SDK could not use (an unknown 4xx, an unparsable body). Asking again
//   gets the same answer: not evaluated at once, with the error as the reason.

// Codes as customerSideErrorCode gives them, without the `Exception` suffix.
const DENIED = new Set(['AccessDenied', 'UnauthorizedOperation', 'AuthorizationError']);
// DataUnavailable: Cost Explorer has nothing for an account that has never enabled it.
const UNSUBSCRIBED = new Set(['OptInRequired', 'SubscriptionRequired', 'NotSignedUp', 'DataUnavailable']);

export type FailureKind = 'denied' | 'unsubscribed' | 'failed';

const MESSAGE_LENGTH = 200;

function statusOf(err: unknown): number | undefined {
  if (!(err instanceof Error) || !('$metadata' in err)) return undefined;
  return (err.$metadata as { httpStatusCode?: number }).httpStatusCode;
}

/** Whether asking again may succeed: throttling, 5xx, no answer at all, or our own credentials (renewed next time). */
export function isRetryable(err: unknown): boolean {
  const status = statusOf(err);
  if (status === undefined || status >= 500 || status === 429) return true;
  // A 4xx that is not about what was asked (throttling, our own credentials); a 2xx the SDK could not parse is not.
  return status >= 400 && customerSideErrorCode(err) === undefined;
}

/** An answer the SDK could not parse (an HTML error page, a proxy's reply): its status is all it says. */
const unparsable = (err: unknown) =>
  err instanceof Error && ['SyntaxError', 'Error', 'Unknown', 'UnknownError'].includes(err.name);

function kindOf(err: unknown): { kind: FailureKind; code: string } {
  const code = customerSideErrorCode(err);
  if (code && DENIED.has(code)) return { kind: 'denied', code };
  if (code && UNSUBSCRIBED.has(code)) return { kind: 'unsubscribed', code };
  const status = statusOf(err);
  const name = err instanceof Error ? err.name.replace(/Exception$/, '') : 'Error';
  return { kind: 'failed', code: status !== undefined && unparsable(err) ? `HTTP ${status}` : name };
}

// Client names as people know the services.
const SERVICE_NAMES: Readonly<Record<string, string>> = {
  CostExplorer: 'Cost Explorer',
  S3Control: 'S3 Control',
  Health: 'AWS Health',
  CloudWatchLogs: 'CloudWatch Logs',
  ConfigService: 'AWS Config',
  SecurityHub: 'Security Hub',
  AccessAnalyzer: 'IAM Access Analyzer',
  AutoScaling: 'Auto Scaling',
  ElasticLoadBalancingV2: 'Elastic Load Balancing',
  Glacier: 'S3 Glacier',
  SecretsManager: 'Secrets Manager',
  SESv2: 'SES',
  APIGateway: 'API Gateway',
  SFN: 'Step Functions',
  Codeartifact: 'CodeArtifact',
  Route53: 'Route 53',
  Route53Domains: 'Route 53 Domains',
  ACM: 'Certificate Manager',
};
export const serviceName = (clientName: string) => SERVICE_NAMES[clientName] ?? clientName;

/** A call to the customer's account that did not give an answer to use, named after the client and command that made it. */
export class ReadFailure extends Error {
  readonly kind: FailureKind;
  readonly code: string;
  readonly retryable: boolean;

  constructor(
    readonly call: { service: string; operation: string; region: string | undefined },
    override readonly cause: unknown,
  ) {
    const { kind, code } = kindOf(cause);
    super(`${call.service} ${call.operation}${call.region ? ` in ${call.region}` : ''}: ${code}`, { cause });
    this.name = 'ReadFailure';
    this.kind = kind;
    this.code = code;
    this.retryable = kind === 'failed' && isRetryable(cause);
  }

  /** What the user reads on the checks this call would have fed. It leaves out the region or resource: the caller names it. */
  get reason(): string {
    const { service, operation } = this.call;
    if (this.kind === 'unsubscribed')
      return `The account is not subscribed to ${service}: AWS answered ${this.code} to ${operation}.`;
    if (this.kind === 'denied') {
      return (
        `AWS denied Sentinel's role ${service} ${operation} (${this.code}). The role needs the SecurityAudit and ` +
        'ViewOnlyAccess policies and the SentinelBillingRead and SentinelScanRead inline policies that the setup ' +
        'attaches; check that they are still attached and that no service control policy, permissions boundary or ' +
        'resource policy denies the call.'
      );
    }
    const detail =
      unparsable(this.cause) && this.code.startsWith('HTTP ')
        ? "an answer that is not in AWS's format"
        : this.cause instanceof Error
          ? this.cause.message.replace(/\s+/g, ' ').trim().slice(0, MESSAGE_LENGTH)
          : '';
    return `${service} ${operation} failed (${this.code})${this.retryable ? ' after retries' : ''}${detail ? `: ${detail}` : '.'}`;
  }
}

/** Something AWS is still preparing (a report) when the read gives up waiting: the scan's next attempt asks again. */
export class NotReadyError extends Error {
  override name = 'NotReadyError';
}

/** The failure of a read as the scan records it: an error of our own code is named as such, never hidden. */
export function failureOf(err: unknown): { reason: string; retryable: boolean } {
  if (err instanceof ReadFailure) return { reason: err.reason, retryable: err.retryable };
  if (err instanceof NotReadyError) return { reason: err.message, retryable: true };
  return {
    reason: `Sentinel could not read this part: ${err instanceof Error ? err.message : String(err)}`,
    retryable: false,
  };
}

/** Runs a read that AWS may answer with `absentCode` when there is nothing configured: null then. */
export async function unlessAbsent<T>(read: () => Promise<T>, absentCode: string): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ReadFailure && customerSideErrorCode(err.cause) === absentCode) return null;
    throw err;
  }
}

/** Whether a failure is AWS saying the thing asked about does not exist (any more). */
export function isAbsent(err: unknown, code: string): boolean {
  return err instanceof ReadFailure && customerSideErrorCode(err.cause) === code;
}
