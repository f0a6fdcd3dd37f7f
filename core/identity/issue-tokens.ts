import { newId } from '../../domain/ids';
import { insertRefreshToken } from '../../db/repositories/refresh-tokens';
import type { AppDeps } from '../deps';
import type { TokensOutput } from '../schemas/auth';
import { newRefreshSecret, signTokens } from './tokens';

/** A signed-in user's tokens: an id and access token, and a refresh token stored (by its hash) for rotation. */
export async function issueTokens(
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  user: { id: string; tenant_id: string; email: string; name: string },
): Promise<TokensOutput> {
  const id = newId('refreshToken');
  const { secret, hash } = newRefreshSecret();
  const expiresAt = new Date(Date.now() + config.auth.refreshTokenTtlDays * 86_400_000);
  await insertRefreshToken({ db, id, userId: user.id, tokenHash: hash, expiresAt });
  return { ...signTokens(config, user), refresh_token: `${id}.${secret}` };
}
