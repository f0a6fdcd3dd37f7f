import type { AwsManagedPolicy, Collected, IamPrincipals, PasswordPolicy, Unread } from '../scans/inventory';
import { daysSince, failing, failWhen, judgedWithout, onPart, withPart } from './helpers';
import type { Check, CheckResult, FailingResource } from './types';

// Identity governance (CIS 2.6, 2.8, 2.9, 2.13, 2.14, 2.15, 2.17, 2.20): how permissions are granted, which policies
// allow everything, the password policy's length and reuse rules, the kind of MFA device the root user has, and
// certificates left in IAM.

const PASSWORD_MIN_LENGTH = 14;
const PASSWORD_REUSE_PREVENTION = 24;
const SUPPORT_POLICY = 'AWSSupportAccess';
const CLOUDSHELL_POLICY = 'AWSCloudShellFullAccess';

const PASSWORD_POLICY = 'password-policy';
/**
 * What IAM enforces when the account has no password policy (AWS's default): at least 8 characters, reuse allowed.
 * The rules are judged on it, so an account without a policy fails them, beside iam.password_policy_missing: it is
 * short and reusable, and its coverage stays complete.
 */
const AWS_DEFAULT_POLICY = { minimumLength: 8, reusePrevention: null } as const;
const NO_POLICY = "The account has no password policy: AWS's default applies";

/** A rule on the account's password policy, or on AWS's default when it has none (`fallback`: which it is). */
const onPasswordPolicy = (
  rule: (policy: Pick<PasswordPolicy, 'minimumLength' | 'reusePrevention'>, fallback: boolean) => CheckResult,
) => onPart('passwordPolicy', ({ policy }): CheckResult => rule(policy ?? AWS_DEFAULT_POLICY, policy === null));

/** Every user, group and role, with what kind of principal it is. */
const holdersOf = ({ users, groups, roles }: IamPrincipals) => [
  ...users.map((u) => ({ kind: 'IAM user', ...u })),
  ...groups.map((g) => ({ kind: 'IAM group', ...g })),
  ...roles.map((r) => ({ kind: 'IAM role', ...r })),
];

/** Every user, group and role with the AWS managed policy attached, as failing resources. */
function attachedTo(principals: IamPrincipals, policy: string): FailingResource[] {
  return holdersOf(principals)
    .filter((h) => h.managedPolicies.includes(policy))
    .map((h) => ({ resource: h.arn, detail: `${h.kind} ${h.name} has ${policy} attached.` }));
}

/**
 * CIS 2.14: every user, group and role with a policy attached that allows every action on every resource, its own
 * customer managed and inline ones judged by the collector, its AWS managed ones by `awsManagedPolicies`. A
 * principal holding an AWS managed policy whose document was not read is named as unread, unless another of its
 * policies fails it already: with the part refused and no principal failing, the check is not evaluated, never
 * passed (a policy attached while the scan read leaves only its holders unread).
 */
function fullAdminHolders(principals: IamPrincipals, aws: Collected<{ policies: AwsManagedPolicy[] }>): CheckResult {
  const byName = aws.status === 'ok' ? new Map(aws.value.policies.map((p) => [p.name, p])) : undefined;
  const resources: FailingResource[] = [];
  const unread: Unread[] = [];
  for (const holder of holdersOf(principals)) {
    const unknown = holder.managedPolicies.filter((name) => !byName?.has(name));
    const everything = [
      ...holder.managedPolicies.filter((name) => byName?.get(name)?.fullAdmin).map((name) => `${name} (AWS managed)`),
      ...holder.fullAdminPolicies,
    ];
    if (everything.length > 0) {
      resources.push({
        resource: holder.arn,
        detail: `${holder.kind} ${holder.name} has policies that allow every action on every resource: ${everything.join(', ')}.`,
      });
    } else if (unknown.length > 0) {
      unread.push({
        kind: 'resource',
        scope: holder.arn,
        reason:
          aws.status === 'ok'
            ? `The document of its AWS managed ${unknown.length === 1 ? 'policy' : 'policies'} ${unknown.join(', ')} was not read (attached while the scan read).`
            : `The documents of its AWS managed policies (${unknown.join(', ')}): ${aws.reason}`,
      });
    }
  }
  return judgedWithout(resources, [...unread, ...(aws.unread ?? [])], aws.status === 'ok' ? undefined : aws.reason);
}

