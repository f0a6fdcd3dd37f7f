import { revokeAllRefreshTokens } from '../../db/repositories/refresh-tokens';
import { endUserSessions } from '../../db/repositories/sessions';
import { forgetSignInSources, recordSignInSource } from '../../db/repositories/sign-in-sources';
import { findAccountByEmail, setUserPassword } from '../../db/repositories/users';
import { clientLimitKey } from '../../domain/tenancy/client-address';
import {
  LOGIN_FAILURE_WINDOW_SECONDS,
  PASSWORD_RESET_CONFIRMS_PER_CLIENT,
  PASSWORD_RESETS_PER_ADDRESS,
  PASSWORD_RESETS_PER_CLIENT,
  PASSWORD_RESET_TTL_MINUTES,
  PASSWORD_RESET_WINDOW_SECONDS,
} from '../../domain/tenancy/limits';
import { sha256 } from '../../security/crypto';
import { escapeHtml } from '../../security/html';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { hashPassword } from './passwords';
import { afterAnswer } from '../after-answer';
import { auditAs } from '../audit-log';
import { takeHits } from '../rate-limits';
import { consumeLink, isLiveLink, mailUserLink, type UserLinkKind } from './user-links';

// The way back into an account, and the proof of an address: whoever can read the mailbox can set the password.
// A squatter who signed up with somebody else's address loses the account the moment its owner follows a link.

const PASSWORD_RESET_LINK: UserLinkKind = {
  table: 'password_resets',
  idKind: 'passwordReset',
  ttlMinutes: PASSWORD_RESET_TTL_MINUTES,
  page: 'reset-password',
  label: 'password reset',
};

const ACCEPTED = {
  message: 'If an account uses this address, a password reset link is on its way; it works once, for one hour.',
};

type Deps = Pick<AppDeps, 'db' | 'config' | 'log' | 'mailer'>;

/**
 * Mails a single-use reset link to the user with this address. The answer is the same whether or not there is
 * one, and so is the work done before it: only the limits per client address and per address are counted (keyed
 * alike for every address), and the lookup, the link and the e-mail come after the answer, so neither the answer
 * nor its timing tells which addresses have accounts. Invited users who have not accepted get nothing: their
 * invitation is their way in.
 */
export async function requestPasswordReset(
  deps: Deps,
  { email, clientAddress }: { email: string; clientAddress: string },
): Promise<typeof ACCEPTED> {
  const { db } = deps;
  await takeHits(db, [
    {
      key: `password-reset:client:${clientLimitKey(clientAddress)}`,
      limit: PASSWORD_RESETS_PER_CLIENT,
      windowSeconds: PASSWORD_RESET_WINDOW_SECONDS,
      message: `At most ${PASSWORD_RESETS_PER_CLIENT} password reset requests per client address per hour`,
    },
    {
      key: `password-reset:address:${sha256(email)}`,
      limit: PASSWORD_RESETS_PER_ADDRESS,
      windowSeconds: PASSWORD_RESET_WINDOW_SECONDS,
      message: `At most ${PASSWORD_RESETS_PER_ADDRESS} password reset requests per address per hour`,
    },
  ]);
  afterAnswer(deps.log, 'password reset e-mail', () => mailResetLink(deps, email));
  return ACCEPTED;
}

async function mailResetLink(deps: Deps, email: string): Promise<void> {
  const user = await findAccountByEmail({ db: deps.db, email });
  if (!user) return;
  await mailUserLink(deps, PASSWORD_RESET_LINK, user, ({ url, token, expiresAt }) =>
    resetEmail({
      baseUrl: deps.config.http.publicBaseUrl,
      name: user.name,
      link: url,
      token,
      expiresAt,
    }),
  );
}

const invalidResetToken = () =>
  new AppError('invalid_reset_token', 'The password reset link is unknown, already used or expired; ask for a new one');

/**
 * Sets the password through a live link, once, and ends every session of the user (their refresh tokens revoked,
 * their id tokens refused). Cheap refusals first: attempts are counted per client address like logins (a successful
 * one taken back), and an unknown, used or expired link is refused before the new password is hashed. The places
 * the user signed in from are forgotten (one may be a thief's) but this one, which the mailed link just proved.
 */
export async function confirmPasswordReset(
  { db, log }: Pick<AppDeps, 'db' | 'log'>,
  { token, password, clientAddress }: { token: string; password: string; clientAddress: string },
) {
  const source = clientLimitKey(clientAddress);
  const releaseHits = await takeHits(db, [
    {
      key: `password-reset-confirm:client:${source}`,
      limit: PASSWORD_RESET_CONFIRMS_PER_CLIENT,
      windowSeconds: LOGIN_FAILURE_WINDOW_SECONDS,
      message: 'Too many password reset attempts; try again later',
    },
  ]);
  if (!(await isLiveLink(db, PASSWORD_RESET_LINK, token))) throw invalidResetToken();
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction().execute(async (trx) => {
    // Consumed here, in one statement: of two racing confirms exactly one gets the user.
    const owner = await consumeLink(trx, PASSWORD_RESET_LINK, token);
    if (!owner) throw invalidResetToken();
    await setUserPassword({ db: trx, userId: owner.id, passwordHash });
    await revokeAllRefreshTokens({ db: trx, userId: owner.id });
    await endUserSessions({ db: trx, userId: owner.id });
    await forgetSignInSources({ db: trx, userId: owner.id });
    await recordSignInSource({ db: trx, userId: owner.id, source });
    await auditAs(trx, {
      tenantId: owner.tenant_id,
      actor: { userId: owner.id, email: owner.email },
      action: 'auth.password_reset',
      target: `user:${owner.id}`,
      clientAddress,
    });
    return owner.id;
  });
  await releaseHits();
  log.info({ userId }, 'password reset');
  return { message: 'Your password is set and every session signed out; log in with POST /auth/login.' };
}

function resetEmail({
  baseUrl,
  name,
  link,
  token,
  expiresAt,
}: {
  baseUrl: string;
  name: string;
  link: string;
  token: string;
  expiresAt: Date;
}) {
  const expires = expiresAt.toISOString();
  const confirmBody = JSON.stringify({ token, password: '<your new password, 8 or more characters>' });
  const text = [
    `Hello ${name},`,
    '',
    'Somebody, hopefully you, asked to reset the password of your Sentinel account.',
    '',
    'Choose a new password here:',
    link,
    '',
    `The link works once and expires at ${expires}. Setting the password signs out every session.`,
    '',
    'Using the API instead:',
    `POST ${baseUrl}/auth/password-reset/confirm with the JSON body ${confirmBody}`,
    '',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>Hello ${e(name)},</p>`,
    '<p>Somebody, hopefully you, asked to reset the password of your Sentinel account.</p>',
    `<p><a href="${e(link)}">Choose a new password</a></p>`,
    `<p>The link works once and expires at ${e(expires)}. Setting the password signs out every session.</p>`,
    `<p>Using the API instead: <code>POST ${e(baseUrl)}/auth/password-reset/confirm</code> with the JSON body <code>${e(confirmBody)}</code>.</p>`,
    '<p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>',
  ].join('\n');
  return { subject: 'Reset your Sentinel password', text, html };
}
