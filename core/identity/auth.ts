import { newId } from '../../domain/ids';
import { clientLimitKey } from '../../domain/tenancy/client-address';
import {
  KNOWN_SIGN_IN_SOURCE_DAYS,
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ACCOUNT_PER_DAY,
  LOGIN_FAILURES_PER_CLIENT,
  LOGIN_FAILURES_PER_EMAIL_AND_CLIENT,
  LOGIN_FAILURE_DAY_WINDOW_SECONDS,
  LOGIN_FAILURE_WINDOW_SECONDS,
  SIGNUP_WINDOW_SECONDS,
} from '../../domain/tenancy/limits';
import { isUniqueViolation } from '../../db/errors';
import { findRefreshToken, revokeAllRefreshTokens, revokeRefreshToken } from '../../db/repositories/refresh-tokens';
import { clearWindow, hitWindow, releaseHit, type WindowState } from '../../db/repositories/rate-limits';
import { endSession, endUserSessions, insertSession, lockLiveSession } from '../../db/repositories/sessions';
import { isKnownSignInSource } from '../../db/repositories/sign-in-sources';
import { insertTenant } from '../../db/repositories/tenants';
import { cancelPendingInvitees, findAccountByEmail, insertUser } from '../../db/repositories/users';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import type { LoginInput, SignupInput, TokensOutput } from '../schemas/auth';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { auditAs } from '../audit-log';
import { sendVerificationLink } from './email-verification';
import { takeHits } from '../rate-limits';
import { sha256 } from '../../security/crypto';
import { issueTokens, signIn } from './issue-tokens';
import { timingSafeEqual } from 'node:crypto';

type Deps = Pick<AppDeps, 'db' | 'config' | 'log'>;

/**
 * Creates the tenant and its owner in one transaction; new tenants start on the solo plan. Sign-ups are counted
 * per client address (its limit key: an IPv6 /64 is one client) per hour before anything else (each one is a
 * tenant, and a password hash), failed ones too: probing which addresses are taken counts.
 */
