import type { AuthorizationRole, AuthorizationUser, IamAuthorization, PolicyJson } from '../scans/iam-authorization';
import {
  accountOfResource,
  allOf,
  anyOf,
  evaluateCompiled,
  type PrincipalPolicies,
  principalFromArn,
  type RequestPrincipal,
  type ResourcePolicy,
} from './policy-evaluation';
import { type CompiledPolicy, compilePolicy, PatternCache } from './policy-statements';
import type { Evaluation, PermissionOracle } from './types';

// The account's effective permissions as the attack-path analysis asks them (PermissionOracle), over the IAM
// documents the scan read (IamAuthorization), by policy-evaluation.ts's rules:
// - a user weighs its inline and attached policies and those of its groups, a role its own; each its boundary;
// - every principal of the account weighs the service control policies' levels, when they were read. When they
//   could not be (`read: false`, a member account), they are not weighed: a request they would deny may show as
//   allowed. The part's reason says so, and SCPs cannot grant, so nothing is shown denied because of them;
// - every request on a resource of the account, whoever makes it, weighs the resource control policies' levels, by
//   the same rule when they could not be read. AWS exempts two cases, left out too: service-linked roles (the
//   documents leave them out; one asked about by ARN is recognised by its path), and AWS managed KMS keys, which
//   their ARN does not tell from the account's own: RCPs are weighed on a key only when its policy is given (the
//   scan reads customer managed keys' only). An S3 ARN names no account: a bucket is taken as the account's;
// - the resource's policy, when one is known: a role's trust policy for sts:AssumeRole and its kin (from the
//   documents), else the one given in `resourcePolicies` by ARN (an S3 object's is its bucket's). A KMS key's or an
//   unknown role's policy that is not given is unread: it must allow itself, so the request is 'possible' at best;
// - a principal the documents do not hold (another account's, a service-linked role) has unknown identity policies.
//
// Speed: the large accounts hold thousands of roles and managed policies and the escalation search asks many
// questions of each principal, so every document is compiled once (a managed policy once for all its holders),
// each principal's set is gathered on its first question and kept, and each policy remembers the statements that
// name an action (policy-statements.ts).

export interface OracleOptions {
  /** Resource policies by resource ARN (buckets, keys, queues, ...), parsed. */
  resourcePolicies?: ReadonlyMap<string, PolicyJson>;
  /** The account's id; absent: the one its principals' ARNs name. */
  accountId?: string;
}

/** sts actions IAM authorizes against the role's trust policy. */
const TRUST_ACTIONS = new Set([
  'sts:assumerole',
  'sts:assumerolewithsaml',
  'sts:assumerolewithwebidentity',
  'sts:tagsession',
  'sts:setsourceidentity',
]);

const ROLE_ARN = /^arn:[^:]+:iam::\d{12}:role\//;
const SERVICE_LINKED_ROLE_ARN = /^arn:[^:]+:iam::\d{12}:role\/aws-service-role\//;
const KMS_KEY_ARN = /^arn:[^:]+:kms:[^:]*:\d{12}:key\//;
const S3_OBJECT_ARN = /^(arn:[^:]+:s3:::[^/]+)\/./;

interface Prepared {
  principal: RequestPrincipal;
  policies: PrincipalPolicies;
}

