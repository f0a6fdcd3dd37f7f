import {
  GetAccessKeyLastUsedCommand, GetAccountPasswordPolicyCommand, GetAccountSummaryCommand, GetLoginProfileCommand,
  IAMClient, paginateGetAccountAuthorizationDetails, paginateListAccessKeys, paginateListMFADevices, paginateListRoles,
  paginateListUsers, type PasswordPolicy as AwsPasswordPolicy, type User,
} from '@aws-sdk/client-iam';
import type { AccessKey, Collected, IamInventory, IamRole, IamUser, PasswordPolicy } from '../../../domain/inventory';
import { hasCode } from '../errors';
import { mapLimit, settleAll } from './concurrency';
import { rootLastUsedAt } from './credential-report';
import { adminIndex } from './iam-policies';
import { allPages } from './pages';
import { readPart } from './refusals';
import type { Session } from './session';

// IAM is global. Per user it takes a few calls (login profile, MFA devices, keys and their last use);
// policies are read in one paginated GetAccountAuthorizationDetails instead of several calls per identity.

const PER_USER_CONCURRENCY = 8;

async function passwordPolicy(iam: IAMClient): Promise<PasswordPolicy | null> {
  let policy: AwsPasswordPolicy | undefined;
  try {
    ({ PasswordPolicy: policy } = await iam.send(new GetAccountPasswordPolicyCommand({})));
  } catch (err) {
    if (hasCode(err, 'NoSuchEntity')) return null;
    throw err;
  }
  if (!policy) return null;
  return {
    minimumLength: policy.MinimumPasswordLength ?? 0,
    requireSymbols: policy.RequireSymbols ?? false,
    requireNumbers: policy.RequireNumbers ?? false,
    requireUppercase: policy.RequireUppercaseCharacters ?? false,
    requireLowercase: policy.RequireLowercaseCharacters ?? false,
    maxAgeDays: policy.MaxPasswordAge ?? null,
    reusePrevention: policy.PasswordReusePrevention ?? null,
  };
}

async function hasConsolePassword(iam: IAMClient, userName: string): Promise<boolean> {
  try {
    await iam.send(new GetLoginProfileCommand({ UserName: userName }));
    return true;
  } catch (err) {
    if (hasCode(err, 'NoSuchEntity')) return false;
    throw err;
  }
}

async function accessKeys(iam: IAMClient, userName: string): Promise<AccessKey[]> {
  const keys = (await allPages(paginateListAccessKeys({ client: iam }, { UserName: userName })))
    .flatMap((page) => page.AccessKeyMetadata ?? []);
  return settleAll(keys.map(async (key): Promise<AccessKey> => {
    const { AccessKeyLastUsed } = await iam.send(new GetAccessKeyLastUsedCommand({ AccessKeyId: key.AccessKeyId }));
    return {
      id: key.AccessKeyId ?? '',
      status: key.Status === 'Active' ? 'Active' : 'Inactive',
      createdAt: (key.CreateDate ?? new Date(0)).toISOString(),
      lastUsedAt: AccessKeyLastUsed?.LastUsedDate?.toISOString() ?? null,
    };
  }));
}

/** null when the user was deleted while the collection ran. */
async function readUser(iam: IAMClient, user: User, admin: boolean): Promise<IamUser | null> {
  const name = user.UserName ?? '';
  try {
    const [consolePassword, mfaPages, keys] = await settleAll([
      hasConsolePassword(iam, name),
      allPages(paginateListMFADevices({ client: iam }, { UserName: name })),
      accessKeys(iam, name),
    ]);
    return {
      name,
      arn: user.Arn ?? '',
      createdAt: user.CreateDate?.toISOString() ?? '',
      hasConsolePassword: consolePassword,
      mfaEnabled: mfaPages.some((page) => (page.MFADevices ?? []).length > 0),
      accessKeys: keys,
      adminAccess: admin,
    };
  } catch (err) {
    if (hasCode(err, 'NoSuchEntity')) return null;
    throw err;
  }
}

export function collectIam(session: Session): Promise<Collected<IamInventory>> {
  return readPart(async () => {
    const iam = session.client((config) => new IAMClient(config));
    const [summary, rootLastUsed, policy, userPages, rolePages] = await settleAll([
      iam.send(new GetAccountSummaryCommand({})),
      rootLastUsedAt(iam),
      passwordPolicy(iam),
      allPages(paginateListUsers({ client: iam }, {})),
      allPages(paginateListRoles({ client: iam }, {})),
    ]);
    // Read after the lists: an identity listed but missing from the details was deleted in between, and is left out.
    const admins = adminIndex(await allPages(paginateGetAccountAuthorizationDetails(
      { client: iam }, { Filter: ['User', 'Role', 'Group', 'LocalManagedPolicy'] })));

    const listedUsers = userPages.flatMap((page) => page.Users ?? []);
    const users = await mapLimit({
      items: listedUsers,
      limit: PER_USER_CONCURRENCY,
      run: async (user) => {
        const admin = admins.user(user.UserName ?? '');
        return admin === undefined ? null : readUser(iam, user, admin);
      },
    });
    // Service-linked roles belong to AWS services, and Sentinel's own role is read-only by construction.
    const roles = rolePages.flatMap((page) => page.Roles ?? [])
      .filter((r) => !r.Path?.startsWith('/aws-service-role/') && r.RoleName !== session.roleName)
      .flatMap((r): IamRole[] => {
        const admin = admins.role(r.RoleName ?? '');
        return admin === undefined ? [] : [{ name: r.RoleName ?? '', arn: r.Arn ?? '', adminAccess: admin }];
      });

    const map = summary.SummaryMap ?? {};
    return {
      rootMfaEnabled: map.AccountMFAEnabled === 1,
      rootAccessKeysPresent: (map.AccountAccessKeysPresent ?? 0) > 0,
      rootLastUsedAt: rootLastUsed,
      passwordPolicy: policy,
      users: users.filter((u): u is IamUser => u !== null),
      roles,
    };
  });
}
