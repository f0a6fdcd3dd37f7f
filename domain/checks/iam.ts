import type {
  AccessKey,
  CredentialReport,
  IamPrincipals,
  IamSummary,
  IamUser,
  PasswordPolicy,
  ReportedUser,
  Unread,
} from '../scans/inventory';
import { daysSince, failing, failWhen, onPart, onParts, withPart, withUnread } from './helpers';
import type { Check, CheckResult, FailingResource } from './types';

// Identity checks: the root user, IAM users and their access keys, admin grants and the password policy.

const ROOT_RECENT_USE_DAYS = 30;
const KEY_MAX_AGE_DAYS = 90;
const KEY_UNUSED_DAYS = 45;
/** CIS 2.11: a console password unused for 45 days or more should be disabled. */
const PASSWORD_UNUSED_DAYS = 45;
const PASSWORD_MIN_LENGTH = 14;
const PASSWORD_MAX_AGE_DAYS = 90;

const ROOT: FailingResource = { resource: 'root' };

/** Every active access key of every user, with its owner. */
function activeKeys({ users }: IamPrincipals): { user: IamUser; key: AccessKey }[] {
  return users.flatMap((user) =>
    user.accessKeys.filter((key) => key.status === 'Active').map((key) => ({ user, key })),
  );
}

/** A key finding names the key, and its user as the owner: a scan that cannot list the user's keys keeps it open. */
const keyResource = (user: IamUser, key: AccessKey, detail: string): FailingResource => ({
  resource: key.id,
  owner: user.arn,
  detail,
});

/**
 * Whether the root user can sign in or call APIs at all. A member account whose root credentials were removed
 * through centralized root access has neither a password nor keys, and needs no root MFA. An account summary
 * that does not say whether the password exists counts as having one.
 */
const rootHasCredentials = (summary: IamSummary) =>
  summary.rootPasswordPresent !== false || summary.rootAccessKeysPresent;

const sameSecond = (a: string, b: string) => Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000);

/**
 * A key's last use, from the credential report (which names slots, not key ids: a slot's last_rotated is its
 * key's creation time). undefined: the report does not show the key (created after the report was generated).
 */
function lastUsed(key: AccessKey, row: ReportedUser | undefined): string | null | undefined {
  const slot = row?.keys.find((k) => k.lastRotatedAt !== null && sameSecond(k.lastRotatedAt, key.createdAt));
  return slot ? slot.lastUsedAt : undefined;
}

const notInReport = (report: CredentialReport, scope: string): Unread => ({
  kind: 'resource',
  scope,
  reason: `Not in IAM's credential report yet (generated at ${report.generatedAt}; AWS renews it every 4 hours).`,
});

/**
 * Console users without MFA, from the credential report. When the principals were read, users created after the
 * report are named as unread and users deleted since are left out; otherwise the report alone decides.
 */
function consoleUsersWithoutMfa(report: CredentialReport, principals: IamPrincipals | undefined): CheckResult {
  const rows = new Map(report.users.map((row) => [row.arn, row]));
  const users = principals
    ? principals.users.map((u) => ({ arn: u.arn, name: u.name }))
    : report.users.map((r) => ({ arn: r.arn, name: r.arn.split('/').pop() ?? r.arn }));
  const unread: Unread[] = [];
  const resources: FailingResource[] = [];
  for (const user of users) {
    const row = rows.get(user.arn);
    if (!row) unread.push(notInReport(report, user.arn));
    else if (row.passwordEnabled && !row.mfaActive) {
      resources.push({ resource: user.arn, detail: `IAM user ${user.name} has a console password and no MFA device.` });
    }
  }
  return withUnread(failing(resources), unread);
}

/**
 * Console passwords unused for PASSWORD_UNUSED_DAYS or more, from the credential report, as CIS 2.11 audits them:
 * the password's last sign-in, or when it was set if it never signed in. When the principals were read, users
 * deleted since the report are left out, and a user the report does not show is too new to have an unused
 * password (or, older than the threshold, named as unread); otherwise the report alone decides.
 */
