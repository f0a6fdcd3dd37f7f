import type { InitializeMiddleware, MetadataBearer, MiddlewareStack } from '@smithy/types';
import type { TemporaryCredentials } from '../credentials';
import { RefusedError, refusalKind } from './refusals';

// One collection's access to the customer's account: SDK clients built on the assumed role's credentials,
// closed together when the collection ends. Global services (IAM, Cost Explorer, ...) are served from us-east-1.

export const GLOBAL_REGION = 'us-east-1';

// The SDK waits forever by default: a call that hangs would hold the scan until its activity times out.
const TIMEOUTS = { connectionTimeout: 5_000, requestTimeout: 60_000 };

export interface ClientConfig {
  region: string;
  credentials: TemporaryCredentials;
  requestHandler: typeof TIMEOUTS;
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
  /**
   * A client for one region, or a global service when region is omitted. A call it makes that AWS refuses
   * for lack of permission or subscription throws RefusedError, which names the call for the user.
   */
  client<I extends object, O extends MetadataBearer, C extends SdkClient<I, O>>(
    create: (config: ClientConfig) => C & SdkClient<I, O>, region?: string): C;
  close(): void;
}

function nameRefusals<I extends object, O extends MetadataBearer>(region: string | undefined): InitializeMiddleware<I, O> {
  return (next, context) => async (args) => {
    try {
      return await next(args);
    } catch (err) {
      const refusal = refusalKind(err);
      if (!refusal) throw err;
      throw new RefusedError({
        ...refusal,
        service: (context.clientName ?? 'AWS').replace(/Client$/, ''),
        operation: (context.commandName ?? 'a call').replace(/Command$/, ''),
        region,
        cause: err,
      });
    }
  };
}

export function openSession({ credentials, endpointUrl, accountId, roleName }: {
  credentials: TemporaryCredentials;
  endpointUrl?: string;
  accountId: string;
  roleName: string;
}): Session {
  const open: { destroy(): void }[] = [];
  return {
    accountId,
    roleName,
    endpointUrl,
    client(create, region) {
      const client = create({
        region: region ?? GLOBAL_REGION, credentials, requestHandler: TIMEOUTS, ...(endpointUrl ? { endpoint: endpointUrl } : {}),
      });
      client.middlewareStack.add(nameRefusals(region), { step: 'initialize', name: 'sentinelNameRefusals' });
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
