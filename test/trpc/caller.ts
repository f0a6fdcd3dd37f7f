import { TRPCError } from '@trpc/server';
import { createTrpcContext } from '../../api/trpc/context';
import { appErrorData } from '../../api/trpc/errors';
import { appRouter, createCaller } from '../../api/trpc/router';
import type { TestContext, TestUser } from '../helpers/context';

/** A caller of the tRPC router as `user` (or anonymous), built like the Express adapter builds one per request. */
export function callerFor(ctx: TestContext, user?: TestUser | null) {
  return createCaller(
    createTrpcContext(ctx, {
      authorization: user ? `Bearer ${user.idToken}` : undefined,
      clientAddress: '127.0.0.1',
    }),
  );
}

export type Caller = ReturnType<typeof callerFor>;

/** What a failed call answers, in the shape the dashboard receives: tRPC code, HTTP status, our code and message. */
export async function failure(
  call: Promise<unknown>,
): Promise<{ trpc: string; code: string; message: string; details?: unknown }> {
  try {
    await call;
  } catch (err) {
    if (!(err instanceof TRPCError)) throw err;
    const { message, data } = appErrorData(err);
    return { trpc: err.code, code: data.code, message, ...(data.details ? { details: data.details } : {}) };
  }
  throw new Error('the call succeeded');
}

/** Every procedure of the router by its dotted path ("accounts.get"), with its type. */
export function procedures(): Record<string, 'query' | 'mutation' | 'subscription'> {
  const defs = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { type: 'query' | 'mutation' | 'subscription' } }
  >;
  return Object.fromEntries(Object.entries(defs).map(([path, p]) => [path, p._def.type]));
}

/** Calls a procedure by its dotted path, as the isolation and role tables name them. */
export function callPath(caller: Caller, path: string, input?: unknown): Promise<unknown> {
  const [area, name] = path.split('.') as [string, string];
  const fn = (caller as unknown as Record<string, Record<string, (input?: unknown) => Promise<unknown>>>)[area]?.[name];
  if (!fn) throw new Error(`no procedure ${path}`);
  return fn(input);
}
