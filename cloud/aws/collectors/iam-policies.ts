import type {
  AttachedPolicy, GetAccountAuthorizationDetailsCommandOutput, PolicyDetail,
} from '@aws-sdk/client-iam';
import { parsePolicyDocument } from '../trust-policy';

// Which users and roles hold administrator access: an Allow of `*` (or `*:*`) on Resource `*`, through an
// attached managed policy, an inline policy or, for users, a group's policies. Deny statements, conditions
// and permissions boundaries are not weighed: an identity that is granted everything is reported as such.

const ADMINISTRATOR_ACCESS = /^arn:aws[\w-]*:iam::aws:policy\/AdministratorAccess$/;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function grantsEverything(rawDocument: string | undefined): boolean {
  const document = parsePolicyDocument(rawDocument ?? '');
  return list(document?.Statement).filter(isObject).some((s) => s.Effect === 'Allow'
    && list(s.Action).some((a) => a === '*' || a === '*:*')
    && list(s.Resource).includes('*'));
}

interface Grants {
  attached: AttachedPolicy[];
  inline: PolicyDetail[];
}

type Page = Pick<GetAccountAuthorizationDetailsCommandOutput, 'UserDetailList' | 'GroupDetailList' | 'RoleDetailList' | 'Policies'>;

/** Answers "is this user/role an administrator?" from the pages of GetAccountAuthorizationDetails. */
export function adminIndex(pages: Page[]) {
  // Customer managed policies, by ARN: whether their default version grants everything.
  const managed = new Map<string, boolean>();
  const groups = new Map<string, Grants>();
  const users = new Map<string, Grants & { groups: string[] }>();
  const roles = new Map<string, Grants>();
  for (const page of pages) {
    for (const p of page.Policies ?? []) {
      const current = p.PolicyVersionList?.find((v) => v.IsDefaultVersion);
      if (p.Arn) managed.set(p.Arn, grantsEverything(current?.Document));
    }
    for (const g of page.GroupDetailList ?? []) {
      if (g.GroupName) groups.set(g.GroupName, { attached: g.AttachedManagedPolicies ?? [], inline: g.GroupPolicyList ?? [] });
    }
    for (const u of page.UserDetailList ?? []) {
      if (u.UserName) {
        users.set(u.UserName, { attached: u.AttachedManagedPolicies ?? [], inline: u.UserPolicyList ?? [], groups: u.GroupList ?? [] });
      }
    }
    for (const r of page.RoleDetailList ?? []) {
      if (r.RoleName) roles.set(r.RoleName, { attached: r.AttachedManagedPolicies ?? [], inline: r.RolePolicyList ?? [] });
    }
  }

  const admin = (grants: Grants | undefined): boolean => !!grants && (
    grants.attached.some(({ PolicyArn = '' }) => ADMINISTRATOR_ACCESS.test(PolicyArn) || managed.get(PolicyArn) === true)
    || grants.inline.some((p) => grantsEverything(p.PolicyDocument)));

  return {
    /** undefined: the user is not in the details (deleted since it was listed). */
    user(name: string): boolean | undefined {
      const user = users.get(name);
      if (!user) return undefined;
      return admin(user) || user.groups.some((g) => admin(groups.get(g)));
    },
    role(name: string): boolean | undefined {
      const role = roles.get(name);
      return role && admin(role);
    },
  };
}
