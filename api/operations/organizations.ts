import {
  connectOrganizationInput,
  connectOrganizationOutput,
  listOrganizationsOutput,
  organizationDetail,
  removeOrganizationOutput,
  removeOrganizationQuery,
  syncOrganizationOutput,
  verifyOrganizationOutput,
} from '../../core/schemas/organizations';
import {
  connectOrganization,
  getOrganization,
  listTenantOrganizations,
  removeOrganization,
  syncOrganizationNow,
  verifyOrganization,
} from '../../core/organizations/organizations';
import { endpoint } from './operation';

export const ORGANIZATION = '/organizations/{org_id}';

export const organizationOperations = [
  endpoint({
    operationId: 'listOrganizations',
    method: 'get',
    path: '/organizations',
    tag: 'Organizations',
    access: 'viewer',
    summary: "The tenant's AWS Organizations",
    description: 'Each with its member accounts counted by state. Disconnected organizations stay listed.',
    success: { status: 200, description: 'Every organization of the tenant', schema: listOrganizationsOutput },
    errors: [],
    handler: ({ deps, caller }) => listTenantOrganizations(deps, caller),
  }),
  endpoint({
    operationId: 'connectOrganization',
    method: 'post',
    path: '/organizations',
    tag: 'Organizations',
    access: 'member',
    summary: 'Connect an AWS Organization (step 1 of 2)',
    description:
      'Answers one ExternalId for the whole organization, the read-only role to create in the management account ' +
      '(CloudFormation, Terraform, CLI) and a StackSet template that creates the member role in every account. The ' +
      "plan's `organization_limit` bounds the organizations connected at once (403 `plan_limit_exceeded` past it).",
    body: connectOrganizationInput,
    success: { status: 201, description: 'Connected, PENDING until verified', schema: connectOrganizationOutput },
    errors: ['conflict', 'plan_limit_exceeded', 'temporal_unavailable'],
    handler: ({ deps, caller, body }) => connectOrganization(deps, caller, body),
  }),
  endpoint({
    operationId: 'getOrganization',
    method: 'get',
    path: ORGANIZATION,
    tag: 'Organizations',
    access: 'viewer',
    summary: 'One organization and its member accounts',
    success: { status: 200, description: 'The organization', schema: organizationDetail },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => getOrganization(deps, caller, params.org_id),
  }),
  endpoint({
    operationId: 'verifyOrganization',
    method: 'post',
    path: `${ORGANIZATION}/verify`,
    tag: 'Organizations',
    access: 'member',
    summary: 'Verify the management role (step 2 of 2) and sync the member accounts',
    description:
      'Assumes the management role with the ExternalId and lists the organization. Failure is 422 naming the role, the ' +
      'account to trust and the ExternalId. The first sync then runs at once.',
    success: { status: 200, description: 'ACTIVE; the first sync is running', schema: verifyOrganizationOutput },
    errors: [
      'not_found',
      'invalid_state',
      'role_assumption_failed',
      'rate_limited',
      'temporal_unavailable',
      'verification_unavailable',
    ],
    handler: ({ deps, caller, params }) => verifyOrganization(deps, caller, params.org_id),
  }),
  endpoint({
    operationId: 'syncOrganization',
    method: 'post',
    path: `${ORGANIZATION}/sync`,
    tag: 'Organizations',
    access: 'member',
    summary: 'Sync the member accounts now',
    description:
      'For instance after deploying the StackSet: accounts whose role has appeared are verified without waiting for the next sync. ' +
      'At most 10 requests per organization and 20 per tenant an hour (429 past either). Each member account still ' +
      "waiting for its role is verified, and that attempt counts toward the account's 10 verify attempts an hour.",
    success: { status: 202, description: 'The sync runs asynchronously', schema: syncOrganizationOutput },
    errors: ['not_found', 'invalid_state', 'rate_limited', 'temporal_unavailable'],
    handler: ({ deps, caller, params }) => syncOrganizationNow(deps, caller, params.org_id),
  }),
  endpoint({
    operationId: 'disconnectOrganization',
    method: 'delete',
    path: ORGANIZATION,
    tag: 'Organizations',
    access: 'member',
    summary: 'Disconnect an organization',
    description:
      'Syncs stop. The accounts it connected stay connected unless `disconnect_accounts=true`. The roles in AWS are not removed. Idempotent.',
    query: removeOrganizationQuery,
    success: { status: 200, description: 'Disconnected', schema: removeOrganizationOutput },
    errors: ['not_found', 'invalid_state', 'temporal_unavailable'],
    handler: ({ deps, caller, params, query }) => removeOrganization(deps, caller, params.org_id, query),
  }),
];