export const IAM_GOVERNANCE_CHECKS: readonly Check[] = [
  {
    id: 'iam.password_policy_short',
    service: 'iam',
    prowler: ['iam_password_policy_minimum_length_14'],
    scenario: 'iam',
    severity: 'MEDIUM',
    title: 'IAM password policy allows short passwords',
    description:
      `The account password policy lets IAM users choose passwords shorter than ${PASSWORD_MIN_LENGTH} ` +
      'characters; short passwords fall to guessing and brute force. An account without a password policy fails too: ' +
      "AWS's default accepts 8 characters.",
    remediation:
      'In the IAM console open Account settings > Password policy > Edit, set "Password minimum length" to ' +
      `${PASSWORD_MIN_LENGTH} or more and save. CLI: aws iam update-account-password-policy --minimum-password-length ` +
      `${PASSWORD_MIN_LENGTH} plus your current settings (the call replaces the whole policy).`,
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_passwords_account-policy.html',
    controls: { 'cis-aws-7.0': ['2.8'], 'aws-fsbp': ['IAM.15'] },
    evaluate: onPasswordPolicy((policy, fallback) =>
      failWhen(policy.minimumLength < PASSWORD_MIN_LENGTH, {
        resource: PASSWORD_POLICY,
        detail: fallback
          ? `${NO_POLICY}: 8 characters are enough.`
          : `The minimum password length is ${policy.minimumLength}.`,
      }),
    ),
  },
  {
    id: 'iam.password_policy_reuse_allowed',
    service: 'iam',
    prowler: ['iam_password_policy_reuse_24'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'IAM password policy allows password reuse',
    description:
      `The account password policy does not prevent IAM users from reusing their last ${PASSWORD_REUSE_PREVENTION} ` +
      "passwords, so a password that leaked once can come back. An account without a password policy fails too: AWS's " +
      'default prevents no reuse.',
    remediation:
      'In the IAM console open Account settings > Password policy > Edit, tick "Prevent password reuse", set it to ' +
      `${PASSWORD_REUSE_PREVENTION} and save. CLI: aws iam update-account-password-policy --password-reuse-prevention ` +
      `${PASSWORD_REUSE_PREVENTION} plus your current settings (the call replaces the whole policy).`,
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_passwords_account-policy.html',
    controls: { 'cis-aws-7.0': ['2.9'], 'aws-fsbp': ['IAM.16'] },
    evaluate: onPasswordPolicy((policy, fallback) =>
      failWhen((policy.reusePrevention ?? 0) < PASSWORD_REUSE_PREVENTION, {
        resource: PASSWORD_POLICY,
        detail: fallback
          ? `${NO_POLICY}: nothing prevents reuse.`
          : policy.reusePrevention
            ? `Only the last ${policy.reusePrevention} passwords are remembered.`
            : 'Password reuse is not prevented.',
      }),
    ),
  },
  {
    id: 'iam.user_direct_policies',
    service: 'iam',
    prowler: ['iam_policy_attached_only_to_group_or_roles'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'IAM user with policies attached directly',
    description:
      'An IAM user has managed policies attached to it or inline policies of its own instead of getting its ' +
      'permissions from groups. Permissions scattered over users are hard to review and are left behind when people ' +
      'change roles.',
    remediation:
      'In the IAM console: Create an IAM group for the job (IAM > User groups > Create group), attach the policies there, add the ' +
      "user to it, then detach the user's managed policies (IAM > Users > the user > Permissions > Remove) and delete " +
      'its inline policies. CLI: aws iam add-user-to-group, aws iam detach-user-policy, aws iam delete-user-policy.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_groups_manage_attach-policy.html',
    controls: { 'cis-aws-7.0': ['2.13'], 'aws-fsbp': ['IAM.2'] },
    evaluate: onPart('iamPrincipals', ({ users }) =>
      failing(
        users
          .filter((user) => user.directPolicies.length > 0)
          .map((user) => ({
            resource: user.arn,
            detail: `IAM user ${user.name} has policies of its own: ${user.directPolicies.join(', ')}.`,
          })),
      ),
    ),
  },
  {
    id: 'iam.full_admin_policy_attached',
    service: 'iam',
    prowler: [
      'iam_aws_attached_policy_no_administrative_privileges',
      'iam_customer_attached_policy_no_administrative_privileges',
      'iam_inline_policy_no_administrative_privileges',
    ],
    scenario: 'iam',
    // The administrator checks weigh the risk of the users and roles concerned (HIGH and MEDIUM): this is the CIS
    // control's view of it, policy by policy, which also finds a group without members.
    severity: 'LOW',
    title: 'Policy allowing full "*:*" administrative privileges attached',
    description:
      'A user, group or role has a policy attached (AWS managed, customer managed or inline) with a statement that ' +
      'allows every action (`*`) on every resource (`*`): whoever holds it, or compromises what uses it, can do ' +
      'anything in the account. Least privilege starts with no such policy attached anywhere.',
    remediation:
      'In the IAM console: Replace the policy with ones scoped to what the principal does (IAM last-accessed data and IAM Access Analyzer ' +
      'policy generation show what it uses), then detach it (IAM > Policies > the policy > Entities attached > ' +
      'Detach) or delete the inline policy. CLI: aws iam detach-user-policy, detach-group-policy or detach-role-policy ' +
      '--policy-arn <arn>; aws iam delete-user-policy (or group, role) for inline ones. Keep full administrator ' +
      'access for a break-glass role behind MFA, in IAM Identity Center.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#grant-least-privilege',
    controls: { 'cis-aws-7.0': ['2.14'] },
    evaluate: (inventory) =>
      withPart(inventory.iamPrincipals, (principals) => fullAdminHolders(principals, inventory.awsManagedPolicies)),
  },
  {
    id: 'iam.no_support_role',
    service: 'iam',
    prowler: ['iam_support_role_created'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'No role to manage incidents with AWS Support',
    description:
      `No IAM role has the AWS managed ${SUPPORT_POLICY} policy attached, so during an incident nobody but an ` +
      'administrator can open and follow cases with AWS Support. (CIS 2.15 asks for a role, which incident ' +
      'responders assume: the policy on a user or a group does not count.)',
    remediation:
      'In the IAM console: Create a role for your support staff (IAM > Roles > Create role, trusted entity: your account or ' +
      `identity provider), attach ${SUPPORT_POLICY} and let the incident responders assume it. CLI: aws iam attach-role-policy ` +
      `--role-name <role> --policy-arn arn:aws:iam::aws:policy/${SUPPORT_POLICY}.`,
    docsUrl: 'https://docs.aws.amazon.com/awssupport/latest/user/accessing-support.html',
    controls: { 'cis-aws-7.0': ['2.15'], 'aws-fsbp': ['IAM.18'] },
    evaluate: onPart('iamPrincipals', (principals) => {
      const others = holdersOf(principals).filter(
        (h) => h.kind !== 'IAM role' && h.managedPolicies.includes(SUPPORT_POLICY),
      );
      return failWhen(!principals.roles.some((r) => r.managedPolicies.includes(SUPPORT_POLICY)), {
        resource: 'support-role',
        detail:
          others.length === 0
            ? `No IAM role has ${SUPPORT_POLICY} attached.`
            : `No IAM role has ${SUPPORT_POLICY} attached (only ${others.map((h) => `${h.kind} ${h.name}`).join(', ')}).`,
      });
    }),
  },
  {
    id: 'iam.cloudshell_full_access',
    service: 'iam',
    prowler: ['iam_policy_cloudshell_admin_not_attached'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'AWSCloudShellFullAccess attached',
    description:
      `An IAM user, group or role has the AWS managed ${CLOUDSHELL_POLICY} policy, which allows uploading and ` +
      'downloading files from CloudShell and reaching the internet from it: a way to move data out of the account that ' +
      'bypasses your other controls.',
    remediation:
      `In the IAM console detach ${CLOUDSHELL_POLICY} (Policies > ${CLOUDSHELL_POLICY} > Entities attached > Detach) and, if ` +
      'people need CloudShell, grant a customer managed policy that denies cloudshell:GetFileUploadUrls and ' +
      'cloudshell:GetFileDownloadUrls. CLI: aws iam detach-role-policy (or detach-user-policy, detach-group-policy) ' +
      `--policy-arn arn:aws:iam::aws:policy/${CLOUDSHELL_POLICY}.`,
    docsUrl: 'https://docs.aws.amazon.com/cloudshell/latest/userguide/sec-auth-with-identities.html',
    controls: { 'cis-aws-7.0': ['2.20'] },
    evaluate: onPart('iamPrincipals', (principals) => failing(attachedTo(principals, CLOUDSHELL_POLICY))),
  },
  {
    id: 'iam.expired_server_certificates',
    service: 'iam',
    prowler: ['iam_no_expired_server_certificates_stored'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'Expired server certificate stored in IAM',
    description:
      'A TLS server certificate stored in IAM has expired. A load balancer or CloudFront distribution still ' +
      'using it serves errors, and a stale certificate is easily deployed by mistake.',
    remediation:
      'Check that nothing uses the certificate any more (replace it with an ACM certificate where it is), then ' +
      'delete it: aws iam delete-server-certificate --server-certificate-name <name>. IAM certificates are managed ' +
      'with the CLI or API only: the IAM console does not list them.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_server-certs.html',
    controls: { 'cis-aws-7.0': ['2.17'], 'aws-fsbp': ['IAM.26'] },
    evaluate: onPart('serverCertificates', ({ certificates }, ctx) =>
      failing(
        certificates
          .filter((c) => daysSince(c.expiresAt, ctx.now) > 0)
          .map((c) => ({ resource: c.arn, detail: `Server certificate ${c.name} expired at ${c.expiresAt}.` })),
      ),
    ),
  },
  {
    id: 'iam.root_virtual_mfa',
    service: 'iam',
    prowler: ['iam_root_hardware_mfa_enabled'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'Root user protected by a virtual MFA device',
    description:
      "The root user's MFA is a virtual device (an authenticator app on a phone or computer), which malware or " +
      'a lost, unlocked device can expose. A hardware key keeps the second factor off general-purpose devices. (Not ' +
      'applicable, hence passed, when the root user has no MFA, which iam.root_mfa_disabled reports, or no password, ' +
      'as with centralized root access.)',
    remediation:
      'Sign in as the root user, open Security credentials > Multi-factor authentication, assign a FIDO2 security ' +
      'key or hardware TOTP token, then remove the virtual device. Store a second hardware device as a backup. This is done in the console, signed in as the root user. To check afterwards with the CLI: aws iam list-virtual-mfa-devices --assignment-status Assigned.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/enable-mfa-for-root.html',
    controls: { 'cis-aws-7.0': ['2.6'], 'aws-fsbp': ['IAM.6'] },
    // The device list matters only when the root user can sign in and has MFA: otherwise its kind is moot.
    evaluate: (inventory) =>
      withPart(inventory.iamSummary, (summary) => {
        if (!summary.rootMfaEnabled || summary.rootPasswordPresent === false) return { status: 'pass' };
        return withPart(inventory.rootVirtualMfa, ({ serialNumber }) =>
          failWhen(serialNumber !== null, {
            resource: 'root',
            detail: `The root user's MFA device is the virtual device ${serialNumber}.`,
          }),
        );
      }),
  },
];
