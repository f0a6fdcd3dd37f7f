import type {
  AwsCredentialIdentityProvider,
  DeserializeMiddleware,
  InitializeMiddleware,
  MetadataBearer,
  MiddlewareStack,
} from '@smithy/types';
import { awsApiCalls, awsApiThrottles } from '../../../observability/metrics';
import { isThrottling } from '../errors';
import { ReadFailure, serviceName } from './failures';

// One collection's access to the customer's account: SDK clients built on the assumed role's (renewing)
// credentials, closed together when the collection ends. Global services (IAM, Cost Explorer, ...) are served
// from us-east-1. Every call:
// - retries in the SDK's adaptive mode, which also slows the client down when AWS throttles it;
// - waits for a slot of its service in its region, so one scan never floods a service's rate limit, then for one of
//   the whole collection's, so one scan never holds more than `maxConcurrentCalls` requests open at once (a worker
//   runs many scans, and a scan reads a hundred services in every region);
// - fails as a ReadFailure that names the call (failures.ts).

export const GLOBAL_REGION = 'us-east-1';

// The SDK waits forever by default: a call that hangs would hold the scan until its activity times out.
const TIMEOUTS = { connectionTimeout: 5_000, requestTimeout: 60_000 };

/** Calls in flight per service and region. IAM's limits are account-wide and low; S3's are per bucket and high. */
const CONCURRENCY: Readonly<Record<string, number>> = { IAM: 4, S3: 16, EC2: 8 };
const DEFAULT_CONCURRENCY = 4;
/** Calls in flight per collection, all services and regions together (AWS_MAX_CONCURRENT_CALLS). */
export const DEFAULT_MAX_CONCURRENT_CALLS = 32;

export interface ClientConfig {
  region: string;
  credentials: AwsCredentialIdentityProvider;
  requestHandler: typeof TIMEOUTS;
  retryMode: 'adaptive';
  maxAttempts: number;
  endpoint?: string;
}

interface SdkClient<I extends object, O extends MetadataBearer> {
  middlewareStack: MiddlewareStack<I, O>;
  destroy(): void;
}

export interface Session {
  accountId: string;
  /** Sentinel's own role in the account, which the inventory leaves out. */
  roleName: string;
  /** Set in tests: every call goes to this emulator instead of AWS. */
  endpointUrl?: string;
  /** A client for one region, or a global service when region is omitted. */
  client<I extends object, O extends MetadataBearer, C extends SdkClient<I, O>>(
    create: (config: ClientConfig) => C & SdkClient<I, O>,
    region?: string,
  ): C;
  close(): void;
}

/** A counting semaphore: at most `limit` holders at once, the others wait in order. */
function semaphore(limit: number) {
  let held = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (held >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else held += 1;
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else held -= 1;
      }
    },
  };
}

function callMiddleware<I extends object, O extends MetadataBearer>(
  region: string | undefined,
  slots: (service: string) => ReturnType<typeof semaphore>,
  collection: ReturnType<typeof semaphore>,
  signal: AbortSignal | undefined,
): InitializeMiddleware<I, O> {
  return (next, context) => async (args) => {
    const client = (context.clientName ?? 'AWS').replace(/Client$/, '');
    const operation = (context.commandName ?? 'a call').replace(/Command$/, '');
    try {
      // A collection given up starts no new call, also none that was waiting for its slot.
      signal?.throwIfAborted();
      // The service's slot first: a call waiting for its service holds none of the collection's.
      return await slots(client).run(() =>
        collection.run(() => {
          signal?.throwIfAborted();
          return next(args);
        }),
      );
    } catch (err) {
      throw new ReadFailure({ service: serviceName(client), operation, region }, err);
    }
  };
}

/**
 * Counts every request sent (`sentinel_aws_api_calls_total`) and every throttling answer. In the deserialize step,
 * inside the SDK's retries: each attempt counts.
 */
function attemptMetrics<I extends object, O extends MetadataBearer>(): DeserializeMiddleware<I, O> {
  return (next, context) => async (args) => {
    const service = serviceName((context.clientName ?? 'AWS').replace(/Client$/, ''));
    awsApiCalls.inc({ service });
    try {
      return await next(args);
    } catch (err) {
      if (isThrottling(err)) awsApiThrottles.inc({ service });
      throw err;
    }
  };
}

export function openSession({
  credentials,
  endpointUrl,
  accountId,
  roleName,
  maxAttempts,
  maxConcurrentCalls = DEFAULT_MAX_CONCURRENT_CALLS,
  signal,
}: {
  credentials: AwsCredentialIdentityProvider;
  endpointUrl?: string;
  accountId: string;
  roleName: string;
  maxAttempts: number;
  maxConcurrentCalls?: number;
  /** Aborted: every later call fails at once. */
  signal?: AbortSignal;
}): Session {
  const open: { destroy(): void }[] = [];
  const semaphores = new Map<string, ReturnType<typeof semaphore>>();
  const collection = semaphore(maxConcurrentCalls);
  const slotsIn = (region: string) => (service: string) => {
    const key = `${service}@${region}`;
    let slots = semaphores.get(key);
    if (!slots) {
      slots = semaphore(CONCURRENCY[service] ?? DEFAULT_CONCURRENCY);
      semaphores.set(key, slots);
    }
    return slots;
  };
  return {
    accountId,
    roleName,
    endpointUrl,
    client(create, region) {
      const client = create({
        region: region ?? GLOBAL_REGION,
        credentials,
        requestHandler: TIMEOUTS,
        retryMode: 'adaptive',
        maxAttempts,
        ...(endpointUrl ? { endpoint: endpointUrl } : {}),
      });
      client.middlewareStack.add(callMiddleware(region, slotsIn(region ?? GLOBAL_REGION), collection, signal), {
        step: 'initialize',
        name: 'sentinelCalls',
      });
      client.middlewareStack.add(attemptMetrics(), {
        step: 'deserialize',
        priority: 'high',
        name: 'sentinelAttemptMetrics',
      });
      open.push(client);
      return client;
    },
    close() {
      for (const client of open.splice(0)) client.destroy();
    },
  };
}

/** One client per region, made on first use. */
export function perRegion<C>(make: (region: string) => C): (region: string) => C {
  const clients = new Map<string, C>();
  return (region) => {
    let client = clients.get(region);
    if (!client) {
      client = make(region);
      clients.set(region, client);
    }
    return client;
  };
}
