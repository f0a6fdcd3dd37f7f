import type { AttachedPolicy, GetAccountAuthorizationDetailsCommandOutput, PolicyDetail } from '@aws-sdk/client-iam';
import type { IamGroup, IamRole, IamUser, RiskyPolicy, RoleTrust } from '../../../domain/scans/inventory';
import {
  AWS_ADMIN_POLICIES,
  awsManagedName,
  documentAllowsEverything,
  documentGrantsAdministrator,
} from '../../../domain/checks/admin-policies';
import {
  assumesAnyRole,
  escalationPaths,
  fullServiceAccess,
  roleTrust,
} from '../../../domain/checks/privilege-escalation';
import { parsePolicyDocument } from '../trust-policy';

// Which users and roles hold administrator access (what counts: domain/checks/admin-policies.ts), from the pages of
// GetAccountAuthorizationDetails: through an attached managed policy (AWS's, or a customer policy whose default
// version grants it), an inline policy or, for users, a group's policies. And, for CIS 2.14, which of each user's,
// group's and role's own customer managed and inline policies allow every action on every resource (its AWS managed
// ones are judged from their documents by the awsManagedPolicies part).

export function grantsAdministrator(rawDocument: string | undefined): boolean {
  return documentGrantsAdministrator(parsePolicyDocument(rawDocument ?? ''));
}

/** Whether a raw (URL-encoded) policy document allows every action on every resource (CIS 2.14). */
export function allowsEverything(rawDocument: string | undefined): boolean {
  return documentAllowsEverything(parsePolicyDocument(rawDocument ?? ''));
}

/** What a policy document grants that leads to compromise; null when it grants none of it. */
function riskOf(rawDocument: string | undefined): Omit<RiskyPolicy, 'name' | 'arn' | 'kind' | 'owner'> | null {
  const document = parsePolicyDocument(rawDocument ?? '');
  const risk = {
    escalationPaths: escalationPaths(document),
    cloudtrailFullAccess: fullServiceAccess(document, 'cloudtrail'),
    assumesAnyRole: assumesAnyRole(document),
  };
  return risk.escalationPaths.length > 0 || risk.cloudtrailFullAccess || risk.assumesAnyRole ? risk : null;
}

/** The risky inline policies of a user, group or role. */
const riskyInline = (owner: string | undefined, inline: PolicyDetail[] | undefined): RiskyPolicy[] =>
  (inline ?? []).flatMap((p) => {
    const risk = p.PolicyName && owner ? riskOf(p.PolicyDocument) : null;
    if (!risk || !p.PolicyName || !owner) return [];
    return [{ name: p.PolicyName, arn: `${owner}/${p.PolicyName}`, kind: 'inline' as const, owner, ...risk }];
  });

/** A role's trust, or null when its trust policy is not a document Sentinel can read. */
function trustOf(rawDocument: string | undefined, ownAccount: string): RoleTrust | null {
  const document = parsePolicyDocument(rawDocument ?? '');
  return document ? roleTrust(document, ownAccount) : null;
}

interface Grants {
  attached: string[];
  /** An inline policy grants administrator access. */
  inlineAdmin: boolean;
  /** The inline policies that allow every action on every resource, by name. */
  inlineEverything: string[];
}

const grantsOf = (attached: AttachedPolicy[] | undefined, inline: PolicyDetail[] | undefined): Grants => ({
  attached: (attached ?? []).flatMap((p) => (p.PolicyArn ? [p.PolicyArn] : [])),
  inlineAdmin: (inline ?? []).some((p) => grantsAdministrator(p.PolicyDocument)),
  inlineEverything: (inline ?? []).flatMap((p) =>
    p.PolicyName && allowsEverything(p.PolicyDocument) ? [p.PolicyName] : [],
  ),
});

type Page = Pick<
  GetAccountAuthorizationDetailsCommandOutput,
  'UserDetailList' | 'GroupDetailList' | 'RoleDetailList' | 'Policies'
>;

