import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { TRPC_MAX_BATCH } from '../../api/trpc/limits';
import type { AppRouter } from '../../api/trpc/router';
import { session } from './session';

export type Inputs = inferRouterInputs<AppRouter>;
export type Outputs = inferRouterOutputs<AppRouter>;

/** The typed client of the service's tRPC router; every call carries the in-memory bearer token. */
export const trpc = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: '/trpc',
      maxItems: TRPC_MAX_BATCH,
      headers: () => {
        const token = session.bearer();
        return token ? { Authorization: `Bearer ${token}` } : {};
      },
    }),
  ],
});

/** Our error code (the same string as the REST body's `code`), or null for a network failure. */
export function errorCode(err: unknown): string | null {
  if (err instanceof TRPCClientError) {
    const data = err.data as { code?: string } | undefined;
    return data?.code ?? null;
  }
  return null;
}

/** The message to show a person: the service's own wording, or what to do when it could not be reached. */
export function errorMessage(err: unknown): string {
  if (err instanceof TRPCClientError && (err.data as { code?: string } | undefined)?.code) return err.message;
  return 'The service could not be reached. Check your connection and try again.';
}
