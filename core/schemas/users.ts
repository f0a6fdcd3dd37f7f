import { z } from 'zod';
import { ASSIGNABLE_ROLES } from '../../domain/tenancy/roles';
import { signupInput } from './auth';
import { displayName, email, timestamp } from './common';
import { user } from './me';

// `owner` is never assignable: ownership is fixed at signup.
const assignableRole = z.enum(ASSIGNABLE_ROLES, { error: 'must be one of admin, member, viewer' });

export const teamUser = user.extend({
  // Extension: `invited` until the user accepts the invitation and sets a password.
  status: z.enum(['active', 'invited']),
});
export const listUsersOutput = z.object({ users: z.array(teamUser), total: z.number().int() });

export const inviteUserInput = z.strictObject({ email, name: displayName, role: assignableRole.default('member') });
export const inviteUserOutput = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: assignableRole,
  message: z.string(),
});

export const changeRoleInput = z.strictObject({ role: assignableRole });
export const changeRoleOutput = z.object({ user_id: z.string(), role: assignableRole, updated_at: timestamp });

export const acceptInviteInput = z.strictObject({
  token: z.string().min(1, 'is required').max(512, 'must be at most 512 characters'),
  password: signupInput.shape.password,
  name: displayName.optional(),
});

export type InviteUserInput = z.output<typeof inviteUserInput>;
export type AcceptInviteInput = z.output<typeof acceptInviteInput>;
