import {
  GetAccountPasswordPolicyCommand,
  GetAccountSummaryCommand,
  GetPolicyVersionCommand,
  IAMClient,
  paginateGetAccountAuthorizationDetails,
  paginateListAccessKeys,
  paginateListInstanceProfiles,
  paginateListPolicies,
} from '@aws-sdk/client-iam';
import type {
  AccessKey,
  AwsManagedPolicy,
  IamPrincipals,
  IamUser,
  InstanceProfile,
  PasswordPolicy,
  Unread,
} from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { failureOf, isAbsent, unlessAbsent } from './failures';
import { authorizationIndex } from './iam-authorization-index';
import { adminIndex, allowsEverything } from './iam-policies';
import { foldPages, globalPart, type ReadContext } from './reader';
import type { Session } from './session';

// IAM is global. The calls per scan: the account summary, the password policy, the credential report (see
// credential-report.ts), GetAccountAuthorizationDetails (every user, group, role and customer managed policy,
// paged), and one ListAccessKeys per user: the only per-user call, since the report has each user's password,
// MFA and key use but no key ids. Then, as parts of their own (a refusal costs only their checks): the AWS managed
// policies attached in the account (ListPolicies, then GetPolicyVersion of each one's default version: CIS 2.14's
// own procedure), and the instance profiles with their roles (ListInstanceProfiles, paged).

const PER_USER_CONCURRENCY = 8;
const PER_POLICY_CONCURRENCY = 4;

const iamClient = (session: Session) => session.client((config) => new IAMClient(config));

export const iamSummaryPart = globalPart({
  part: 'iamSummary',
  async read({ session }: ReadContext) {
    const { SummaryMap: map = {} } = await iamClient(session).send(new GetAccountSummaryCommand({}));
    return {
      value: {
        rootMfaEnabled: map.AccountMFAEnabled === 1,
        rootAccessKeysPresent: (map.AccountAccessKeysPresent ?? 0) > 0,
        rootPasswordPresent: map.AccountPasswordPresent === undefined ? null : map.AccountPasswordPresent > 0,
      },
    };
  },
});

export const passwordPolicyPart = globalPart({
  part: 'passwordPolicy',
  async read({ session }: ReadContext) {
    const answer = await unlessAbsent(
      () => iamClient(session).send(new GetAccountPasswordPolicyCommand({})),
      'NoSuchEntity',
    );
    const policy = answer?.PasswordPolicy;
    const value: PasswordPolicy | null = policy
      ? {
          minimumLength: policy.MinimumPasswordLength ?? 0,
          requireSymbols: policy.RequireSymbols ?? false,
          requireNumbers: policy.RequireNumbers ?? false,
          requireUppercase: policy.RequireUppercaseCharacters ?? false,
          requireLowercase: policy.RequireLowercaseCharacters ?? false,
          maxAgeDays: policy.MaxPasswordAge ?? null,
          reusePrevention: policy.PasswordReusePrevention ?? null,
        }
      : null;
    return { value: { policy: value } };
  },
});

/** A user's keys; null when the user was deleted since it was listed. */
async function accessKeys(iam: IAMClient, userName: string): Promise<AccessKey[] | null> {
  try {
    return await foldPages(
      paginateListAccessKeys({ client: iam }, { UserName: userName }),
      [] as AccessKey[],
      (keys, page) => {
        for (const key of page.AccessKeyMetadata ?? []) {
          keys.push({
            id: key.AccessKeyId ?? '',
            status: key.Status === 'Active' ? 'Active' : 'Inactive',
            createdAt: (key.CreateDate ?? new Date(0)).toISOString(),
          });
        }
        return keys;
      },
    );
  } catch (err) {
    if (isAbsent(err, 'NoSuchEntity')) return null;
    throw err;
  }
}

/**
 * One pass over GetAccountAuthorizationDetails's pages (every user, group, role and customer managed policy) for
 * the two parts that read them: who holds administrator access (iamPrincipals) and every principal's documents
 * (iamAuthorization). Each folds the pages as they arrive; the account is asked once per collection attempt.
 */
export const authorizationDetails = ({ session, shared }: ReadContext) =>
  shared('iam:GetAccountAuthorizationDetails', () =>
    foldPages(
      paginateGetAccountAuthorizationDetails(
        { client: iamClient(session) },
        { Filter: ['User', 'Role', 'Group', 'LocalManagedPolicy'] },
      ),
      { admins: adminIndex(session.accountId), documents: authorizationIndex(session.roleName) },
      (into, page) => {
        into.admins.add(page);
        into.documents.add(page);
        return into;
      },
    ),
  );