export function permissionOracle(iam: IamAuthorization, options: OracleOptions = {}): PermissionOracle {
  const cache = new PatternCache();
  const accountId =
    options.accountId ?? [...iam.users, ...iam.roles].map((p) => accountOfResource(p.arn)).find((a) => a) ?? null;
  const documents = new Map(iam.policies.map((p) => [p.arn, p.document]));
  const users = new Map(iam.users.map((u) => [u.arn, u]));
  const roles = new Map(iam.roles.map((r) => [r.arn, r]));
  const groups = new Map(iam.groups.map((g) => [g.name, g]));

  const compiled = new Map<string, CompiledPolicy>();
  /** A policy compiled once under its name; a managed policy the documents do not hold is unread. */
  const once = (policy: string, document: () => PolicyJson | null | undefined): CompiledPolicy => {
    let found = compiled.get(policy);
    if (!found) {
      found = compilePolicy({ policy, document: document() ?? null }, cache);
      compiled.set(policy, found);
    }
    return found;
  };
  const managed = (arn: string) => once(arn, () => documents.get(arn));
  const inline = (owner: string, name: string, document: PolicyJson | null) =>
    once(`inline:${owner}/${name}`, () => document);
  const boundary = (arn: string | null) => (arn ? once(`boundary:${arn}`, () => documents.get(arn)) : null);

  const levels = (of: IamAuthorization['serviceControlPolicies' | 'resourceControlPolicies'], prefix: string) =>
    of.read ? of.levels.map((level) => level.policies.map((p) => once(`${prefix}:${p.id}`, () => p.document))) : null;
  const serviceControlPolicies = levels(iam.serviceControlPolicies, 'scp');
  const resourceControlPolicies = levels(iam.resourceControlPolicies, 'rcp');

  const holding = (holder: { arn: string; attached: string[]; inline: AuthorizationUser['inline'] }) => [
    ...holder.attached.map(managed),
    ...holder.inline.map((p) => inline(holder.arn, p.name, p.document)),
  ];

  function identityOf(user: AuthorizationUser | undefined, role: AuthorizationRole | undefined) {
    if (role) return holding(role);
    if (!user) return null;
    const memberOf = user.groups.map((name) => groups.get(name));
    // A group the documents do not hold (deleted since) would have been listed with its policies: unread.
    return [
      ...holding(user),
      ...memberOf.flatMap((g, i) => (g ? holding(g) : [once(`group:${user.groups[i]}`, () => null)])),
    ];
  }

  const prepared = new Map<string, Prepared>();
  function prepare(arn: string): Prepared {
    let found = prepared.get(arn);
    if (!found) {
      const user = users.get(arn);
      const role = roles.get(arn);
      const boundaryArn = user?.boundary ?? role?.boundary ?? null;
      const principal = principalFromArn(arn, boundaryArn !== null);
      const own = principal.account !== null && principal.account === accountId;
      found = {
        principal,
        policies: {
          identity: identityOf(user, role),
          boundary: boundary(boundaryArn),
          // SCPs bound the account's own principals, not another account's.
          serviceControlPolicies: own ? serviceControlPolicies : null,
        },
      };
      prepared.set(arn, found);
    }
    return found;
  }

  function resourcePolicyOf(action: string, resource: string): ResourcePolicy | null {
    const given = (arn: string) => options.resourcePolicies?.get(arn);
    if (TRUST_ACTIONS.has(action.toLowerCase()) && ROLE_ARN.test(resource)) {
      const role = roles.get(resource);
      return { policy: once(`resource:${resource}`, () => (role ? role.trust : given(resource))), required: true };
    }
    if (KMS_KEY_ARN.test(resource))
      return { policy: once(`resource:${resource}`, () => given(resource)), required: true };
    const bucket = S3_OBJECT_ARN.exec(resource)?.[1];
    const arn = given(resource) ? resource : bucket && given(bucket) ? bucket : null;
    return arn ? { policy: once(`resource:${arn}`, () => given(arn)), required: false } : null;
  }

  /** The RCPs that limit a request on a resource of `resourceAccount` (see the top of this file). */
  function resourceControlPoliciesOn(principalArn: string, resource: string, resourceAccount: string | null) {
    if (accountId === null || resourceAccount !== accountId) return null;
    if (SERVICE_LINKED_ROLE_ARN.test(principalArn)) return null;
    if (KMS_KEY_ARN.test(resource) && !options.resourcePolicies?.has(resource)) return null;
    return resourceControlPolicies;
  }

  return {
    evaluate(principalArn, action, resource) {
      const { principal, policies } = prepare(principalArn);
      const resourceAccount = accountOfResource(resource) ?? accountId;
      return evaluateCompiled(
        principal,
        policies,
        {
          action,
          resource,
          resourceAccount,
          resourceControlPolicies: resourceControlPoliciesOn(principalArn, resource, resourceAccount),
        },
        resourcePolicyOf(action, resource),
      );
    },
  };
}

/**
 * Whether a principal is an administrator: it may do anything, and keep it. What counts, on its own ARN or every
 * resource:
 * - every action on every resource (`*` on `*`, within its boundary and SCPs: an Allow of `*`, or of every action but
 *   some, as NotAction has it), while it can still put or attach a policy to itself, and so grant itself the rest
 *   (a NotAction or a Deny of IAM leaves it short of administrator);
 * - or IAM's equivalent of it: it can put or attach any policy to itself (iam:PutUserPolicy or iam:AttachUserPolicy
 *   on a user, the Role ones on a role, as `iam:*` on `*` allows) and remove its permissions boundary, so that what
 *   it grants itself is bounded by the SCPs alone.
 * A principal that can only grant itself within a boundary, or reach more through another principal (passing a
 * role, a group, a policy version), escalates: the escalation search finds that, not this. 'possible' when a
 * condition or an unread document leaves one of these undecided (an administrator policy that requires MFA).
 */
export function isAdministrator(oracle: PermissionOracle, principalArn: string): Evaluation {
  const everything = oracle.evaluate(principalArn, '*', '*');
  const kind = principalFromArn(principalArn).kind;
  if (kind === 'other') return everything;
  const noun = kind === 'user' ? 'User' : 'Role';
  const selfGrant = anyOf(
    [`iam:Put${noun}Policy`, `iam:Attach${noun}Policy`].map((action) =>
      oracle.evaluate(principalArn, action, principalArn),
    ),
  );
  const unbound = oracle.evaluate(principalArn, `iam:Delete${noun}PermissionsBoundary`, principalArn);
  return anyOf([allOf([everything, selfGrant]), allOf([selfGrant, unbound])]);
}
