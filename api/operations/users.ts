import { messageBody } from '../../core/schemas/common';
import {
  changeRoleInput,
  changeRoleOutput,
  inviteUserInput,
  inviteUserOutput,
  listUsersOutput,
} from '../../core/schemas/users';
import { resendInvitation } from '../../core/identity/invitations';
import { changeRole, inviteUser, listTeam, removeUser } from '../../core/identity/users';
import { endpoint } from './operation';

// Accepting an invitation is public (the invitee has no token yet): see auth.ts.

export const userOperations = [
  endpoint({
    operationId: 'listUsers',
    method: 'get',
    path: '/users',
    tag: 'Users',
    access: 'viewer',
    summary: 'The team, oldest first',
    success: { status: 200, description: 'Every user of the tenant', schema: listUsersOutput },
    errors: [],
    handler: ({ deps, caller }) => listTeam(deps, caller),
  }),
  endpoint({
    operationId: 'inviteUser',
    method: 'post',
    path: '/users/invite',
    tag: 'Users',
    access: 'admin',
    summary: 'Invite a user by e-mail',
    description:
      "An address is one user within a tenant: one that somebody of the caller's team has is 409. An address with an " +
      'account in another tenant is invited like any other (its e-mail tells its owner why it cannot accept), so ' +
      'the answer says nothing of other tenants. A refused invitation e-mail still answers 201; its message says so.',
    body: inviteUserInput,
    success: { status: 201, description: 'Invited', schema: inviteUserOutput },
    errors: ['email_taken', 'rate_limited'],
    handler: ({ deps, caller, body }) => inviteUser(deps, caller, body),
  }),
  endpoint({
    operationId: 'resendInvitation',
    method: 'post',
    path: '/users/{user_id}/resend-invite',
    tag: 'Users',
    access: 'admin',
    summary: 'Mail a new invitation link',
    description: 'Earlier links stop working once the new one is out.',
    success: { status: 200, description: 'Sent', schema: messageBody },
    errors: ['not_found', 'invalid_state', 'upstream_failed', 'rate_limited'],
    handler: ({ deps, caller, params }) => resendInvitation(deps, caller, params.user_id),
  }),
  endpoint({
    operationId: 'changeRole',
    method: 'patch',
    path: '/users/{user_id}',
    tag: 'Users',
    access: 'owner',
    summary: "Change a user's role",
    description: "The owner's role never changes (403).",
    body: changeRoleInput,
    success: { status: 200, description: 'Changed', schema: changeRoleOutput },
    errors: ['not_found'],
    handler: ({ deps, caller, params, body }) => changeRole(deps, caller, params.user_id, body.role),
  }),
  endpoint({
    operationId: 'removeUser',
    method: 'delete',
    path: '/users/{user_id}',
    tag: 'Users',
    access: 'admin',
    summary: 'Remove a user',
    description: "Nobody removes themselves or the owner (403). The user's tokens stop working at once.",
    success: { status: 204, description: 'Removed' },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => removeUser(deps, caller, params.user_id),
  }),
];
