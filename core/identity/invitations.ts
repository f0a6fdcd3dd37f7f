import type { Db } from '../../db/client';
import {
  consumeInvitation,
  expireOtherInvitations,
  findPendingInvitation,
  insertInvitation,
  listWaitingInvitees,
  lockInvitee,
  ownerVerified,
} from '../../db/repositories/invitations';
import { hitWindow, releaseHit } from '../../db/repositories/rate-limits';
import { findTenant } from '../../db/repositories/tenants';
import { findAccountByEmail, findUser, setInvitedUserPassword } from '../../db/repositories/users';
import { isUniqueViolation } from '../../db/errors';
import { clientLimitKey } from '../../domain/tenancy/client-address';
import { newId } from '../../domain/ids';
import {
  INVITATION_EMAIL_ADDRESS_WINDOW_SECONDS,
  INVITATION_EMAIL_TENANT_WINDOW_SECONDS,
  INVITATION_EMAILS_PER_ADDRESS,
  INVITATION_EMAILS_PER_TENANT,
  LOGIN_FAILURES_PER_CLIENT,
  LOGIN_FAILURE_WINDOW_SECONDS,
} from '../../domain/tenancy/limits';
import { escapeHtml } from '../../security/html';
import type { AppDeps, Caller } from '../deps';
import { auditAs } from '../audit-log';
import { AppError, notFound } from '../errors';
import type { TokensOutput } from '../schemas/auth';
import type { AcceptInviteInput } from '../schemas/users';
import { signIn } from './issue-tokens';
import { hashPassword } from './passwords';
import { takeHits } from '../rate-limits';
import { sha256 } from '../../security/crypto';
import { newRefreshSecret } from './tokens';

const INVITATION_TTL_DAYS = 7;

/**
 * Counts one invitation e-mail against the tenant's hourly and the address's daily allowance (invites and
 * resends alike: each puts the inviter's chosen names in somebody's inbox). Answers the function that takes the
 * hits back, for a request that ends up sending nothing.
 */
export function countInvitationEmail(db: Db, tenantId: string, email: string): Promise<() => Promise<void>> {
  return takeHits(db, [
    {
      key: `invitation:tenant:${tenantId}`,
      limit: INVITATION_EMAILS_PER_TENANT,
      windowSeconds: INVITATION_EMAIL_TENANT_WINDOW_SECONDS,
      message: `At most ${INVITATION_EMAILS_PER_TENANT} invitation e-mails per tenant per hour`,
    },
    {
      key: `invitation:address:${sha256(email)}`,
      limit: INVITATION_EMAILS_PER_ADDRESS,
      windowSeconds: INVITATION_EMAIL_ADDRESS_WINDOW_SECONDS,
      message: `At most ${INVITATION_EMAILS_PER_ADDRESS} invitation e-mails to one address per day`,
    },
  ]);
}

interface Invitation {
  id: string;
  /** The secret of the link; only its SHA-256 is stored, so it exists nowhere but in the e-mail. */
  token: string;
  expiresAt: Date;
}

interface Invitee {
  userId: string;
  email: string;
  name: string;
  role: string;
}

/** Creates a live invitation link for an invited user (inside the caller's transaction when it has one). */
export async function issueInvitation({
  db,
  tenantId,
  userId,
}: {
  db: Db;
  tenantId: string;
  userId: string;
}): Promise<Invitation> {
  const id = newId('invitation');
  const { secret, hash } = newRefreshSecret();
  const { expiresAt } = await insertInvitation({
    db,
    id,
    tenantId,
    userId,
    tokenHash: hash,
    ttlDays: INVITATION_TTL_DAYS,
  });
  return { id, token: secret, expiresAt };
}

/**
 * Sends the invitation e-mail; true when the mail server (or the outbox) took it. A failure is logged, not
 * thrown: the caller decides what it means. The invitation id is the idempotency key: the outbox keeps one
 * row per invitation, and over SMTP it is the Message-ID, which lets the recipient's mail system recognise a
 * duplicate but does not stop a retried send from delivering the link twice.
 *
 * An address that already signs in to an account (of another tenant: an address is one user within a tenant) is
 * told so instead of getting a link it could not use. The inviter sees no difference: the answer, the team list
 * and the limits are those of any invitation, so inviting does not tell which addresses have accounts.
 */
