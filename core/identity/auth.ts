import { newId } from '../../domain/ids';
import {
  LOGIN_FAILURES_PER_CLIENT,
  LOGIN_FAILURES_PER_EMAIL,
  LOGIN_FAILURES_PER_EMAIL_AND_CLIENT,
  LOGIN_FAILURE_WINDOW_SECONDS,
  SIGNUP_WINDOW_SECONDS,
} from '../../domain/tenancy/limits';
import { isUniqueViolation } from '../../db/errors';
import { findRefreshToken, revokeAllRefreshTokens, revokeRefreshToken } from '../../db/repositories/refresh-tokens';
import { clearWindow, hitWindow, releaseHit } from '../../db/repositories/rate-limits';
import { insertTenant } from '../../db/repositories/tenants';
import { cancelPendingInvitee, findUserByEmail, insertUser } from '../../db/repositories/users';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import type { LoginInput, SignupInput, TokensOutput } from '../schemas/auth';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { auditAs } from '../audit-log';
import { sendVerificationLink } from './email-verification';
import { takeHits } from '../rate-limits';
import { sha256 } from '../../security/crypto';
import { issueTokens } from './issue-tokens';
import { timingSafeEqual } from 'node:crypto';

type Deps = Pick<AppDeps, 'db' | 'config' | 'log'>;

/**
 * Creates the tenant and its owner in one transaction; new tenants start on the solo plan. Sign-ups are counted
 * per client address per hour before anything else (each one is a tenant, and a password hash), failed ones
 * too: probing which addresses are taken counts.
 */
