import { z } from 'zod';
import {
  accountDetail, connectAccountInput, connectAccountOutput, listAccountsOutput, scanAccountOutput, verifyAccountOutput,
} from '../schemas/accounts';
import {
  ackAlertOutput, alertRule, createAlertRuleInput, listAlertRulesOutput, listAlertsOutput, listAlertsQuery, patchAlertRuleInput,
} from '../schemas/alerts';
import { loginInput, logoutInput, refreshInput, signupInput, signupOutput, tokensOutput } from '../schemas/auth';
import { checkoutInput, checkoutOutput, plansOutput, portalOutput, portalQuery, stripeWebhookOutput } from '../schemas/billing';
import { messageBody } from '../schemas/common';
import { csvExportQuery, panicExportInput, panicExportOutput } from '../schemas/exports';
import { healthOutput, readinessOutput } from '../schemas/health';
import { listSlackInstallationsOutput, oauthStartOutput, slackInstallOutcome, slackInstallState } from '../schemas/integrations';
import { meOutput, patchMeInput, patchMeOutput } from '../schemas/me';
import { accountChecksOutput } from '../schemas/checks';
import {
  acceptSignalInput, listSignalsOutput, listSignalsQuery, recoveryChecklistOutput, scoreHistoryOutput, scoreHistoryQuery, signal,
} from '../schemas/signals';
import {
  acceptInviteInput, changeRoleInput, changeRoleOutput, inviteUserInput, inviteUserOutput, listUsersOutput,
} from '../schemas/users';
import { type Operation, PUBLIC } from './registry';

// The one list of what the API serves: method, path, who may call it, what it takes and what it answers. The
// OpenAPI document is built from it, and the tests hold it against Express's routing table both ways.

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const prefixedId = (prefix: string, what: string) =>
  z.string().meta({ description: `${what} (\`${prefix}_\` and 26 characters)`, pattern: `^${prefix}_${ULID}$` });

/** Path parameters, by the name the paths use. The routes read them as strings; an id that cannot be one is a 404. */
export const PATH_PARAMS: Readonly<Record<string, z.ZodType>> = {
  account_id: z.string().meta({ description: 'The 12-digit AWS account id', pattern: '^[0-9]{12}$', examples: ['123456789012'] }),
  rule_id: prefixedId('rule', 'An alert rule id'),
  alert_id: prefixedId('alrt', 'An alert id'),
  user_id: prefixedId('usr', 'A user id'),
  export_id: prefixedId('exp', 'A panic export id'),
  signal_id: prefixedId('sig', 'A signal id'),
  team_id: z.string().meta({ description: 'A Slack workspace id such as T0123ABC', pattern: '^[A-Z0-9]{2,32}$' }),
};

// Inputs checked outside zod: the signed link's parameters (exports/storage.ts) and Stripe's signed event.
const downloadLinkQuery = z.object({
  expires: z.string().meta({ description: 'When the link stops working (Unix seconds)', pattern: '^[0-9]{1,12}$' }),
  signature: z.string().meta({ description: 'HMAC-SHA256 over the export id and the expiry' }),
});
const stripeEvent = z.looseObject({}).meta({ description: 'A Stripe event, exactly as Stripe sent it (the signature covers these bytes)' });
const openApiDocument = z.looseObject({ openapi: z.literal('3.1.0') }).meta({ description: 'This document' });

const ACCOUNT = '/accounts/{account_id}';
const SLACK = '/integrations/slack';
const CHAT = '/integrations/chat';