export async function sendInvitation(
  { db, config, log, mailer }: Pick<AppDeps, 'db' | 'config' | 'log' | 'mailer'>,
  caller: Caller,
  invitee: Invitee,
  invitation: Invitation,
): Promise<boolean> {
  const [inviter, tenant, account] = await Promise.all([
    findUser({ db, tenantId: caller.tenantId, userId: caller.userId }),
    findTenant({ db, tenantId: caller.tenantId }),
    findAccountByEmail({ db, email: invitee.email }),
  ]);
  const facts = {
    baseUrl: config.http.publicBaseUrl,
    inviterName: inviter?.name ?? caller.email,
    tenantName: tenant?.name ?? 'your team',
    invitee,
    invitation,
  };
  const content = account ? accountElsewhereEmail(facts) : invitationEmail(facts);
  try {
    await mailer.send({ idempotencyKey: invitation.id, to: [invitee.email], ...content });
    // Without a mail server (the embedded default) a newcomer follows the link from the log; never in production.
    if (!account && mailer.via === 'outbox' && config.env !== 'production') {
      log.info(
        { invitationId: invitation.id, link: invitationLink(config.http.publicBaseUrl, invitation) },
        'invitation link (no SMTP_URL: also kept in email_outbox)',
      );
    }
    return true;
  } catch (err) {
    const reason = (err as Error).message;
    log.warn({ invitationId: invitation.id, userId: invitee.userId, reason }, 'invitation e-mail could not be sent');
    return false;
  }
}

/**
 * Mails a fresh link to a user who has not accepted yet. With the user's row locked, the new link is stored,
 * the older ones are expired and the e-mail is sent, and only then is it all committed: concurrent resends
 * follow one another, so one link stays live, and when the mail server refuses, everything is rolled back and
 * the previous link keeps working. (Should the commit fail after the e-mail went out, that e-mail's link does
 * not work and the previous one still does; another resend fixes it.)
 */
export async function resendInvitation(deps: AppDeps, caller: Caller, userId: string): Promise<{ message: string }> {
  const { email, invitationId } = await deps.db.transaction().execute(async (trx) => {
    const user = await lockInvitee({ db: trx, tenantId: caller.tenantId, userId });
    if (!user) throw notFound('User');
    if (user.password_hash !== null)
      throw new AppError('invalid_state', 'This user has already accepted the invitation');
    if (!(await ownerVerified({ db: trx, tenantId: caller.tenantId }))) {
      throw new AppError(
        'invalid_state',
        "Invitation e-mails wait until the tenant's owner has verified their e-mail address; it is sent then",
      );
    }
    // Counted outside the transaction, so a refused resend still counts; a failed send is taken back.
    const releaseHits = await countInvitationEmail(deps.db, caller.tenantId, user.email);
    const invitation = await issueInvitation({ db: trx, tenantId: caller.tenantId, userId });
    await expireOtherInvitations({ db: trx, tenantId: caller.tenantId, userId, keepId: invitation.id });
    const invitee = { userId, email: user.email, name: user.name, role: user.role };
    if (!(await sendInvitation({ ...deps, db: trx }, caller, invitee, invitation))) {
      await releaseHits();
      throw new AppError('upstream_failed', 'The mail server did not accept the invitation e-mail; try again later');
    }
    return { email: user.email, invitationId: invitation.id };
  });
  deps.log.info({ userId, invitationId }, 'invitation sent again');
  return { message: `A new invitation e-mail was sent to ${email}; earlier links no longer work.` };
}

/**
 * Sends the invitations that waited for the owner to verify their address (the owner is the inviter they
 * name). Answers how many went out; one that fails is logged and can be sent again with a resend.
 */