/**
 * The default version of every AWS managed policy attached in the account (ListPolicies, then GetPolicyVersion of
 * each: CIS 2.14's own procedure), by ARN, raw as IAM answers it: the awsManagedPolicies part judges them, the
 * iamAuthorization part keeps them as documents. A policy given a new default version since the list is left out.
 */
export const attachedAwsPolicies = ({ session, shared }: ReadContext) =>
  shared('iam:AttachedAwsManagedPolicies', async () => {
    const iam = iamClient(session);
    const attached = await foldPages(
      paginateListPolicies(
        { client: iam },
        { Scope: 'AWS', OnlyAttached: true, PolicyUsageFilter: 'PermissionsPolicy' },
      ),
      [] as { name: string; arn: string; version: string }[],
      (into, page) => {
        for (const p of page.Policies ?? []) {
          if (p.PolicyName && p.Arn && p.DefaultVersionId)
            into.push({ name: p.PolicyName, arn: p.Arn, version: p.DefaultVersionId });
        }
        return into;
      },
    );
    const read = await mapLimit({
      items: attached,
      limit: PER_POLICY_CONCURRENCY,
      run: async ({ name, arn, version }) => {
        try {
          const { PolicyVersion } = await iam.send(new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: version }));
          return { name, arn, document: PolicyVersion?.Document };
        } catch (err) {
          if (isAbsent(err, 'NoSuchEntity')) return null;
          throw err;
        }
      },
    });
    return read.filter((p): p is { name: string; arn: string; document: string | undefined } => p !== null);
  });

export const iamPrincipalsPart = globalPart({
  part: 'iamPrincipals',
  async read(ctx: ReadContext) {
    const { session } = ctx;
    const iam = iamClient(session);
    const { admins } = await authorizationDetails(ctx);
    const { users: listed, roles, groups, riskyPolicies } = admins.principals();

    // A refusal or failure for one user leaves only that user's keys unread (a resource policy or an SCP can
    // single a principal out); the user is still evaluated by every check that needs no keys.
    const unread: Unread[] = [];
    const users = await mapLimit({
      items: listed,
      limit: PER_USER_CONCURRENCY,
      run: async (user): Promise<IamUser | null> => {
        try {
          const keys = await accessKeys(iam, user.name);
          return keys && { ...user, accessKeys: keys };
        } catch (err) {
          unread.push({ kind: 'resource', scope: user.arn, reason: `Its access keys: ${failureOf(err).reason}` });
          return { ...user, accessKeys: [] };
        }
      },
    });
    const value: IamPrincipals = {
      users: users.filter((u): u is IamUser => u !== null),
      // Service-linked roles belong to AWS services, and Sentinel's own role is read-only by construction.
      roles: roles
        .filter((r) => !r.path.startsWith('/aws-service-role/') && r.name !== session.roleName)
        .map(({ name, arn, adminAccess, managedPolicies, fullAdminPolicies, trust }) => ({
          name,
          arn,
          adminAccess,
          managedPolicies,
          fullAdminPolicies,
          trust,
        })),
      groups,
      // Sentinel's own role's policies are read-only by construction.
      riskyPolicies: riskyPolicies.filter((p) => !p.owner?.endsWith(`:role/${session.roleName}`)),
    };
    return { value, unread };
  },
});

export const awsManagedPoliciesPart = globalPart({
  part: 'awsManagedPolicies',
  async read(ctx: ReadContext) {
    // A policy given a new default version since the list is left out: the check names its holders as unread.
    const policies: AwsManagedPolicy[] = (await attachedAwsPolicies(ctx)).map(({ name, arn, document }) => ({
      name,
      arn,
      fullAdmin: allowsEverything(document),
    }));
    return { value: { policies } };
  },
});

export const instanceProfilesPart = globalPart({
  part: 'instanceProfiles',
  async read({ session }: ReadContext) {
    const profiles = await foldPages(
      paginateListInstanceProfiles({ client: iamClient(session) }, {}),
      [] as InstanceProfile[],
      (into, page) => {
        for (const p of page.InstanceProfiles ?? []) {
          into.push({
            name: p.InstanceProfileName ?? '',
            arn: p.Arn ?? '',
            roles: (p.Roles ?? []).flatMap((r) => (r.RoleName ? [r.RoleName] : [])),
          });
        }
        return into;
      },
    );
    return { value: { profiles } };
  },
});
