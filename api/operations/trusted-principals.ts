import { messageBody } from '../../core/schemas/common';
import {
  createTrustedPrincipalInput,
  listTrustedPrincipalsOutput,
  listTrustedPrincipalsQuery,
  trustedPrincipal,
} from '../../core/schemas/trusted-principals';
import {
  createTrustedPrincipal,
  deleteTrustedPrincipal,
  listTenantTrustedPrincipals,
} from '../../core/events/trusted-principals';
import { MAX_TRUSTED_PRINCIPAL_DAYS } from '../../domain/events/trusted-principals';
import { TRUSTED_PRINCIPALS_PER_TENANT } from '../../domain/tenancy/limits';
import { endpoint } from './operation';

export const trustedPrincipalOperations = [
  endpoint({
    operationId: 'listTrustedPrincipals',
    method: 'get',
    path: '/trusted-principals',
    tag: 'Trusted principals',
    access: 'viewer',
    summary: "The tenant's trusted principals, newest first",
    description:
      'Those in force (default), or with `status=all` also the revoked and expired ones (at most 200). An event a ' +
      'trusted principal made lists the detections it suppressed in its `suppressed` (GET .../events).',
    query: listTrustedPrincipalsQuery,
    success: { status: 200, description: 'The trusted principals', schema: listTrustedPrincipalsOutput },
    errors: [],
    handler: ({ deps, caller, query }) => listTenantTrustedPrincipals(deps, caller, query),
  }),
  endpoint({
    operationId: 'createTrustedPrincipal',
    method: 'post',
    path: '/trusted-principals',
    tag: 'Trusted principals',
    access: 'admin',
    summary: 'Trust a principal (a CI or Terraform role) for some event detections or all',
    description:
      "The principal's calls are stored and listed as any, but open no signal and fire no alert for the detections " +
      `named, in one of the tenant's accounts or all, until \`expires_at\` (required, at most ${MAX_TRUSTED_PRINCIPAL_DAYS} ` +
      'days ahead) or until revoked. A role ARN covers every session of the role. 400 naming the field for an ARN ' +
      'that is not a role, user or role session of an account, an unknown detection, a missing reason or an expiry ' +
      `in the past or too far; at most ${TRUSTED_PRINCIPALS_PER_TENANT} in force per tenant (then 403 ` +
      '`plan_limit_exceeded`). Recorded in the audit log.',
    body: createTrustedPrincipalInput,
    success: { status: 201, description: 'The trusted principal', schema: trustedPrincipal },
    errors: ['plan_limit_exceeded'],
    handler: ({ deps, caller, body }) => createTrustedPrincipal(deps, caller, body),
  }),
  endpoint({
    operationId: 'deleteTrustedPrincipal',
    method: 'delete',
    path: '/trusted-principals/{trusted_principal_id}',
    tag: 'Trusted principals',
    access: 'admin',
    summary: 'Revoke a trusted principal',
    description:
      "From this answer on, the principal's events open signals again. It stays listed with `status=all`; recorded " +
      'in the audit log. One revoked before is 404.',
    success: { status: 200, description: 'Revoked', schema: messageBody },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => deleteTrustedPrincipal(deps, caller, params.trusted_principal_id),
  }),
];