export const OPERATIONS: readonly Operation[] = [
  {
    operationId: 'health', method: 'get', path: '/healthz', tag: 'Health', access: PUBLIC, database: false, beforeJsonParser: true,
    summary: 'The process is up',
    success: { status: 200, description: 'Up', schema: healthOutput },
    errors: [],
  },
  {
    operationId: 'readiness', method: 'get', path: '/readyz', tag: 'Health', access: PUBLIC, database: false, beforeJsonParser: true,
    summary: 'PostgreSQL and Temporal both answer',
    description: 'For load balancers: 503 with the same body when either dependency does not answer within 2 seconds. '
      + '`cloud_provider` says whether the service scans real AWS accounts or the sandbox\'s demo data.',
    success: { status: 200, description: 'Ready', schema: readinessOutput },
    otherAnswers: [{ status: 503, description: 'Not ready: the body names the dependency that did not answer', schema: readinessOutput }],
    errors: [],
  },
  {
    operationId: 'signup', method: 'post', path: '/auth/signup', tag: 'Authentication', access: PUBLIC,
    summary: 'Create a tenant and its owner',
    description: 'The tenant is named after the user, on the solo plan. E-mail addresses are case-insensitive.',
    body: signupInput,
    success: { status: 201, description: 'Created; log in next', schema: signupOutput },
    errors: ['email_taken'],
  },
  {
    operationId: 'login', method: 'post', path: '/auth/login', tag: 'Authentication', access: PUBLIC,
    summary: 'Log in',
    description: 'The `id_token` is the bearer credential. After 5 failures per e-mail or 20 per client address within 15 '
      + 'minutes, logins answer 429 with `Retry-After`.',
    body: loginInput,
    success: { status: 200, description: 'The token set', schema: tokensOutput },
    errors: ['invalid_credentials', 'rate_limited'],
  },
  {
    operationId: 'refreshTokens', method: 'post', path: '/auth/refresh', tag: 'Authentication', access: PUBLIC,
    summary: 'Exchange a refresh token for a new token set',
    description: 'Refresh tokens are single-use: each refresh rotates them, and presenting a used one revokes all of the user\'s.',
    body: refreshInput,
    success: { status: 200, description: 'A new token set', schema: tokensOutput },
    errors: ['invalid_refresh_token'],
  },
  {
    operationId: 'logout', method: 'post', path: '/auth/logout', tag: 'Authentication', access: PUBLIC,
    summary: 'Revoke a refresh token',
    description: 'Idempotent.',
    body: logoutInput,
    success: { status: 204, description: 'Revoked (or already unknown)' },
    errors: [],
  },
  {
    operationId: 'acceptInvitation', method: 'post', path: '/auth/accept-invite', tag: 'Authentication', access: PUBLIC,
    summary: 'Accept an invitation: set a password and sign in',
    description: 'The token from the invitation link is the proof. Attempts are limited per client address like logins.',
    body: acceptInviteInput,
    success: { status: 200, description: 'The token set, as from login', schema: tokensOutput },
    errors: ['invalid_invitation', 'rate_limited'],
  },
  {
    operationId: 'listPlans', method: 'get', path: '/billing/plans', tag: 'Billing', access: PUBLIC, database: false,
    summary: 'The plan catalogue',
    success: { status: 200, description: 'Every plan', schema: plansOutput },
    errors: [],
  },
  {
    operationId: 'receiveStripeWebhook', method: 'post', path: '/webhooks/stripe', tag: 'Billing', access: PUBLIC, beforeJsonParser: true,
    summary: 'Stripe webhook endpoint',
    description: 'The `Stripe-Signature` header, checked against the exact bytes received (at most 1 MB), is the proof. '
      + 'Events are applied once: a redelivery answers `duplicate: true`. 503 without `STRIPE_WEBHOOK_SECRET`.',
    body: stripeEvent,
    headers: { 'Stripe-Signature': z.string().meta({ description: 'Stripe\'s signature of the body' }) },
    success: { status: 200, description: 'Received', schema: stripeWebhookOutput },
    errors: [
      'invalid_signature', 'invalid_json', 'unsupported_content_type', 'body_too_large', 'billing_not_configured', 'temporal_unavailable',
    ],
  },
  {
    operationId: 'completeSlackInstall', method: 'get', path: '/webhooks/slack/install', aliases: ['/webhooks/chat/install'],
    tag: 'Integrations', access: PUBLIC,
    summary: 'Slack\'s OAuth callback (opened by the browser)',
    description: 'The single-use `state` from `oauth-start` is the proof. A missing or bad state is 400 `invalid_oauth_state`; '
      + 'neither `code` nor `error` is 400 `validation_failed`. Other parameters Slack adds are ignored.',
    query: slackInstallState.extend(slackInstallOutcome.shape),
    success: { status: 200, description: 'A page naming the installed workspace', media: 'text/html' },
    otherAnswers: [{ status: 400, description: 'A page saying the install was cancelled at Slack', media: 'text/html' }],
    errors: ['invalid_oauth_state', 'upstream_failed', 'slack_not_configured'],
  },
  {
    operationId: 'downloadExport', method: 'get', path: '/exports/{export_id}/download', tag: 'Exports', access: PUBLIC,
    summary: 'Download a panic export package (signed link)',
    description: 'The link handed out by the panic export, valid 15 minutes; its signature is the proof.',
    query: downloadLinkQuery,
    success: { status: 200, description: 'The zip package', media: 'application/zip' },
    errors: ['link_invalid', 'link_expired', 'not_found'],
  },
  {
    operationId: 'getProfile', method: 'get', path: '/me', tag: 'Profile', access: 'viewer',
    summary: 'The caller and their tenant',
    success: { status: 200, description: 'The caller and their tenant', schema: meOutput },
    errors: [],
  },
  {
    operationId: 'renameSelf', method: 'patch', path: '/me', tag: 'Profile', access: 'viewer',
    summary: 'Change one\'s display name',
    body: patchMeInput,
    success: { status: 200, description: 'The new name', schema: patchMeOutput },
    errors: [],
  },
  {
    operationId: 'listAccounts', method: 'get', path: '/accounts', tag: 'Accounts', access: 'viewer',
    summary: 'The tenant\'s accounts',
    description: 'Disconnected accounts stay listed with status DISCONNECTED.',
    success: { status: 200, description: 'Every account of the tenant', schema: listAccountsOutput },
    errors: [],
  },
  {
    operationId: 'connectAccount', method: 'post', path: '/accounts', tag: 'Accounts', access: 'member',
    summary: 'Connect an AWS account (step 1 of 2)',
    description: 'Answers a Terraform snippet and an AWS CLI script that create the role to trust. `cloud_account_id` is '
      + 'accepted for `aws_account_id`. Connecting a disconnected account again reopens it with a new ExternalId.',
    body: connectAccountInput,
    success: { status: 201, description: 'Connected, PENDING until verified', schema: connectAccountOutput },
    errors: ['plan_limit_exceeded', 'account_exists', 'temporal_unavailable'],
  },
  {
    operationId: 'getAccount', method: 'get', path: ACCOUNT, tag: 'Accounts', access: 'viewer',
    summary: 'One account',
    success: { status: 200, description: 'The account', schema: accountDetail },
    errors: ['not_found'],
  },
  {
    operationId: 'verifyAccount', method: 'post', path: `${ACCOUNT}/verify`, tag: 'Accounts', access: 'member',
    summary: 'Verify the role (step 2 of 2) and start the first scan',
    description: 'Assumes the role through STS with the ExternalId. Failure is 422 naming the role, the account to trust and '
      + 'the ExternalId. Verifying an ACTIVE account again answers the same body.',
    success: { status: 200, description: 'ACTIVE; the first scan is running', schema: verifyAccountOutput },
    errors: ['not_found', 'invalid_state', 'role_assumption_failed', 'temporal_unavailable', 'verification_unavailable'],
  },
  {
    operationId: 'scanAccount', method: 'post', path: `${ACCOUNT}/scan`, tag: 'Accounts', access: 'member',
    summary: 'Start a scan now',
    description: 'Counts toward the plan\'s manual scans per account and hour (429 with `Retry-After` past it).',
    success: { status: 202, description: 'The scan runs asynchronously', schema: scanAccountOutput },
    errors: ['not_found', 'invalid_state', 'rate_limited', 'temporal_unavailable'],
  },
  {
    operationId: 'disconnectAccount', method: 'delete', path: ACCOUNT, tag: 'Accounts', access: 'member',
    summary: 'Disconnect an account',
    description: 'Scheduled scans stop; the role in the AWS account is not removed. Idempotent.',
    success: { status: 200, description: 'Disconnected', schema: messageBody },
    errors: ['not_found', 'invalid_state', 'temporal_unavailable'],
  },
  {
    operationId: 'listSignals', method: 'get', path: `${ACCOUNT}/signals`, tag: 'Signals', access: 'viewer',
    summary: 'The account\'s signals (findings), newest first',
    description: 'Open and resolved together unless `status` says otherwise. `next_token` is the opaque cursor of the '
      + 'previous page. Unknown query parameters are 400.',
    query: listSignalsQuery,
    success: { status: 200, description: 'One page of signals', schema: listSignalsOutput },
    errors: ['not_found', 'invalid_cursor'],
  },
  {
    operationId: 'acceptSignal', method: 'post', path: `${ACCOUNT}/signals/{signal_id}/accept`, tag: 'Signals', access: 'member',
    summary: 'Accept a signal\'s risk',
    description: 'For a risk that is meant to be there (a break-glass admin role, a GPU fleet that is meant to run). The signal '
      + 'stays listed, with `accepted`; it counts in no score (the account is re-scored at once) and fires no alert until the '
      + 'acceptance is undone or expires. Accepting an accepted signal replaces its acceptance. Every acceptance is kept and '
      + 'exported. A resolved signal is 409.',
    body: acceptSignalInput,
    success: { status: 200, description: 'The signal', schema: signal },
    errors: ['not_found', 'invalid_state'],
  },
  {
    operationId: 'undoSignalAcceptance', method: 'delete', path: `${ACCOUNT}/signals/{signal_id}/accept`, tag: 'Signals', access: 'member',
    summary: 'Undo a signal\'s acceptance',
    description: 'The signal counts again (the account is re-scored at once). Idempotent: a signal without an acceptance in '
      + 'force is answered as it is.',
    success: { status: 200, description: 'The signal', schema: signal },
    errors: ['not_found'],
  },
  {
    operationId: 'listChecks', method: 'get', path: `${ACCOUNT}/checks`, tag: 'Signals', access: 'viewer',
    summary: 'Every check and its outcome in the latest scan: the account\'s coverage',
    description: 'One entry per check of the catalogue: `passed`, `failed` (with the number of failing resources) or '
      + '`not_evaluated` with the reason, and the regions or resources it could not read. Before the first scan every check '
      + 'is `not_evaluated`.',
    success: { status: 200, description: 'The checks', schema: accountChecksOutput },
    errors: ['not_found'],
  },
  {
    operationId: 'getScoreHistory', method: 'get', path: `${ACCOUNT}/score-history`, tag: 'Signals', access: 'viewer',
    summary: 'The daily Security Risk Score, newest first',
    description: 'One point per UTC day with a scan: the score of that day\'s last scan.',
    query: scoreHistoryQuery,
    success: { status: 200, description: 'The history', schema: scoreHistoryOutput },
    errors: ['not_found'],
  },
  {
    operationId: 'getRecoveryChecklist', method: 'get', path: `${ACCOUNT}/recovery-checklist`, tag: 'Signals', access: 'viewer',
    summary: 'What to fix first',
    description: 'One step per failing check, most urgent first; a healthy account gets a baseline hardening list.',
    success: { status: 200, description: 'The checklist', schema: recoveryChecklistOutput },
    errors: ['not_found'],
  },
  {
    operationId: 'exportSignalsCsv', method: 'get', path: `${ACCOUNT}/export`, tag: 'Exports', access: 'viewer',
    summary: 'Every signal of the account as CSV',
    description: 'RFC 4180, UTF-8, streamed. Plans team, agency and enterprise. No query parameters.',
    query: csvExportQuery,
    success: { status: 200, description: 'The CSV file (an attachment)', media: 'text/csv' },
    errors: ['not_found', 'plan_feature_unavailable'],
  },
  {
    operationId: 'panicExport', method: 'post', path: `${ACCOUNT}/panic`, tag: 'Exports', access: 'member',
    summary: 'Build an emergency export package and get a download link',
    description: 'No body (an empty object is accepted). The link is valid 15 minutes. At most 10 per account and hour.',
    body: panicExportInput, bodyOptional: true,
    success: { status: 200, description: 'The package is stored', schema: panicExportOutput },
    errors: ['not_found', 'rate_limited', 'temporal_unavailable', 'export_failed'],
  },
  {
    operationId: 'listAlertRules', method: 'get', path: '/alert-rules', tag: 'Alert rules', access: 'viewer',
    summary: 'The tenant\'s alert rules, oldest first',
    success: { status: 200, description: 'Every rule', schema: listAlertRulesOutput },
    errors: [],
  },
  {
    operationId: 'createAlertRule', method: 'post', path: '/alert-rules', tag: 'Alert rules', access: 'member',
    summary: 'Create an alert rule',
    description: 'Channel types `chat` and `paging` are accepted for `slack` and `pagerduty`. A Slack `team_id` must be '
      + 'installed for the tenant; a `webhook_url` must be under the configured Slack prefix.',
    body: createAlertRuleInput,
    success: { status: 201, description: 'The rule', schema: alertRule },
    errors: [],
  },
  {
    operationId: 'patchAlertRule', method: 'patch', path: '/alert-rules/{rule_id}', tag: 'Alert rules', access: 'member',
    summary: 'Change an alert rule',
    description: 'Any of the fields; lists are replaced, not merged.',
    body: patchAlertRuleInput,
    success: { status: 200, description: 'The updated rule', schema: alertRule },
    errors: ['not_found'],
  },
  {
    operationId: 'deleteAlertRule', method: 'delete', path: '/alert-rules/{rule_id}', tag: 'Alert rules', access: 'member',
    summary: 'Delete an alert rule',
    description: 'Its alerts stay listed.',
    success: { status: 200, description: 'Deleted', schema: messageBody },
    errors: ['not_found'],
  },
  {
    operationId: 'listAlerts', method: 'get', path: '/alerts', tag: 'Alerts', access: 'viewer',
    summary: 'The tenant\'s alerts, newest first',
    description: '`next_token` is the opaque cursor of the previous page. Unknown query parameters are 400.',
    query: listAlertsQuery,
    success: { status: 200, description: 'One page of alerts', schema: listAlertsOutput },
    errors: ['invalid_cursor'],
  },
  {
    operationId: 'acknowledgeAlert', method: 'post', path: '/alerts/{alert_id}/ack', tag: 'Alerts', access: 'member',
    summary: 'Acknowledge an alert',
    description: 'Idempotent: acknowledging again answers the first acknowledgement\'s time.',
    success: { status: 200, description: 'Acknowledged', schema: ackAlertOutput },
    errors: ['not_found'],
  },
  {
    operationId: 'listUsers', method: 'get', path: '/users', tag: 'Users', access: 'viewer',
    summary: 'The team, oldest first',
    success: { status: 200, description: 'Every user of the tenant', schema: listUsersOutput },
    errors: [],
  },
  {
    operationId: 'inviteUser', method: 'post', path: '/users/invite', tag: 'Users', access: 'admin',
    summary: 'Invite a user by e-mail',
    description: 'E-mail addresses are unique across all tenants. A refused invitation e-mail still answers 201; its message says so.',
    body: inviteUserInput,
    success: { status: 201, description: 'Invited', schema: inviteUserOutput },
    errors: ['email_taken'],
  },
  {
    operationId: 'resendInvitation', method: 'post', path: '/users/{user_id}/resend-invite', tag: 'Users', access: 'admin',
    summary: 'Mail a new invitation link',
    description: 'Earlier links stop working once the new one is out.',
    success: { status: 200, description: 'Sent', schema: messageBody },
    errors: ['not_found', 'invalid_state', 'upstream_failed'],
  },
  {
    operationId: 'changeRole', method: 'patch', path: '/users/{user_id}', tag: 'Users', access: 'owner',
    summary: 'Change a user\'s role',
    description: 'The owner\'s role never changes (403).',
    body: changeRoleInput,
    success: { status: 200, description: 'Changed', schema: changeRoleOutput },
    errors: ['not_found'],
  },
  {
    operationId: 'removeUser', method: 'delete', path: '/users/{user_id}', tag: 'Users', access: 'admin',
    summary: 'Remove a user',
    description: 'Nobody removes themselves or the owner (403). The user\'s tokens stop working at once.',
    success: { status: 204, description: 'Removed' },
    errors: ['not_found'],
  },
  {
    operationId: 'startSlackInstall', method: 'get', path: `${SLACK}/oauth-start`, aliases: [`${CHAT}/oauth-start`],
    tag: 'Integrations', access: 'admin',
    summary: 'Start installing the Slack app',
    description: 'Send the user to `oauth_url`; Slack then calls back on `/webhooks/slack/install`. The state is valid 10 minutes.',
    success: { status: 200, description: 'Where to send the user', schema: oauthStartOutput },
    errors: ['slack_not_configured'],
  },
  {
    operationId: 'listSlackWorkspaces', method: 'get', path: SLACK, aliases: [CHAT], tag: 'Integrations', access: 'viewer',
    summary: 'The tenant\'s installed Slack workspaces, oldest first',
    success: { status: 200, description: 'Every installation (never its token)', schema: listSlackInstallationsOutput },
    errors: [],
  },
  {
    operationId: 'removeSlackWorkspace', method: 'delete', path: `${SLACK}/{team_id}`, aliases: [`${CHAT}/{team_id}`],
    tag: 'Integrations', access: 'admin',
    summary: 'Forget a Slack workspace and its bot token',
    success: { status: 200, description: 'Removed', schema: messageBody },
    errors: ['not_found'],
  },
  {
    operationId: 'startCheckout', method: 'post', path: '/billing/checkout', tag: 'Billing', access: 'owner',
    summary: 'Open a Stripe Checkout session for a plan',
    description: '503 without Stripe keys (before the body is read). A tenant with a live subscription gets 409: plan '
      + 'changes go through the portal.',
    body: checkoutInput,
    success: { status: 200, description: 'Where to send the user', schema: checkoutOutput },
    errors: ['billing_not_configured', 'conflict', 'upstream_failed'],
  },
  {
    operationId: 'openBillingPortal', method: 'get', path: '/billing/portal', tag: 'Billing', access: 'owner',
    summary: 'Open the Stripe Billing Portal',
    description: '503 without Stripe keys; 409 before any checkout. Unknown query parameters are 400.',
    query: portalQuery,
    success: { status: 200, description: 'Where to send the user', schema: portalOutput },
    errors: ['billing_not_configured', 'no_billing_customer', 'upstream_failed'],
  },
  {
    operationId: 'getOpenApiDocument', method: 'get', path: '/openapi.json', tag: 'Documentation', access: PUBLIC, database: false,
    summary: 'This document (OpenAPI 3.1)',
    success: { status: 200, description: 'The document', schema: openApiDocument },
    errors: [],
  },
  {
    operationId: 'getApiDocs', method: 'get', path: '/docs', tag: 'Documentation', access: PUBLIC, database: false,
    summary: 'Interactive documentation of this document',
    success: { status: 200, description: 'An HTML page (its scripts and styles are served under /docs/)', media: 'text/html' },
    errors: [],
  },
];