export async function signup(deps: Deps & Pick<AppDeps, 'mailer'>, input: SignupInput & { clientAddress: string }) {
  const { db, log, config } = deps;
  const allowed = config.auth.signupsPerClientPerHour;
  await takeHits(db, [
    {
      key: `signup:client:${clientLimitKey(input.clientAddress)}`,
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
      // A pending invitation never keeps its address from its owner: signing up cancels it, in every tenant.
      const invitedBy = await cancelPendingInvitees({ db: trx, email: input.email });
      if (invitedBy.length > 0)
        log.info({ invitedBy }, 'pending invitations cancelled by a sign-up with their address');
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
    if (isUniqueViolation(err, 'users_account_email_key'))
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
 * Verifies credentials. Attempts are counted before the password is checked, so parallel guesses cannot slip past
 * the limits; a client address counts by its limit key (an IPv6 /64 is one client). Per e-mail from this client
 * and per client, past the limit that client is refused. Per account (the e-mail, from every address), past 10
 * failures in 15 minutes or 30 in a day, every source that never signed in to the account is refused, however many
 * addresses a guesser spreads over, while a source that did (core/identity/issue-tokens.ts) never is: nobody can
 * lock the owner out by failing on purpose. Past a limit the answer is 429 with Retry-After, whether or not the
 * password is right. A successful login takes its attempt back from every count and clears its own pair's.
 */
export async function login(deps: Deps, input: LoginInput & { clientAddress: string }): Promise<TokensOutput> {
  const { db } = deps;
  const email = sha256(input.email);
  const source = clientLimitKey(input.clientAddress);
  const pairKey = `login:pair:${email}:${source}`;
  const [clientKey, accountKey, accountDayKey] = [
    `login:client:${source}`,
    `login:account:${email}`,
    `login:account-day:${email}`,
  ];
  const window = LOGIN_FAILURE_WINDOW_SECONDS;
  const [byPair, byClient, byAccount, byAccountDay, known] = await Promise.all([
    hitWindow({ db, key: pairKey, windowSeconds: window }),
    hitWindow({ db, key: clientKey, windowSeconds: window }),
    hitWindow({ db, key: accountKey, windowSeconds: window }),
    hitWindow({ db, key: accountDayKey, windowSeconds: LOGIN_FAILURE_DAY_WINDOW_SECONDS }),
    isKnownSignInSource({ db, email: input.email, source, days: KNOWN_SIGN_IN_SOURCE_DAYS }),
  ]);
  const past = (state: WindowState, limit: number) => (state.count > limit ? state.resetsInSeconds : 0);
  const retryAfter = Math.max(
    past(byPair, LOGIN_FAILURES_PER_EMAIL_AND_CLIENT),
    past(byClient, LOGIN_FAILURES_PER_CLIENT),
    known ? 0 : past(byAccount, LOGIN_FAILURES_PER_ACCOUNT),
    known ? 0 : past(byAccountDay, LOGIN_FAILURES_PER_ACCOUNT_PER_DAY),
  );
  if (retryAfter > 0) {
    throw new AppError('rate_limited', 'Too many failed login attempts; try again later', {
      retryAfterSeconds: retryAfter,
    });
  }

  const user = await findAccountByEmail({ db, email: input.email });
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
    ...[clientKey, accountKey, accountDayKey].map((key) => releaseHit({ db, key })),
  ]);
  await auditAs(db, { ...event(user), action: 'auth.login_succeeded' });
  return signIn(deps, user, input.clientAddress);
}

function parseRefreshToken(token: string): { id: string; secret: string } | null {
  const [id, secret, ...rest] = token.split('.');
  return id && secret && rest.length === 0 ? { id, secret } : null;
}

const INVALID_REFRESH = new AppError('invalid_refresh_token', 'Refresh token is invalid, expired or revoked');

/**
 * Exchanges a refresh token for a new set of tokens in the same session. Refresh tokens rotate: each is good once.
 * Presenting an already-used token of a live session means it leaked, so every session of that user ends (their
 * id tokens with them) and every refresh token is revoked. A token of an ended session (logged out) is refused.
 */
export async function refresh(deps: Deps, refreshToken: string): Promise<TokensOutput> {
  const { db, log } = deps;
  const parsed = parseRefreshToken(refreshToken);
  const row = parsed ? await findRefreshToken({ db, id: parsed.id }) : undefined;
  if (!parsed || !row || !safeEqualHex(row.token_hash, sha256(parsed.secret)) || row.session_ended_at)
    throw INVALID_REFRESH;
  if (row.revoked_at) {
    await db.transaction().execute(async (trx) => {
      await revokeAllRefreshTokens({ db: trx, userId: row.user_id });
      await endUserSessions({ db: trx, userId: row.user_id });
      await auditAs(trx, {
        tenantId: row.tenant_id,
        actor: { userId: row.user_id, email: row.email },
        action: 'auth.refresh_token_reused',
        target: `user:${row.user_id}`,
      });
    });
    log.warn({ userId: row.user_id }, 'revoked refresh token reused; all sessions of the user ended');
    throw INVALID_REFRESH;
  }
  if (row.expires_at.getTime() <= Date.now()) throw INVALID_REFRESH;
  const user = { id: row.user_id, tenant_id: row.tenant_id, email: row.email, name: row.name };
  return db.transaction().execute(async (trx) => {
    let sessionId = row.session_id;
    if (sessionId === null) {
      // Issued before sessions existed: it starts one.
      sessionId = newId('session');
      await insertSession({ db: trx, id: sessionId, userId: row.user_id });
    } else if (!(await lockLiveSession({ db: trx, sessionId }))) {
      throw INVALID_REFRESH;
    }
    if (!(await revokeRefreshToken({ db: trx, id: row.id }))) throw INVALID_REFRESH;
    return issueTokens({ ...deps, db: trx }, user, sessionId);
  });
}

/**
 * Ends the session of a refresh token: the token is revoked and the session's id tokens are refused from the next
 * request on, on every API process. Unknown or already revoked tokens are accepted silently (logout is idempotent).
 */
export async function logout({ db }: Deps, refreshToken: string): Promise<void> {
  const parsed = parseRefreshToken(refreshToken);
  const row = parsed ? await findRefreshToken({ db, id: parsed.id }) : undefined;
  if (parsed && row && safeEqualHex(row.token_hash, sha256(parsed.secret))) {
    if (row.session_id) await endSession({ db, sessionId: row.session_id });
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
