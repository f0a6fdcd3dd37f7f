import { isUniqueViolation } from '../../db/errors';
import { ownerVerified } from '../../db/repositories/invitations';
import { deleteUser, findUser, insertUser, listUsers, updateUserRole } from '../../db/repositories/users';
import { newId } from '../../domain/ids';
import type { AssignableRole } from '../../domain/tenancy/roles';
import type { AppDeps, Caller } from '../deps';
import { AppError, notFound } from '../errors';
import type { InviteUserInput } from '../schemas/users';
import { audit } from '../audit-log';
import { countInvitationEmail, issueInvitation, sendInvitation } from './invitations';

export async function listTeam({ db }: Pick<AppDeps, 'db'>, caller: Caller) {
  const rows = await listUsers({ db, tenantId: caller.tenantId });
  const users = rows.map((u) => ({
    user_id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    created_at: u.created_at.toISOString(),
    status: u.accepted ? ('active' as const) : ('invited' as const),
  }));
  return { users, total: users.length };
}

/**
 * Creates the user (without a password) and its invitation in one transaction, then mails the link. A
 * failed e-mail does not undo the invitation: the answer says so and the link can be sent again. While the
 * tenant's owner has not verified their address, no link is made and nothing is mailed: the invitation waits
 * and is sent when they verify (core/identity/email-verification.ts).
 *
 * Only the caller's own team can refuse an address (409): an address with an account in another tenant, or invited
 * by one, is invited like a fresh address (its e-mail says what it can do: sendInvitation), so the answer tells the
 * inviter nothing about other tenants' users. Every invite counts against the limits, refused ones too.
 */
export async function inviteUser(deps: AppDeps, caller: Caller, input: InviteUserInput) {
  const { db, log } = deps;
  const userId = newId('user');
  await countInvitationEmail(db, caller.tenantId, input.email);
  let invitation;
  try {
    invitation = await db.transaction().execute(async (trx) => {
      await insertUser({
        db: trx,
        user: {
          id: userId,
          tenant_id: caller.tenantId,
          email: input.email,
          name: input.name,
          role: input.role,
          password_hash: null,
        },
      });
      await audit(trx, caller, 'user.invited', `user:${userId}`, { email: input.email, role: input.role });
      if (!(await ownerVerified({ db: trx, tenantId: caller.tenantId }))) return undefined;
      return issueInvitation({ db: trx, tenantId: caller.tenantId, userId });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_tenant_email_key'))
      throw new AppError('email_taken', 'A user of this team already has this e-mail');
    throw err;
  }
  const invited = { user_id: userId, email: input.email, name: input.name, role: input.role };
  if (!invitation) {
    log.info(
      { userId, role: input.role },
      'user invited; the invitation e-mail waits for the owner to verify their address',
    );
    return {
      ...invited,
      message: `${input.email} is invited. The invitation e-mail is sent once the tenant's owner has verified their e-mail address.`,
    };
  }
  log.info({ userId, invitationId: invitation.id, role: input.role }, 'user invited');
  const sent = await sendInvitation(deps, caller, { userId, ...input }, invitation);
  const message = sent
    ? `Invitation e-mail sent to ${input.email}; its link expires at ${invitation.expiresAt.toISOString()}.`
    : `The user was invited, but the invitation e-mail could not be sent; send it again with POST /users/${userId}/resend-invite.`;
  return { ...invited, message };
}

/** The owner's role is fixed; everyone else's can be set to any assignable role. */
export async function changeRole(
  { db, log }: Pick<AppDeps, 'db' | 'log'>,
  caller: Caller,
  userId: string,
  role: AssignableRole,
) {
  const target = await findUser({ db, tenantId: caller.tenantId, userId });
  if (!target) throw notFound('User');
  if (target.role === 'owner') throw new AppError('forbidden', "The owner's role cannot be changed");
  const row = await updateUserRole({ db, tenantId: caller.tenantId, userId, role });
  if (!row) throw notFound('User');
  await audit(db, caller, 'user.role_changed', `user:${userId}`, { email: target.email, from: target.role, to: role });
  log.info({ targetUserId: userId, from: target.role, to: role }, 'role changed');
  return { user_id: row.id, role, updated_at: row.updated_at.toISOString() };
}

/** Nobody removes themselves or the owner. The removed user's tokens stop working on their next request. */
export async function removeUser(
  { db, log }: Pick<AppDeps, 'db' | 'log'>,
  caller: Caller,
  userId: string,
): Promise<void> {
  const target = await findUser({ db, tenantId: caller.tenantId, userId });
  if (!target) throw notFound('User');
  if (target.id === caller.userId) throw new AppError('forbidden', 'You cannot remove yourself');
  if (target.role === 'owner') throw new AppError('forbidden', 'The owner cannot be removed');
  if (!(await deleteUser({ db, tenantId: caller.tenantId, userId }))) throw notFound('User');
  await audit(db, caller, 'user.removed', `user:${userId}`, { email: target.email, role: target.role });
  log.info({ targetUserId: userId }, 'user removed');
}