export async function sendWaitingInvitations(
  deps: Pick<AppDeps, 'db' | 'config' | 'log' | 'mailer'>,
  owner: Caller,
): Promise<number> {
  let sent = 0;
  for (const invitee of await listWaitingInvitees({ db: deps.db, tenantId: owner.tenantId })) {
    const invitation = await issueInvitation({ db: deps.db, tenantId: owner.tenantId, userId: invitee.id });
    if (
      await sendInvitation(
        deps,
        owner,
        { userId: invitee.id, email: invitee.email, name: invitee.name, role: invitee.role },
        invitation,
      )
    )
      sent += 1;
  }
  if (sent > 0) deps.log.info({ tenantId: owner.tenantId, sent }, 'waiting invitations sent');
  return sent;
}

const invitationLink = (baseUrl: string, invitation: Invitation) =>
  `${baseUrl}/app/accept-invite#token=${encodeURIComponent(invitation.token)}`;

const invalidInvitation = () =>
  new AppError('invalid_invitation', 'The invitation is unknown, already used or expired');

/** The address signs in to an account already (one user with a password per address): 409, and nothing changes. */
function accountElsewhere(err: unknown): never {
  if (isUniqueViolation(err, 'users_account_email_key'))
    throw new AppError(
      'email_taken',
      'This address already signs in to a Sentinel account, and an address belongs to one team; log in with it, or ask to be invited with another address',
    );
  throw err;
}

/**
 * Sets an invited user's password and signs them in. The link is consumed in the same statement that checks
 * it, so it works once even under concurrent requests. Attempts are counted per client address like logins. An
 * address that has come to sign in to an account elsewhere since the invitation (a sign-up, another tenant's
 * invitation accepted) cannot accept it: 409, told to the one who reads the mailbox, never to the inviter.
 */
export async function acceptInvitation(
  deps: Pick<AppDeps, 'db' | 'config' | 'log'>,
  input: AcceptInviteInput & { clientAddress: string },
): Promise<TokensOutput> {
  const { db, log } = deps;
  const clientKey = `accept-invite:client:${clientLimitKey(input.clientAddress)}`;
  const attempts = await hitWindow({ db, key: clientKey, windowSeconds: LOGIN_FAILURE_WINDOW_SECONDS });
  if (attempts.count > LOGIN_FAILURES_PER_CLIENT) {
    throw new AppError('rate_limited', 'Too many invitation attempts; try again later', {
      retryAfterSeconds: attempts.resetsInSeconds,
    });
  }

  const tokenHash = sha256(input.token);
  // Cheap check first, so a wrong token never costs a password hash.
  const found = await findPendingInvitation({ db, tokenHash });
  if (!found) throw invalidInvitation();
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction().execute(async (trx) => {
    // The user first, as a resend does: a resend that won the lock has ended this link by now.
    if (!(await lockInvitee({ db: trx, tenantId: found.tenant_id, userId: found.user_id }))) throw invalidInvitation();
    const invitation = await consumeInvitation({ db: trx, tokenHash });
    if (!invitation) throw invalidInvitation();
    const { tenant_id: tenantId, user_id: userId } = invitation;
    const updated = await setInvitedUserPassword({ db: trx, tenantId, userId, passwordHash, name: input.name }).catch(
      accountElsewhere,
    );
    if (!updated) throw invalidInvitation();
    await expireOtherInvitations({ db: trx, tenantId, userId, keepId: invitation.id });
    await auditAs(trx, {
      tenantId,
      actor: { userId, email: updated.email },
      action: 'user.invitation_accepted',
      target: `user:${userId}`,
      clientAddress: input.clientAddress,
    });
    return updated;
  });
  await releaseHit({ db, key: clientKey });
  log.info({ tenantId: user.tenant_id, userId: user.id }, 'invitation accepted');
  return signIn(deps, user, input.clientAddress);
}

const ARTICLE: Record<string, string> = { admin: 'an admin', member: 'a member', viewer: 'a viewer' };

