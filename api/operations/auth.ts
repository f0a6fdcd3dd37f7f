import { PUBLIC } from '../openapi/registry';
import {
  loginInput,
  logoutInput,
  passwordResetConfirmInput,
  passwordResetInput,
  refreshInput,
  signupInput,
  signupOutput,
  tokensOutput,
} from '../../core/schemas/auth';
import { messageBody } from '../../core/schemas/common';
import { verifyEmailInput } from '../../core/schemas/email';
import { acceptInviteInput } from '../../core/schemas/users';
import { login, logout, refresh, signup } from '../../core/identity/auth';
import { acceptInvitation } from '../../core/identity/invitations';
import { verifyEmail } from '../../core/identity/email-verification';
import { confirmPasswordReset, requestPasswordReset } from '../../core/identity/password-reset';
import { endpoint } from './operation';

// Public: there is no bearer token yet. Logins and invitation attempts are counted per client address (an IPv4
// address, or an IPv6 /64: domain/tenancy/client-address.ts).

export const authOperations = [
  endpoint({
    operationId: 'signup',
    method: 'post',
    path: '/auth/signup',
    tag: 'Authentication',
    access: PUBLIC,
    summary: 'Create a tenant and its owner',
    description:
      'The tenant is named after the user, on the solo plan. E-mail addresses are case-insensitive. At most ' +
      '`SIGNUPS_PER_CLIENT_PER_HOUR` (10 unless configured) sign-ups per client address (an IPv6 /64 counts as one) ' +
      'per hour, then 429 with `Retry-After`.',
    body: signupInput,
    success: { status: 201, description: 'Created; log in next', schema: signupOutput },
    errors: ['email_taken', 'rate_limited'],
    handler: ({ deps, body, req }) => signup(deps, { ...body, clientAddress: req.ip ?? 'unknown' }),
  }),
  endpoint({
    operationId: 'login',
    method: 'post',
    path: '/auth/login',
    tag: 'Authentication',
    access: PUBLIC,
    summary: 'Log in',
    description:
      'The `id_token` is the bearer credential, good until it expires or its session ends (logout, a refresh ' +
      'token presented twice, a password reset). A client address counts as one with its IPv6 /64. After 5 ' +
      'failures for an e-mail from one client address or 20 from one client address within 15 minutes, that ' +
      'address is refused; after 10 failures for an e-mail from any addresses within 15 minutes, or 30 within a ' +
      'day, every address that never signed in to that account is refused, while one that did is not. Refused ' +
      'logins answer 429 with `Retry-After`, even with the right password.',
    body: loginInput,
    success: { status: 200, description: 'The token set', schema: tokensOutput },
    errors: ['invalid_credentials', 'rate_limited'],
    handler: ({ deps, body, req }) => login(deps, { ...body, clientAddress: req.ip ?? 'unknown' }),
  }),
  endpoint({
    operationId: 'refreshTokens',
    method: 'post',
    path: '/auth/refresh',
    tag: 'Authentication',
    access: PUBLIC,
    summary: 'Exchange a refresh token for a new token set',
    description:
      'Refresh tokens are single-use: each refresh rotates them within their session. Presenting a used one ends ' +
      "every session of the user: all of the user's refresh tokens and id tokens stop working at once.",
    body: refreshInput,
    success: { status: 200, description: 'A new token set', schema: tokensOutput },
    errors: ['invalid_refresh_token'],
    handler: ({ deps, body }) => refresh(deps, body.refresh_token),
  }),
  endpoint({
    operationId: 'logout',
    method: 'post',
    path: '/auth/logout',
    tag: 'Authentication',
    access: PUBLIC,
    summary: 'End the session of a refresh token',
    description:
      'Revokes the refresh token and ends its session: the id tokens issued in it are refused (401) from the next ' +
      'request on. Idempotent.',
    body: logoutInput,
    success: { status: 204, description: 'Revoked (or already unknown)' },
    errors: [],
    handler: ({ deps, body }) => logout(deps, body.refresh_token),
  }),
  endpoint({
    operationId: 'acceptInvitation',
    method: 'post',
    path: '/auth/accept-invite',
    tag: 'Authentication',
    access: PUBLIC,
    summary: 'Accept an invitation: set a password and sign in',
    description:
      'The token from the invitation link is the proof. Attempts are limited per client address like logins. An ' +
      'address that already signs in to an account (in another tenant) cannot accept: 409 `email_taken`.',
    body: acceptInviteInput,
    success: { status: 200, description: 'The token set, as from login', schema: tokensOutput },
    errors: ['invalid_invitation', 'email_taken', 'rate_limited'],
    handler: ({ deps, body, req }) => acceptInvitation(deps, { ...body, clientAddress: req.ip ?? 'unknown' }),
  }),
  endpoint({
    operationId: 'requestPasswordReset',
    method: 'post',
    path: '/auth/password-reset',
    tag: 'Authentication',
    access: PUBLIC,
    summary: 'Mail a password reset link',
    description:
      'Always 202 with the same message, whether or not an account uses the address: the e-mail is sent after the ' +
      'answer. The link works once, for one hour; a newer link ends older ones. At most 10 requests per client ' +
      'address and 3 per address per hour.',
    body: passwordResetInput,
    success: { status: 202, description: 'Accepted', schema: messageBody },
    errors: ['rate_limited'],
    handler: ({ deps, body, req }) =>
      requestPasswordReset(deps, { email: body.email, clientAddress: req.ip ?? 'unknown' }),
  }),
  endpoint({
    operationId: 'confirmPasswordReset',
    method: 'post',
    path: '/auth/password-reset/confirm',
    tag: 'Authentication',
    access: PUBLIC,
    summary: 'Set a new password through a reset link',
    description:
      'The token from the link is the proof. Every session of the user ends (refresh and id tokens); log in ' +
      'afterwards. At most 20 attempts per client address within 15 minutes (a successful one not counted), then 429.',
    body: passwordResetConfirmInput,
    success: { status: 200, description: 'The password is set', schema: messageBody },
    errors: ['invalid_reset_token', 'rate_limited'],
    handler: ({ deps, body, req }) => confirmPasswordReset(deps, { ...body, clientAddress: req.ip ?? 'unknown' }),
  }),
  endpoint({
    operationId: 'verifyEmail',
    method: 'post',
    path: '/auth/verify-email',
    tag: 'Authentication',
    access: PUBLIC,
    summary: 'Verify an e-mail address through the link sent at sign-up',
    description:
      'The token from the link is the proof; it works once, for 72 hours. Until the owner of a tenant has ' +
      'verified, the tenant sends no alert e-mail, to the owner neither (held), and invitations wait (they are ' +
      'sent at this moment). An accepted invitation or a password reset verifies the address too.',
    body: verifyEmailInput,
    success: { status: 200, description: 'Verified', schema: messageBody },
    errors: ['invalid_verification_token'],
    handler: ({ deps, body, req }) => verifyEmail(deps, { token: body.token, clientAddress: req.ip ?? 'unknown' }),
  }),
];
