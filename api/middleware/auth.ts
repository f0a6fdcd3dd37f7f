import type { NextFunction, Request, Response } from 'express';
import { findUser } from '../../db/repositories/users';
import { hasRole, type Role } from '../../domain/roles';
import type { AppDeps, Caller } from '../context';
import { AppError } from '../errors';
import { type IdTokenClaims, verifyIdToken } from '../services/tokens';

declare module 'express-serve-static-core' {
  interface Request {
    caller?: Caller;
  }
}

const UNAUTHORIZED = () => new AppError('unauthorized', 'Missing or invalid bearer token');

/** Resolves a bearer id_token to the caller. The user is read from the database, so removed users fail at once. */
/** Whether the token was issued before the user's sessions were ended (a password reset), to the millisecond. */
function signedInBefore(claims: IdTokenClaims, validAfter: Date | null): boolean {
  return validAfter !== null && (claims.iat_ms ?? claims.iat * 1000) < validAfter.getTime();
}

export async function authenticate(
  deps: Pick<AppDeps, 'db' | 'config'>, header: string | undefined, clientAddress?: string,
): Promise<Caller> {
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header ?? '');
  const claims = match?.[1] ? verifyIdToken(deps.config, match[1]) : null;
  if (!claims) throw UNAUTHORIZED();
  const user = await findUser({ db: deps.db, tenantId: claims.tid, userId: claims.sub });
  if (!user || signedInBefore(claims, user.sessions_valid_after)) throw UNAUTHORIZED();
  return { userId: user.id, tenantId: user.tenant_id, role: user.role, email: user.email, clientAddress };
}

export function requireAuth(deps: Pick<AppDeps, 'db' | 'config'>) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    req.caller = await authenticate(deps, req.headers.authorization, req.ip);
    req.log = req.log.child({ tenantId: req.caller.tenantId, userId: req.caller.userId });
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
