import { findUser, markEmailVerified } from '../../db/repositories/users';
import { EMAIL_VERIFICATION_RESENDS_PER_HOUR, EMAIL_VERIFICATION_TTL_HOURS } from '../../domain/tenancy/limits';
import { escapeHtml } from '../../security/html';
import type { AppDeps, Caller } from '../deps';
import { AppError, notFound } from '../errors';
import { auditAs } from '../audit-log';
import { sendWaitingInvitations } from './invitations';
import { takeHits } from '../rate-limits';
import { consumeLink, mailUserLink, type UserLinkKind } from './user-links';

// Proof that a user reads the mailbox of their address. Until a tenant's owner has it, the tenant mails nothing but
// this link: alert e-mails are held, the owner's too (domain/alerts/recipients.ts), and invitations wait.

type Deps = Pick<AppDeps, 'db' | 'config' | 'log' | 'mailer'>;

const VERIFICATION_LINK: UserLinkKind = {
  table: 'email_verifications',
  idKind: 'emailVerification',
  ttlMinutes: EMAIL_VERIFICATION_TTL_HOURS * 60,
  page: 'verify-email',
  label: 'verification',
};

/**
 * Mails a verification link to the user (a new link ends the older ones). A failure is logged, not thrown: a
 * sign-up stands without it, and the user can ask again.
 */
export function sendVerificationLink(deps: Deps, user: { id: string; email: string; name: string }): Promise<boolean> {
  return mailUserLink(deps, VERIFICATION_LINK, user, ({ url, token, expiresAt }) =>
    verificationEmail({
      baseUrl: deps.config.http.publicBaseUrl,
      name: user.name,
      link: url,
      token,
      expiresAt,
    }),
  );
}

/** A signed-in user who has not verified asks for a new link (a few times an hour). */
export async function resendVerificationLink(deps: Deps, caller: Caller): Promise<{ message: string }> {
  const user = await findUser({ db: deps.db, tenantId: caller.tenantId, userId: caller.userId });
  if (!user) throw notFound('User');
  if (user.email_verified_at) throw new AppError('invalid_state', 'This e-mail address is verified already');
  await takeHits(deps.db, [
    {
      key: `verify-email:user:${user.id}`,
      limit: EMAIL_VERIFICATION_RESENDS_PER_HOUR,
      windowSeconds: 60 * 60,
      message: `At most ${EMAIL_VERIFICATION_RESENDS_PER_HOUR} verification e-mails per hour`,
    },
  ]);
  if (!(await sendVerificationLink(deps, user))) {
    throw new AppError('upstream_failed', 'The mail server did not accept the verification e-mail; try again later');
  }
  return { message: `A verification link is on its way to ${user.email}; earlier links no longer work.` };
}

/**
 * Verifies the address through a live link, once. When the user is the owner, the invitations that waited for
 * it are sent now.
 */
export async function verifyEmail(
  deps: Deps,
  { token, clientAddress }: { token: string; clientAddress: string },
): Promise<{ message: string }> {
  const { db, log } = deps;
  const user = await db.transaction().execute(async (trx) => {
    const owner = await consumeLink(trx, VERIFICATION_LINK, token);
    if (!owner)
      throw new AppError(
        'invalid_verification_token',
        'The verification link is unknown, already used or expired; ask for a new one',
      );
    await markEmailVerified({ db: trx, userId: owner.id });
    await auditAs(trx, {
      tenantId: owner.tenant_id,
      actor: { userId: owner.id, email: owner.email },
      action: 'auth.email_verified',
      target: `user:${owner.id}`,
      clientAddress,
    });
    return owner;
  });
  log.info({ userId: user.id }, 'e-mail address verified');
  if (user.role !== 'owner') return { message: `${user.email} is verified.` };
  const sent = await sendWaitingInvitations(deps, {
    userId: user.id,
    tenantId: user.tenant_id,
    email: user.email,
    role: 'owner',
    clientAddress,
  });
  return {
    message: `${user.email} is verified.${sent > 0 ? ` ${sent} waiting invitation e-mail${sent === 1 ? ' was' : 's were'} sent.` : ''}`,
  };
}

function verificationEmail({
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
  const body = JSON.stringify({ token });
  const text = [
    `Hello ${name},`,
    '',
    'Confirm that this is your e-mail address for Sentinel:',
    link,
    '',
    `The link works once and expires at ${expires}. Until you confirm, Sentinel sends your team's alerts and`,
    'invitations to nobody but you.',
    '',
    'Using the API instead:',
    `POST ${baseUrl}/auth/verify-email with the JSON body ${body}`,
    '',
    'If you did not sign up for Sentinel, ignore this e-mail, or take the address back with a password reset.',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>Hello ${e(name)},</p>`,
    `<p><a href="${e(link)}">Confirm that this is your e-mail address for Sentinel</a></p>`,
    `<p>The link works once and expires at ${e(expires)}. Until you confirm, Sentinel sends your team's alerts and invitations to nobody but you.</p>`,
    `<p>Using the API instead: <code>POST ${e(baseUrl)}/auth/verify-email</code> with the JSON body <code>${e(body)}</code>.</p>`,
    '<p>If you did not sign up for Sentinel, ignore this e-mail, or take the address back with a password reset.</p>',
  ].join('\n');
  return { subject: 'Confirm your e-mail address for Sentinel', text, html };
}