function unusedPasswords(report: CredentialReport, principals: IamPrincipals | undefined, now: string): CheckResult {
  const rows = new Map(report.users.map((row) => [row.arn, row]));
  const users: { arn: string; name: string; createdAt?: string }[] = principals
    ? principals.users
    : report.users.map((r) => ({ arn: r.arn, name: r.arn.split('/').pop() ?? r.arn }));
  const unread: Unread[] = [];
  const resources: FailingResource[] = [];
  for (const user of users) {
    const row = rows.get(user.arn);
    if (!row) {
      if (user.createdAt !== undefined && daysSince(user.createdAt, now) >= PASSWORD_UNUSED_DAYS)
        unread.push(notInReport(report, user.arn));
      continue;
    }
    if (!row.passwordEnabled) continue;
    const since = row.passwordLastUsedAt ?? row.passwordLastChangedAt;
    if (since === null) {
      unread.push({
        kind: 'resource',
        scope: user.arn,
        reason:
          "IAM's credential report shows a console password, but neither when it was last used nor when it was set.",
      });
    } else if (daysSince(since, now) >= PASSWORD_UNUSED_DAYS) {
      resources.push({
        resource: user.arn,
        detail: row.passwordLastUsedAt
          ? `IAM user ${user.name}'s console password was last used at ${row.passwordLastUsedAt}.`
          : `IAM user ${user.name}'s console password was set at ${since} and has no recorded use.`,
      });
    }
  }
  return withUnread(failing(resources), unread);
}

const age = (days: number) => `${Math.floor(days)} days`;

/** The character classes and maximum age of the policy; its length and reuse rules have checks of their own. */
function passwordPolicyWeaknesses(policy: PasswordPolicy): string[] {
  const weaknesses: string[] = [];
  const classes = [
    [policy.requireUppercase, 'uppercase letters'],
    [policy.requireLowercase, 'lowercase letters'],
    [policy.requireNumbers, 'numbers'],
    [policy.requireSymbols, 'symbols'],
  ] as const;
  for (const [required, name] of classes) if (!required) weaknesses.push(`${name} not required`);
  if (policy.maxAgeDays === null) weaknesses.push('passwords never expire');
  else if (policy.maxAgeDays > PASSWORD_MAX_AGE_DAYS)
    weaknesses.push(`passwords expire after ${policy.maxAgeDays} days (> ${PASSWORD_MAX_AGE_DAYS})`);
  return weaknesses;
}

