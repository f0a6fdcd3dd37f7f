import type { GetAccountAuthorizationDetailsCommandOutput } from '@aws-sdk/client-iam';
import type {
  AuthorizationGroup,
  AuthorizationRole,
  AuthorizationUser,
  InlinePolicy,
  ManagedPolicyDocument,
  PolicyJson,
} from '../../../domain/scans/iam-authorization';
import { parsePolicyDocument } from '../trust-policy';

// Every principal's policies as documents, folded from GetAccountAuthorizationDetails's pages as they arrive (one
// pass serves this and the iamPrincipals part: iam.ts `authorizationDetails`). Like the iamPrincipals part, it leaves
// out service-linked roles (AWS's own, which the account cannot change) and Sentinel's own role (read-only by
// construction).

type Page = Pick<
  GetAccountAuthorizationDetailsCommandOutput,
  'UserDetailList' | 'GroupDetailList' | 'RoleDetailList' | 'Policies'
>;

export const parsed = (raw: string | undefined): PolicyJson | null => parsePolicyDocument(raw ?? '') ?? null;
const arnsOf = (attached: { PolicyArn?: string }[] | undefined) => (attached ?? []).flatMap((p) => p.PolicyArn ?? []);
const inlineOf = (policies: { PolicyName?: string; PolicyDocument?: string }[] | undefined): InlinePolicy[] =>
  (policies ?? []).flatMap((p) => (p.PolicyName ? [{ name: p.PolicyName, document: parsed(p.PolicyDocument) }] : []));

/** Folds the pages as they arrive; `principals()` once every page is in. */
export function authorizationIndex(sentinelRole: string) {
  const users: AuthorizationUser[] = [];
  const groups: AuthorizationGroup[] = [];
  const roles: AuthorizationRole[] = [];
  // Raw documents, parsed only for the policies someone holds.
  const policies = new Map<string, { name: string; raw: string | undefined }>();

  const index = {
    add(page: Page) {
      for (const p of page.Policies ?? []) {
        if (!p.Arn) continue;
        const current = p.PolicyVersionList?.find((v) => v.IsDefaultVersion);
        policies.set(p.Arn, { name: p.PolicyName ?? p.Arn.split('/').pop() ?? p.Arn, raw: current?.Document });
      }
      for (const g of page.GroupDetailList ?? []) {
        if (g.GroupName && g.Arn)
          groups.push({
            name: g.GroupName,
            arn: g.Arn,
            attached: arnsOf(g.AttachedManagedPolicies),
            inline: inlineOf(g.GroupPolicyList),
          });
      }
      for (const u of page.UserDetailList ?? []) {
        if (u.UserName && u.Arn)
          users.push({
            name: u.UserName,
            arn: u.Arn,
            attached: arnsOf(u.AttachedManagedPolicies),
            inline: inlineOf(u.UserPolicyList),
            groups: u.GroupList ?? [],
            boundary: u.PermissionsBoundary?.PermissionsBoundaryArn ?? null,
          });
      }
      for (const r of page.RoleDetailList ?? []) {
        if (!r.RoleName || !r.Arn) continue;
        if ((r.Path ?? '/').startsWith('/aws-service-role/') || r.RoleName === sentinelRole) continue;
        roles.push({
          name: r.RoleName,
          arn: r.Arn,
          attached: arnsOf(r.AttachedManagedPolicies),
          inline: inlineOf(r.RolePolicyList),
          boundary: r.PermissionsBoundary?.PermissionsBoundaryArn ?? null,
          trust: parsed(r.AssumeRolePolicyDocument),
          instanceProfiles: (r.InstanceProfileList ?? []).flatMap((p) => p.Arn ?? []),
        });
      }
      return index;
    },

    /** The principals, the held policies the pages carried, and the ARNs of those they did not. */
    principals() {
      const held = new Set<string>();
      for (const holder of [...users, ...groups, ...roles]) for (const arn of holder.attached) held.add(arn);
      for (const holder of [...users, ...roles]) if (holder.boundary) held.add(holder.boundary);
      const documents: ManagedPolicyDocument[] = [];
      const missing: string[] = [];
      for (const arn of [...held].sort()) {
        const policy = policies.get(arn);
        if (policy) documents.push({ arn, name: policy.name, document: parsed(policy.raw) });
        else missing.push(arn);
      }
      return { users, groups, roles, documents, missing };
    },
  };
  return index;
}