function invitationEmail({
  baseUrl,
  inviterName,
  tenantName,
  invitee,
  invitation,
}: {
  baseUrl: string;
  inviterName: string;
  tenantName: string;
  invitee: Invitee;
  invitation: Invitation;
}): { subject: string; text: string; html: string } {
  // In the fragment, which browsers never send: the token reaches no server log, proxy or Referer header.
  const link = invitationLink(baseUrl, invitation);
  const role = ARTICLE[invitee.role] ?? invitee.role;
  const expires = invitation.expiresAt.toISOString();
  const acceptBody = JSON.stringify({ token: invitation.token, password: '<your new password, 8 or more characters>' });
  const loginBody = JSON.stringify({ email: invitee.email, password: '<your password>' });
  const text = [
    `Hello ${invitee.name},`,
    '',
    `${inviterName} invited you to join ${tenantName} on Sentinel as ${role}.`,
    '',
    'Choose your password and sign in here:',
    link,
    '',
    `The link works once and expires at ${expires}.`,
    '',
    'Using the API instead:',
    `1. POST ${baseUrl}/auth/accept-invite with the JSON body ${acceptBody}`,
    '   It sets your password and answers with your tokens, so you are signed in at once.',
    `2. From then on, sign in with POST ${baseUrl}/auth/login and ${loginBody}`,
    '   and send the id_token it returns as "Authorization: Bearer <id_token>".',
    '',
    'If you did not expect this invitation, ignore this e-mail.',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>Hello ${e(invitee.name)},</p>`,
    `<p>${e(inviterName)} invited you to join <strong>${e(tenantName)}</strong> on Sentinel as ${e(role)}.</p>`,
    `<p><a href="${e(link)}">Choose your password and sign in</a></p>`,
    `<p>The link works once and expires at ${e(expires)}.</p>`,
    '<p>Using the API instead:</p>',
    '<ol>',
    `<li><code>POST ${e(baseUrl)}/auth/accept-invite</code> with the JSON body <code>${e(acceptBody)}</code>. ` +
      'It sets your password and answers with your tokens, so you are signed in at once.</li>',
    `<li>From then on, sign in with <code>POST ${e(baseUrl)}/auth/login</code> and <code>${e(loginBody)}</code>, ` +
      'and send the <code>id_token</code> it returns as <code>Authorization: Bearer &lt;id_token&gt;</code>.</li>',
    '</ol>',
    '<p>If you did not expect this invitation, ignore this e-mail.</p>',
  ].join('\n');
  return { subject: `${inviterName} invited you to ${tenantName} on Sentinel`, text, html };
}

/** To an address that already signs in to an account: the invitation, and why it cannot be accepted with it. */
function accountElsewhereEmail({
  inviterName,
  tenantName,
  invitee,
}: {
  inviterName: string;
  tenantName: string;
  invitee: Invitee;
}): { subject: string; text: string; html: string } {
  const role = ARTICLE[invitee.role] ?? invitee.role;
  const text = [
    `Hello ${invitee.name},`,
    '',
    `${inviterName} invited you to join ${tenantName} on Sentinel as ${role}.`,
    '',
    'This address already signs in to a Sentinel account, and an address belongs to one team only, so the',
    `invitation cannot be accepted with it. To join ${tenantName}, ask ${inviterName} to invite another of your`,
    'addresses.',
    '',
    'If you did not expect this invitation, ignore this e-mail.',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>Hello ${e(invitee.name)},</p>`,
    `<p>${e(inviterName)} invited you to join <strong>${e(tenantName)}</strong> on Sentinel as ${e(role)}.</p>`,
    '<p>This address already signs in to a Sentinel account, and an address belongs to one team only, so the ' +
      `invitation cannot be accepted with it. To join ${e(tenantName)}, ask ${e(inviterName)} to invite another of ` +
      'your addresses.</p>',
    '<p>If you did not expect this invitation, ignore this e-mail.</p>',
  ].join('\n');
  return { subject: `${inviterName} invited you to ${tenantName} on Sentinel`, text, html };
}
