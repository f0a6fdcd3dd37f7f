import { newId } from '../../domain/ids';
import { clientLimitKey } from '../../domain/tenancy/client-address';
import { insertRefreshToken } from '../../db/repositories/refresh-tokens';
import { insertSession } from '../../db/repositories/sessions';
import { recordSignInSource } from '../../db/repositories/sign-in-sources';
import type { AppDeps } from '../deps';
import type { TokensOutput } from '../schemas/auth';
import { newRefreshSecret, signTokens } from './tokens';

type User = { id: string; tenant_id: string; email: string; name: string };

/**
 * A sign-in (a login, an accepted invitation): a new session and its first tokens. The client address becomes a
 * source this user signed in from, which the limit on failed logins for the account never slows (core/identity/auth.ts).
 */
export async function signIn(
  deps: Pick<AppDeps, 'db' | 'config'>,
  user: User,
  clientAddress: string,
): Promise<TokensOutput> {
  const sessionId = newId('session');
  await Promise.all([
    insertSession({ db: deps.db, id: sessionId, userId: user.id }),
    recordSignInSource({ db: deps.db, userId: user.id, source: clientLimitKey(clientAddress) }),
  ]);
  return issueTokens(deps, user, sessionId);
}

/** A session's tokens: an id and access token, and a refresh token stored (by its hash) for rotation. */
export async function issueTokens(
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  user: User,
  sessionId: string,
): Promise<TokensOutput> {
  const id = newId('refreshToken');
  const { secret, hash } = newRefreshSecret();
  const expiresAt = new Date(Date.now() + config.auth.refreshTokenTtlDays * 86_400_000);
  await insertRefreshToken({ db, id, userId: user.id, sessionId, tokenHash: hash, expiresAt });
  return { ...signTokens(config, user, sessionId), refresh_token: `${id}.${secret}` };
}
