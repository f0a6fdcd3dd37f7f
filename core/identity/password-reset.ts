import { revokeAllRefreshTokens } from '../../db/repositories/refresh-tokens';
import { findUserByEmail, setUserPassword } from '../../db/repositories/users';
import {
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
import { auditAs } from '../audit-log';
import { takeHits } from '../rate-limits';
import { consumeLink, mailUserLink, type UserLinkKind } from './user-links';

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

/**
 * Mails a single-use reset link to the user with this address. The answer is the same whether or not there
 * is one (no way to learn which addresses have accounts); requests are limited per client address and per
 * address. Invited users who have not accepted get nothing: their invitation is their way in.
 */
export async function requestPasswordReset(
  deps: Pick<AppDeps, 'db' | 'config' | 'log' | 'mailer'>,
  { email, clientAddress }: { email: string; clientAddress: string },
): Promise<typeof ACCEPTED> {
  const { db } = deps;
  await takeHits(db, [
    {
      key: `password-reset:client:${clientAddress}`,
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
  const user = await findUserByEmail({ db, email });
  if (!user?.password_hash) return ACCEPTED;
  // A failure to send keeps the same answer: it must not tell the caller the address has an account.
  await mailUserLink(deps, PASSWORD_RESET_LINK, user, ({ url, token, expiresAt }) =>
    resetEmail({
      baseUrl: deps.config.http.publicBaseUrl,
      name: user.name,
      link: url,
      token,
      expiresAt,
    }),
  );
  return ACCEPTED;
}

/** Sets the password through a live link, once; every refresh token of the user is revoked with it. */
export async function confirmPasswordReset(
  { db, log }: Pick<AppDeps, 'db' | 'log'>,
  { token, password, clientAddress }: { token: string; password: string; clientAddress: string },
) {
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction().execute(async (trx) => {
    const owner = await consumeLink(trx, PASSWORD_RESET_LINK, token);
    if (!owner)
      throw new AppError(
        'invalid_reset_token',
        'The password reset link is unknown, already used or expired; ask for a new one',
      );
    await setUserPassword({ db: trx, userId: owner.id, passwordHash });
    await revokeAllRefreshTokens({ db: trx, userId: owner.id });
    await auditAs(trx, {
      tenantId: owner.tenant_id,
      actor: { userId: owner.id, email: owner.email },
      action: 'auth.password_reset',
      target: `user:${owner.id}`,
      clientAddress,
    });
    return owner.id;
  });
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
