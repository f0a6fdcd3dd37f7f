import { initTRPC } from '@trpc/server';
import { OPERATIONS } from '../operations';
import { PUBLIC } from '../openapi/registry';
import { authenticate } from '../middleware/auth';
import { traceCaller } from '../middleware/tracing';
import { AppError } from '../../core/errors';
import { hasRole } from '../../domain/tenancy/roles';
import type { TrpcContext } from './context';
import { AppTrpcError, appErrorData, INTERNAL, translate } from './errors';

const t = initTRPC.context<TrpcContext>().create({
  // No stack traces in answers, whatever NODE_ENV says.
  isDev: false,
  errorFormatter: ({ shape, error }) => {
    const { message, data } = appErrorData(error);
    return { ...shape, message, data: { ...data, httpStatus: shape.data.httpStatus, path: shape.data.path } };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Every procedure answers errors in the REST vocabulary; unknown ones are logged with the request id. */
const publicProcedure = t.procedure.use(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) return result;
  const known = translate(result.error);
  if (!known) {
    ctx.deps.log.error({ err: result.error.cause ?? result.error }, 'unhandled error');
    throw INTERNAL();
  }
  if (known.appError.status >= 500)
    ctx.deps.log.warn({ code: known.appError.code, err: known.appError }, known.appError.message);
  throw known;
});

/** The bearer token is checked exactly as requireAuth checks it (the user read from the database or the read cache). */
const authedProcedure = publicProcedure.use(async ({ ctx, next, type }) => {
  const caller = await authenticate(ctx.deps, ctx.authorization, ctx.clientAddress).catch((err: unknown) => {
    throw err instanceof AppError ? new AppTrpcError(err) : err;
  });
  const log = ctx.deps.log.child({ tenantId: caller.tenantId, userId: caller.userId });
  traceCaller(caller);
  try {
    return await next({ ctx: { ...ctx, deps: { ...ctx.deps, log }, caller } });
  } finally {
    // The caller's next read on this process shows what they changed (db/read-cache.ts).
    if (type === 'mutation') ctx.deps.readCache?.forgetTenant(caller.tenantId);
  }
});

const ACCESS = new Map(OPERATIONS.map((op) => [op.operationId, op.access]));

/**
 * The procedure for the REST operation it mirrors: the same access rule, read from the operation registry, so
 * the two interfaces cannot drift apart. The role is checked before the input is parsed, as in the routes.
 */
export function procedureFor(operationId: string) {
  const access = ACCESS.get(operationId);
  if (!access) throw new Error(`No REST operation ${operationId}`);
  if (access === PUBLIC) throw new Error(`${operationId} is public: use publicProcedureFor`);
  return authedProcedure.use(({ ctx, next }) => {
    if (!hasRole(ctx.caller.role, access)) {
      throw new AppTrpcError(new AppError('forbidden', `This action requires the ${access} role or higher`));
    }
    return next();
  });
}

/** A public operation's procedure (sign-up, login and the like); fails at start-up if the operation is not public. */
export function publicProcedureFor(operationId: string) {
  if (ACCESS.get(operationId) !== PUBLIC) throw new Error(`${operationId} is not a public REST operation`);
  return publicProcedure;
}
