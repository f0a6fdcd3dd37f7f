import {
  accountDetail,
  connectAccountInput,
  connectAccountOutput,
  listAccountsOutput,
  listAccountsQuery,
  scanAccountOutput,
  verifyAccountOutput,
} from '../../core/schemas/accounts';
import { messageBody } from '../../core/schemas/common';
import {
  connectAccount,
  disconnectAccount,
  getAccount,
  listTenantAccounts,
  requestScan,
  verifyAccount,
} from '../../core/accounts/accounts';
import { endpoint } from './operation';

export const ACCOUNT = '/accounts/{account_id}';

export const accountOperations = [
  endpoint({
    operationId: 'listAccounts',
    method: 'get',
    path: '/accounts',
    tag: 'Accounts',
    access: 'viewer',
    summary: "The tenant's accounts",
    description:
      'Disconnected accounts stay listed with status DISCONNECTED. Filters combine (`tag`, `status`, `srs_below`); ' +
      '`total` counts every account that matches, on all pages. A page holds up to 250 accounts by default, every account ' +
      'a plan allows; `next_token` is the opaque cursor of the next page (null on the last) and belongs to the `sort` it ' +
      'was given with. Unknown query parameters are 400.',
    query: listAccountsQuery,
    success: { status: 200, description: "One page of the tenant's accounts", schema: listAccountsOutput },
    errors: ['invalid_cursor'],
    handler: ({ deps, caller, query }) => listTenantAccounts(deps, caller, query),
  }),
  endpoint({
    operationId: 'connectAccount',
    method: 'post',
    path: '/accounts',
    tag: 'Accounts',
    access: 'member',
    summary: 'Connect an AWS account (step 1 of 2)',
    description:
      'Answers three equivalent ways to create the role to trust: a Terraform snippet, an AWS CLI script and a ' +
      'CloudFormation template, with a one-click quick-create link for the template when the service publishes it (else null). ' +
      '`cloud_account_id` is accepted for `aws_account_id`. Connecting a disconnected account again reopens it with a new ExternalId.',
    body: connectAccountInput,
    success: { status: 201, description: 'Connected, PENDING until verified', schema: connectAccountOutput },
    errors: ['plan_limit_exceeded', 'account_exists', 'temporal_unavailable'],
    handler: ({ deps, caller, body }) => connectAccount(deps, caller, body),
  }),
  endpoint({
    operationId: 'getAccount',
    method: 'get',
    path: ACCOUNT,
    tag: 'Accounts',
    access: 'viewer',
    summary: 'One account',
    success: { status: 200, description: 'The account', schema: accountDetail },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => getAccount(deps, caller, params.account_id),
  }),
  endpoint({
    operationId: 'verifyAccount',
    method: 'post',
    path: `${ACCOUNT}/verify`,
    tag: 'Accounts',
    access: 'member',
    summary: 'Verify the role (step 2 of 2) and start the first scan',
    description:
      'Assumes the role through STS with the ExternalId. Failure is 422 naming the role, the account to trust and ' +
      'the ExternalId. Verifying an ACTIVE account again answers the same body. At most 10 attempts per account an ' +
      "hour, its organization's syncs included (429 past it).",
    success: { status: 200, description: 'ACTIVE; the first scan is running', schema: verifyAccountOutput },
    errors: [
      'not_found',
      'invalid_state',
      'role_assumption_failed',
      'rate_limited',
      'temporal_unavailable',
      'verification_unavailable',
    ],
    handler: ({ deps, caller, params }) => verifyAccount(deps, caller, params.account_id),
  }),
  endpoint({
    operationId: 'scanAccount',
    method: 'post',
    path: `${ACCOUNT}/scan`,
    tag: 'Accounts',
    access: 'member',
    summary: 'Start a scan now',
    description: "Counts toward the plan's manual scans per account and hour (429 with `Retry-After` past it).",
    success: { status: 202, description: 'The scan runs asynchronously', schema: scanAccountOutput },
    errors: ['not_found', 'invalid_state', 'rate_limited', 'temporal_unavailable'],
    handler: ({ deps, caller, params }) => requestScan(deps, caller, params.account_id),
  }),
  endpoint({
    operationId: 'disconnectAccount',
    method: 'delete',
    path: ACCOUNT,
    tag: 'Accounts',
    access: 'member',
    summary: 'Disconnect an account',
    description:
      "Scheduled scans stop and the account's event keys stop working (connecting it again issues a new one); the role " +
      'in the AWS account is not removed. Idempotent.',
    success: { status: 200, description: 'Disconnected', schema: messageBody },
    errors: ['not_found', 'invalid_state', 'temporal_unavailable'],
    handler: ({ deps, caller, params }) => disconnectAccount(deps, caller, params.account_id),
  }),
];
