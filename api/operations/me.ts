import { meOutput, patchMeInput, patchMeOutput } from '../../core/schemas/me';
import { messageBody } from '../../core/schemas/common';
import { resendVerificationLink } from '../../core/identity/email-verification';
import { getProfile, renameSelf } from '../../core/identity/profile';
import { endpoint } from './operation';

export const meOperations = [
  endpoint({
    operationId: 'getProfile',
    method: 'get',
    path: '/me',
    tag: 'Profile',
    access: 'viewer',
    summary: 'The caller and their tenant',
    description: '`user.email_verified` says whether the caller has proved their address (POST /auth/verify-email).',
    success: { status: 200, description: 'The caller and their tenant', schema: meOutput },
    errors: [],
    handler: ({ deps, caller }) => getProfile(deps, caller),
  }),
  endpoint({
    operationId: 'renameSelf',
    method: 'patch',
    path: '/me',
    tag: 'Profile',
    access: 'viewer',
    summary: "Change one's display name",
    body: patchMeInput,
    success: { status: 200, description: 'The new name', schema: patchMeOutput },
    errors: [],
    handler: ({ deps, caller, body }) => renameSelf(deps, caller, body.name),
  }),
  endpoint({
    operationId: 'resendVerificationEmail',
    method: 'post',
    path: '/me/verify-email',
    tag: 'Profile',
    access: 'viewer',
    summary: "Mail a new link to verify one's e-mail address",
    description:
      'For a caller who has not verified yet (409 `invalid_state` otherwise). A new link ends the older ones. ' +
      'At most 3 per hour.',
    success: { status: 202, description: 'Sent', schema: messageBody },
    errors: ['invalid_state', 'rate_limited', 'upstream_failed'],
    handler: ({ deps, caller }) => resendVerificationLink(deps, caller),
  }),
];