export async function signup(deps: Deps & Pick<AppDeps, 'mailer'>, input: SignupInput & { clientAddress: string }) {
  const { db, log, config } = deps;
  const allowed = config.auth.signupsPerClientPerHour;
  await takeHits(db, [
    {
      key: `signup:client:${input.clientAddress}`,
      limit: allowed,
      windowSeconds: SIGNUP_WINDOW_SECONDS,
      message: `At most ${allowed} sign-ups per client address per hour`,
    },
  ]);
  const tenantId = newId('tenant');
  const userId = newId('user');
  const passwordHash = await hashPassword(input.password);
  try {
    await db.transaction().execute(async (trx) => {
      // A pending invitation never keeps its address from its owner: signing up cancels it.
      const invitedBy = await cancelPendingInvitee({ db: trx, email: input.email });
      if (invitedBy) log.info({ invitedBy }, 'pending invitation cancelled by a sign-up with its address');
      await insertTenant({ db: trx, tenant: { id: tenantId, name: input.name, plan: 'solo', status: 'active' } });
      await insertUser({
        db: trx,
        user: {
          id: userId,
          tenant_id: tenantId,
          email: input.email,
          name: input.name,
          role: 'owner',
          password_hash: passwordHash,
        },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_key'))
      throw new AppError('email_taken', 'An account with this e-mail already exists');
    throw err;
  }
  log.info({ tenantId, userId }, 'tenant signed up');
  await sendVerificationLink(deps, { id: userId, email: input.email, name: input.name });
  return {
    tenant_id: tenantId,
    user_id: userId,
    message:
      'Account created. Log in with POST /auth/login. A link to verify your e-mail address is on its way: until you follow it, ' +
      'alerts and invitations are e-mailed to nobody but you.',
  };
}

const INVALID_LOGIN = 'Invalid e-mail or password';

/**
 * Verifies credentials. Attempts are counted before the password is checked, so parallel guesses cannot slip
 * past the limits: per e-mail from this client address, per client address, and per e-mail from every address.
 * Past a limit the answer is 429 with Retry-After, whether or not the password is right. Others' failures never
 * lock out a client that has not failed on the e-mail itself: the per-e-mail count only refuses clients that
 * have. A successful login takes its attempt back from every count and clears its own pair's.
 */
export async function login(deps: Deps, input: LoginInput & { clientAddress: string }): Promise<TokensOutput> {
  const { db } = deps;
  const email = sha256(input.email);
  const pairKey = `login:pair:${email}:${input.clientAddress}`;
  const clientKey = `login:client:${input.clientAddress}`;
  const emailKey = `login:email:${email}`;
  const window = LOGIN_FAILURE_WINDOW_SECONDS;
  const [byPair, byClient, byEmail] = await Promise.all([
    hitWindow({ db, key: pairKey, windowSeconds: window }),
    hitWindow({ db, key: clientKey, windowSeconds: window }),
    hitWindow({ db, key: emailKey, windowSeconds: window }),
  ]);
  const failedHere = byPair.count > 1;
  const retryAfter = Math.max(
    byPair.count > LOGIN_FAILURES_PER_EMAIL_AND_CLIENT ? byPair.resetsInSeconds : 0,
    byClient.count > LOGIN_FAILURES_PER_CLIENT ? byClient.resetsInSeconds : 0,
    failedHere && byEmail.count > LOGIN_FAILURES_PER_EMAIL ? byEmail.resetsInSeconds : 0,
  );
  if (retryAfter > 0) {
    throw new AppError('rate_limited', 'Too many failed login attempts; try again later', {
      retryAfterSeconds: retryAfter,
    });
  }

  const user = await findUserByEmail({ db, email: input.email });
  const ok = user?.password_hash
    ? await verifyPassword(input.password, user.password_hash)
    : (await burnPasswordCheck(input.password), false);
  const event = (u: NonNullable<typeof user>) => ({
    tenantId: u.tenant_id,
    actor: { userId: u.id, email: u.email },
    target: `user:${u.id}`,
    clientAddress: input.clientAddress,
  });
  if (!user || !ok) {
    // A failure for an address nobody uses belongs to no tenant: it is counted, not recorded.
    if (user) await auditAs(db, { ...event(user), action: 'auth.login_failed' });
    throw new AppError('invalid_credentials', INVALID_LOGIN);
  }
  await Promise.all([
    clearWindow({ db, key: pairKey }),
    releaseHit({ db, key: clientKey }),
    releaseHit({ db, key: emailKey }),
  ]);
  await auditAs(db, { ...event(user), action: 'auth.login_succeeded' });
  return issueTokens(deps, user);
}

function parseRefreshToken(token: string): { id: string; secret: string } | null {
  const [id, secret, ...rest] = token.split('.');
  return id && secret && rest.length === 0 ? { id, secret } : null;
}

const INVALID_REFRESH = new AppError('invalid_refresh_token', 'Refresh token is invalid, expired or revoked');

/**
 * Exchanges a refresh token for a new set of tokens. Refresh tokens rotate: each is good once. Presenting
 * an already-used token means it leaked, so every refresh token of that user is revoked.
 */
export async function refresh(deps: Deps, refreshToken: string): Promise<TokensOutput> {
  const { db, log } = deps;
  const parsed = parseRefreshToken(refreshToken);
  const row = parsed ? await findRefreshToken({ db, id: parsed.id }) : undefined;
  if (!parsed || !row || !safeEqualHex(row.token_hash, sha256(parsed.secret))) throw INVALID_REFRESH;
  if (row.revoked_at) {
    await revokeAllRefreshTokens({ db, userId: row.user_id });
    await auditAs(db, {
      tenantId: row.tenant_id,
      actor: { userId: row.user_id, email: row.email },
      action: 'auth.refresh_token_reused',
      target: `user:${row.user_id}`,
    });
    log.warn({ userId: row.user_id }, 'revoked refresh token reused; all sessions of the user revoked');
    throw INVALID_REFRESH;
  }
  if (row.expires_at.getTime() <= Date.now() || !(await revokeRefreshToken({ db, id: row.id }))) throw INVALID_REFRESH;
  return issueTokens(deps, { id: row.user_id, tenant_id: row.tenant_id, email: row.email, name: row.name });
}

/** Revokes one refresh token. Unknown or already revoked tokens are accepted silently (logout is idempotent). */
export async function logout({ db }: Deps, refreshToken: string): Promise<void> {
  const parsed = parseRefreshToken(refreshToken);
  const row = parsed ? await findRefreshToken({ db, id: parsed.id }) : undefined;
  if (parsed && row && safeEqualHex(row.token_hash, sha256(parsed.secret))) {
    // Recorded when it revoked the token: logging out again with it changes nothing.
    if (await revokeRefreshToken({ db, id: row.id }))
      await auditAs(db, {
        tenantId: row.tenant_id,
        actor: { userId: row.user_id, email: row.email },
        action: 'auth.logout',
        target: `user:${row.user_id}`,
      });
  }
}

function safeEqualHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