/** Folds the pages as they arrive, keeping only what the answer needs; `principals()` once every page is in. */
export function adminIndex(ownAccount: string) {
  // Customer managed policies, by ARN: whether their default version grants administrator access, and whether it
  // allows every action on every resource.
  const managed = new Map<string, boolean>();
  const everything = new Map<string, boolean>();
  const groups = new Map<string, Grants>();
  const groupList: (Omit<IamGroup, 'fullAdminPolicies'> & { grants: Grants })[] = [];
  const users: (Omit<IamUser, 'accessKeys' | 'adminAccess' | 'fullAdminPolicies'> & {
    grants: Grants;
    groups: string[];
  })[] = [];
  const roles: (Omit<IamRole, 'adminAccess' | 'fullAdminPolicies'> & { grants: Grants; path: string })[] = [];
  // Customer managed policies attached to someone, and inline policies, that grant a path to compromise.
  const risky: RiskyPolicy[] = [];
  const managedNames = (grants: Grants) => grants.attached.flatMap((arn) => awsManagedName(arn) ?? []);

  const index = {
    add(page: Page) {
      for (const p of page.Policies ?? []) {
        const current = p.PolicyVersionList?.find((v) => v.IsDefaultVersion);
        if (p.Arn) managed.set(p.Arn, grantsAdministrator(current?.Document));
        if (p.Arn) everything.set(p.Arn, allowsEverything(current?.Document));
        const risk = p.Arn && (p.AttachmentCount ?? 0) > 0 ? riskOf(current?.Document) : null;
        if (risk && p.Arn)
          risky.push({
            name: p.PolicyName ?? p.Arn.split('/').pop() ?? p.Arn,
            arn: p.Arn,
            kind: 'managed',
            owner: null,
            ...risk,
          });
      }
      for (const g of page.GroupDetailList ?? []) {
        if (!g.GroupName) continue;
        const grants = grantsOf(g.AttachedManagedPolicies, g.GroupPolicyList);
        groups.set(g.GroupName, grants);
        risky.push(...riskyInline(g.Arn, g.GroupPolicyList));
        groupList.push({ name: g.GroupName, arn: g.Arn ?? '', managedPolicies: managedNames(grants), grants });
      }
      for (const u of page.UserDetailList ?? []) {
        if (!u.UserName) continue;
        const grants = grantsOf(u.AttachedManagedPolicies, u.UserPolicyList);
        risky.push(...riskyInline(u.Arn, u.UserPolicyList));
        users.push({
          name: u.UserName,
          arn: u.Arn ?? '',
          createdAt: u.CreateDate?.toISOString() ?? '',
          grants,
          groups: u.GroupList ?? [],
          managedPolicies: managedNames(grants),
          // CIS 2.13: a user should get its permissions through groups only.
          directPolicies: [...(u.AttachedManagedPolicies ?? []), ...(u.UserPolicyList ?? [])].flatMap((p) =>
            p.PolicyName ? [p.PolicyName] : [],
          ),
        });
      }
      for (const r of page.RoleDetailList ?? []) {
        if (!r.RoleName) continue;
        const grants = grantsOf(r.AttachedManagedPolicies, r.RolePolicyList);
        if (!(r.Path ?? '/').startsWith('/aws-service-role/')) risky.push(...riskyInline(r.Arn, r.RolePolicyList));
        roles.push({
          name: r.RoleName,
          arn: r.Arn ?? '',
          path: r.Path ?? '/',
          trust: trustOf(r.AssumeRolePolicyDocument, ownAccount),
          grants,
          managedPolicies: managedNames(grants),
        });
      }
      return index;
    },

    principals() {
      const admin = (grants: Grants | undefined): boolean =>
        !!grants &&
        (grants.inlineAdmin ||
          grants.attached.some((arn) => {
            const name = awsManagedName(arn);
            return name !== undefined ? AWS_ADMIN_POLICIES.has(name) : managed.get(arn) === true;
          }));
      // A customer managed policy's name is the last part of its ARN (after its path).
      const fullAdminPolicies = (grants: Grants): string[] => [
        ...grants.attached.flatMap((arn) =>
          awsManagedName(arn) === undefined && everything.get(arn) === true ? [arn.split('/').pop() ?? arn] : [],
        ),
        ...grants.inlineEverything,
      ];
      return {
        users: users.map(({ grants, groups: memberOf, ...user }) => ({
          ...user,
          adminAccess: admin(grants) || memberOf.some((g) => admin(groups.get(g))),
          fullAdminPolicies: fullAdminPolicies(grants),
        })),
        roles: roles.map(({ grants, ...role }) => ({
          ...role,
          adminAccess: admin(grants),
          fullAdminPolicies: fullAdminPolicies(grants),
        })),
        groups: groupList.map(({ grants, ...group }) => ({ ...group, fullAdminPolicies: fullAdminPolicies(grants) })),
        riskyPolicies: risky,
      };
    },
  };
  return index;
}
