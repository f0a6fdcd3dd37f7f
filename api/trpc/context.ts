import type { AppDeps } from '../../core/deps';

/**
 * What every procedure sees: the service dependencies (with the request's logger), the raw Authorization
 * header (checked by the procedures that need a caller, exactly as the REST routes check it) and the client
 * address (login and invitation attempts are counted per address).
 */
export interface TrpcContext {
  deps: AppDeps;
  authorization: string | undefined;
  clientAddress: string;
}

export interface RequestFacts {
  authorization?: string;
  clientAddress?: string;
  log?: AppDeps['log'];
}

/** Built per request by the Express adapter, and directly by tests that call procedures through createCaller. */
export function createTrpcContext(deps: AppDeps, facts: RequestFacts): TrpcContext {
  return {
    deps: facts.log ? { ...deps, log: facts.log } : deps,
    authorization: facts.authorization,
    clientAddress: facts.clientAddress ?? 'unknown',
  };
}
