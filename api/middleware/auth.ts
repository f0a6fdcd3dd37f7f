import type { NextFunction, Request, Response } from 'express';
import { isLiveSession } from '../../db/repositories/sessions';
import { findCallerUser } from '../../db/repositories/users';
import type { CachedUser } from '../../db/read-cache';
import { hasRole, type Role } from '../../domain/tenancy/roles';
import { callerCacheLookups } from '../../observability/metrics';
import type { AppDeps, Caller } from '../../core/deps';
import { AppError } from '../../core/errors';
import { type IdTokenClaims, verifyIdToken } from '../../core/identity/tokens';
import { bindRequestLog } from './request-log';
import { traceCaller } from './tracing';

declare module 'express-serve-static-core' {
  interface Request {
    caller?: Caller;
  }
}

const UNAUTHORIZED = () => new AppError('unauthorized', 'Missing or invalid bearer token');

/** Whether the token was issued before the user's sessions were ended (a password reset), to the millisecond. */
function signedInBefore(claims: IdTokenClaims, validAfter: Date | null): boolean {
  return validAfter !== null && (claims.iat_ms ?? claims.iat * 1000) < validAfter.getTime();
}

/** The caller's user: from this process's cache when it holds it (db/read-cache.ts), else from the database. */
async function callerUser(
  deps: Pick<AppDeps, 'db' | 'readCache'>,
  tenantId: string,
  userId: string,
): Promise<CachedUser | undefined> {
  const { readCache } = deps;
  const cached = readCache?.get(tenantId, userId);
  callerCacheLookups.inc({ result: cached ? 'hit' : 'miss' });
  if (cached) return cached;
  const readAt = readCache?.generation(tenantId) ?? 0;
  const user = await findCallerUser({ db: deps.db, tenantId, userId });
  if (user) readCache?.keep(user, readAt);
  return user;
}

/**
 * Resolves a bearer id_token to the caller. The user row is read from the database or from a cache that forgets
 * a user as soon as the database announces a change, so removed users and changed roles apply at once. The token's
 * session is read from the database on every request, alongside: a logout or a stolen refresh token ends it on
 * every API process before the next request, which no announcement (delivered after the commit) could promise.
 */
export async function authenticate(
  deps: Pick<AppDeps, 'db' | 'config' | 'readCache'>,
  header: string | undefined,
  clientAddress?: string,
): Promise<Caller> {
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header ?? '');
  const claims = match?.[1] ? verifyIdToken(deps.config, match[1]) : null;
  if (!claims) throw UNAUTHORIZED();
  const [user, live] = await Promise.all([
    callerUser(deps, claims.tid, claims.sub),
    isLiveSession({ db: deps.db, sessionId: claims.sid, userId: claims.sub }),
  ]);
  if (!user || !live || signedInBefore(claims, user.sessions_valid_after)) throw UNAUTHORIZED();
  return { userId: user.id, tenantId: user.tenant_id, role: user.role, email: user.email, clientAddress };
}

export function requireAuth(deps: Pick<AppDeps, 'db' | 'config' | 'readCache'>) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    req.caller = await authenticate(deps, req.headers.authorization, req.ip);
    bindRequestLog(req, { tenantId: req.caller.tenantId, userId: req.caller.userId });
    // Here, while routing has the route's parameters (an error handler later sees none).
    traceCaller(req.caller, req.params);
    next();
  };
}

export function requireRole(required: Role) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!req.caller || !hasRole(req.caller.role, required)) {
      throw new AppError('forbidden', `This action requires the ${required} role or higher`);
    }
    next();
  };
}

/** The caller of a route behind requireAuth. */
export function callerOf(req: Request): Caller {
  if (!req.caller) throw UNAUTHORIZED();
  return req.caller;
}