export const IAM_CHECKS: readonly Check[] = [
  {
    id: 'iam.root_mfa_disabled',
    service: 'iam',
    prowler: ['iam_root_mfa_enabled'],
    scenario: 'iam',
    severity: 'CRITICAL',
    title: 'Root user has no MFA',
    description:
      'The root user can do anything in the account, including closing it, and signs in with a password alone. ' +
      '(A member account whose root credentials were removed through centralized root access passes: its root user ' +
      'has no password and no keys.)',
    remediation:
      'Sign in as the root user, open Security credentials, and assign an MFA device (a passkey or security key ' +
      'is strongest); register a second device as a backup and store the recovery details offline. This is done in the console, signed in as the root user. To check afterwards with the CLI: aws iam get-account-summary --query SummaryMap.AccountMFAEnabled.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/enable-mfa-for-root.html',
    controls: { 'cis-aws-7.0': ['2.5'] },
    evaluate: onPart('iamSummary', (summary) =>
      failWhen(!summary.rootMfaEnabled && rootHasCredentials(summary), {
        ...ROOT,
        detail: 'The root user has credentials and no MFA device.',
      }),
    ),
  },
  {
    id: 'iam.root_access_keys_present',
    service: 'iam',
    prowler: ['iam_no_root_access_key'],
    scenario: 'iam',
    severity: 'CRITICAL',
    title: 'Root user has access keys',
    description:
      'Access keys of the root user give unrestricted, long-lived programmatic access that no policy can limit.',
    remediation:
      'Find what uses the root keys (CloudTrail events with userIdentity.type Root), move it to an IAM role or ' +
      "user with least privilege, then deactivate and delete the root access keys under the root user's Security credentials. The root user's keys are deleted in the console, signed in as the root user. To check afterwards with the CLI: aws iam get-account-summary --query SummaryMap.AccountAccessKeysPresent.",
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/root-user-best-practices.html',
    controls: { 'cis-aws-7.0': ['2.4'], 'aws-fsbp': ['IAM.4'] },
    evaluate: onPart('iamSummary', (summary) =>
      failWhen(summary.rootAccessKeysPresent, {
        ...ROOT,
        detail: 'The root user has at least one access key.',
      }),
    ),
  },
  {
    id: 'iam.root_recently_used',
    service: 'iam',
    prowler: ['iam_avoid_root_usage'],
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Root user used recently',
    description:
      `The root user signed in or used its keys in the last ${ROOT_RECENT_USE_DAYS} days. Day-to-day work should ` +
      'never need it; unexpected use is a sign of compromise.',
    remediation:
      'Check in CloudTrail what the root user did and from where. If it was not you, reset the root password, ' +
      'rotate its MFA and follow the incident response guide. Otherwise do the work with an IAM Identity Center user or ' +
      'IAM role and keep the root user for the few tasks that require it. In the console: CloudTrail > Event history, filtered on User name root. With the CLI: aws cloudtrail lookup-events --lookup-attributes AttributeKey=Username,AttributeValue=root.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/root-user-tasks.html',
    controls: { 'cis-aws-7.0': ['2.7'] },
    // Only the credential report knows the root user's last use: without it the check cannot tell.
    evaluate: onPart('credentialReport', ({ root }, ctx): CheckResult => {
      if (!root) return { status: 'not_evaluated', reason: 'The credential report has no row for the root user.' };
      return failWhen(root.lastUsedAt !== null && daysSince(root.lastUsedAt, ctx.now) <= ROOT_RECENT_USE_DAYS, {
        ...ROOT,
        detail: `The root user was last used at ${root.lastUsedAt}.`,
      });
    }),
  },
  {
    id: 'iam.console_user_without_mfa',
    service: 'iam',
    prowler: ['iam_user_mfa_enabled_console_access'],
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Console user without MFA',
    description:
      'An IAM user can sign in to the console with a password alone; a phished or reused password is enough to take it over.',
    remediation:
      'Have the user assign an MFA device (IAM > Users > Security credentials > Assign MFA device), or remove the ' +
      'console password if the user does not need the console. Prefer IAM Identity Center for human access. With the CLI: aws iam create-virtual-mfa-device and aws iam enable-mfa-device --user-name <user>, or aws iam delete-login-profile --user-name <user> to remove the password.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_mfa_enable_virtual.html',
    controls: { 'cis-aws-7.0': ['2.10'], 'aws-fsbp': ['IAM.5'] },
    evaluate: (inventory) =>
      withPart(inventory.credentialReport, (report) =>
        inventory.iamPrincipals.status === 'ok'
          ? withUnread(consoleUsersWithoutMfa(report, inventory.iamPrincipals.value), inventory.iamPrincipals.unread)
          : consoleUsersWithoutMfa(report, undefined),
      ),
  },
  {
    id: 'iam.access_key_not_rotated',
    service: 'iam',
    prowler: ['iam_rotate_access_key_90_days'],
    scenario: 'iam',
    severity: 'MEDIUM',
    title: 'Access key not rotated',
    description: `An active access key is older than ${KEY_MAX_AGE_DAYS} days. Long-lived keys leak through code, laptops and CI logs.`,
    remediation:
      "Create a second key for the user, deploy it wherever the old one is used, check the old key's last-used " +
      'date stops moving, then deactivate and delete the old key. Better: replace user keys with IAM roles. In the console: IAM > Users > the user > Security credentials. With the CLI: aws iam create-access-key --user-name <user>, then aws iam update-access-key --access-key-id <old key> --status Inactive and aws iam delete-access-key.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html',
    controls: { 'cis-aws-7.0': ['2.12'], 'aws-fsbp': ['IAM.3'] },
    evaluate: onPart('iamPrincipals', (principals, ctx) =>
      failing(
        activeKeys(principals)
          .filter(({ key }) => daysSince(key.createdAt, ctx.now) > KEY_MAX_AGE_DAYS)
          .map(({ user, key }) =>
            keyResource(
              user,
              key,
              `Access key ${key.id} of IAM user ${user.name} is ${age(daysSince(key.createdAt, ctx.now))} old.`,
            ),
          ),
      ),
    ),
  },
  {
    id: 'iam.access_key_unused',
    service: 'iam',
    prowler: ['iam_user_accesskey_unused'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'Unused access key',
    description:
      `An active access key has not been used for ${KEY_UNUSED_DAYS} days (or was never used and is older than ` +
      `${KEY_UNUSED_DAYS} days). Keys nobody needs are pure risk.`,
    remediation:
      'Deactivate the key, wait to see that nothing breaks, then delete it (IAM > Users > Security credentials). In the console: IAM > Users > the user > Security credentials > Actions. With the CLI: aws iam update-access-key --user-name <user> --access-key-id <key> --status Inactive, then aws iam delete-access-key.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_finding-unused.html',
    controls: { 'cis-aws-7.0': ['2.11'], 'aws-fsbp': ['IAM.8'] },
    evaluate: onParts(['iamPrincipals', 'credentialReport'], (principals, report, ctx) => {
      const rows = new Map(report.users.map((row) => [row.arn, row]));
      const unread: Unread[] = [];
      const resources: FailingResource[] = [];
      for (const { user, key } of activeKeys(principals)) {
        const used = lastUsed(key, rows.get(user.arn));
        const oldEnough = daysSince(key.createdAt, ctx.now) > KEY_UNUSED_DAYS;
        // A key the report does not show yet is younger than the report: too young to be unused.
        if (used === undefined) {
          if (oldEnough) unread.push(notInReport(report, key.id));
        } else if (daysSince(used ?? key.createdAt, ctx.now) > KEY_UNUSED_DAYS) {
          resources.push(
            keyResource(
              user,
              key,
              used
                ? `Access key ${key.id} of IAM user ${user.name} was last used at ${used}.`
                : `Access key ${key.id} of IAM user ${user.name} was created at ${key.createdAt} and never used.`,
            ),
          );
        }
      }
      return withUnread(failing(resources), unread);
    }),
  },
  {
    id: 'iam.console_password_unused',
    service: 'iam',
    prowler: ['iam_user_console_access_unused'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'Unused console password',
    description:
      `An IAM user's console password has not signed in for ${PASSWORD_UNUSED_DAYS} days or more (or, never used, ` +
      `was set ${PASSWORD_UNUSED_DAYS} days ago or more). A password nobody uses is a way in that nobody would miss, ` +
      'for whoever guesses, phishes or finds it.',
    remediation:
      'Remove the console password (IAM > Users > the user > Security credentials > Console sign-in > Manage > ' +
      'Disable console access), or delete the user if nobody needs it. CLI: aws iam delete-login-profile --user-name ' +
      '<user>. Give people console access through IAM Identity Center instead.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_finding-unused.html',
    controls: { 'cis-aws-7.0': ['2.11'], 'aws-fsbp': ['IAM.8'] },
    evaluate: (inventory, ctx) =>
      withPart(inventory.credentialReport, (report) =>
        unusedPasswords(
          report,
          inventory.iamPrincipals.status === 'ok' ? inventory.iamPrincipals.value : undefined,
          ctx.now,
        ),
      ),
  },
  {
    id: 'iam.user_admin_access',
    service: 'iam',
    prowler: ['iam_user_administrator_access_policy'],
    scenario: 'iam',
    severity: 'HIGH',
    title: 'IAM user with full admin access',
    description:
      'An IAM user is allowed every action on every resource (`*`), every IAM action (`iam:*`, with which it ' +
      'can grant itself the rest), or everything but a list that leaves IAM in (`NotAction`); its credentials are as ' +
      "powerful as the root user's.",
    remediation:
      'Replace AdministratorAccess (or the *:* statement) with policies scoped to what the user does, using IAM ' +
      'last-accessed data to find the services it actually uses. Give human admins access through IAM Identity Center with MFA. In the console: IAM > Users > the user > Permissions > Remove. With the CLI: aws iam detach-user-policy --user-name <user> --policy-arn arn:aws:iam::aws:policy/AdministratorAccess.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_last-accessed.html',
    controls: { 'aws-fsbp': ['IAM.1'] },
    evaluate: onPart('iamPrincipals', ({ users }) =>
      failing(
        users
          .filter((user) => user.adminAccess)
          .map((user) => ({ resource: user.arn, detail: `IAM user ${user.name} has administrator access.` })),
      ),
    ),
  },
  {
    id: 'iam.role_admin_access',
    service: 'iam',
    prowler: ['iam_role_administratoraccess_policy'],
    scenario: 'iam',
    severity: 'MEDIUM',
    title: 'IAM role with full admin access',
    description:
      'A role is allowed every action on every resource (`*`), every IAM action (`iam:*`), or everything but a ' +
      'list that leaves IAM in (`NotAction`); whoever can assume it, or compromise a workload that uses it, owns the account.',
    remediation:
      "Scope the role's policies to the services and resources it needs (IAM Access Analyzer can generate a " +
      'policy from CloudTrail activity) and restrict its trust policy to the principals that must assume it. In the console: IAM > Roles > the role > Permissions. With the CLI: aws iam detach-role-policy --role-name <role> --policy-arn arn:aws:iam::aws:policy/AdministratorAccess.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_last-accessed.html',
    controls: { 'aws-fsbp': ['IAM.1'] },
    evaluate: onPart('iamPrincipals', ({ roles }) =>
      failing(
        roles
          .filter((role) => role.adminAccess)
          .map((role) => ({ resource: role.arn, detail: `IAM role ${role.name} has administrator access.` })),
      ),
    ),
  },
  {
    id: 'iam.password_policy_missing',
    service: 'iam',
    prowler: [
      'iam_password_policy_minimum_length_14',
      'iam_password_policy_reuse_24',
      'iam_password_policy_lowercase',
      'iam_password_policy_uppercase',
      'iam_password_policy_number',
      'iam_password_policy_symbol',
      'iam_password_policy_expires_passwords_within_90_days_or_less',
    ],
    scenario: 'iam',
    severity: 'MEDIUM',
    title: 'No IAM password policy',
    description: 'The account has no password policy, so IAM users may choose short, simple and reused passwords.',
    remediation:
      `Set an account password policy: minimum length ${PASSWORD_MIN_LENGTH} or more, require uppercase, ` +
      'lowercase, numbers and symbols, and prevent reuse of the last 24 passwords (IAM > Account settings > Password policy). In the console: IAM > Account settings > Password policy > Edit. With the CLI: aws iam update-account-password-policy --minimum-password-length 14 --require-uppercase-characters --require-lowercase-characters --require-numbers --require-symbols --password-reuse-prevention 24.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_passwords_account-policy.html',
    controls: { 'cis-aws-7.0': ['2.8', '2.9'], 'aws-fsbp': ['IAM.7'] },
    evaluate: onPart('passwordPolicy', ({ policy }) =>
      failWhen(policy === null, {
        resource: 'password-policy',
        detail: 'No account password policy is set.',
      }),
    ),
  },
  {
    id: 'iam.password_policy_weak',
    service: 'iam',
    prowler: [
      'iam_password_policy_lowercase',
      'iam_password_policy_uppercase',
      'iam_password_policy_number',
      'iam_password_policy_symbol',
      'iam_password_policy_expires_passwords_within_90_days_or_less',
    ],
    scenario: 'iam',
    severity: 'LOW',
    title: 'Weak IAM password policy',
    description:
      'The password policy is weak: any of uppercase, lowercase, numbers or symbols not required, or passwords ' +
      `that never expire or expire after more than ${PASSWORD_MAX_AGE_DAYS} days. (A missing policy is reported by ` +
      'iam.password_policy_missing; a short minimum length and allowed reuse have checks of their own.)',
    remediation:
      'In the IAM console: Edit the account password policy (IAM > Account settings > Password policy > Edit): require at least one ' +
      `uppercase letter, one lowercase letter, one number and one symbol, and turn on password expiration at ${PASSWORD_MAX_AGE_DAYS} ` +
      `days or less. CLI: aws iam update-account-password-policy --require-uppercase-characters --require-lowercase-characters ` +
      `--require-numbers --require-symbols --max-password-age ${PASSWORD_MAX_AGE_DAYS} plus your current length and reuse ` +
      'settings (the call replaces the whole policy).',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_passwords_account-policy.html',
    controls: { 'aws-fsbp': ['IAM.7'] },
    evaluate: onPart('passwordPolicy', ({ policy }) => {
      const weaknesses = policy ? passwordPolicyWeaknesses(policy) : [];
      return failWhen(weaknesses.length > 0, {
        resource: 'password-policy',
        detail: `Password policy: ${weaknesses.join('; ')}.`,
      });
    }),
  },
];
