import type { IamRole, RiskyPolicy, Unread } from '../scans/inventory';
import { failing, onPart, onParts, withUnread } from './helpers';
import type { Check, CheckResult, FailingResource } from './types';

// Identity grants that lead to compromise beyond plain administrator access: groups holding AdministratorAccess,
// administrators without MFA, policies that complete a privilege-escalation path (domain/checks/privilege-escalation.ts),
// give full control of CloudTrail or let their holder assume any role, roles other accounts may assume to read
// everything, and service roles a service could be tricked into using for another account.

const describePolicy = (p: RiskyPolicy) =>
  p.kind === 'managed' ? `Customer managed policy ${p.name}` : `Inline policy ${p.name} of ${p.owner}`;

const policyFinding = (p: RiskyPolicy, what: string): FailingResource => ({
  resource: p.arn,
  ...(p.owner ? { owner: p.owner } : {}),
  detail: `${describePolicy(p)} ${what}.`,
});

const escalating = (kind: RiskyPolicy['kind']) =>
  onPart('iamPrincipals', ({ riskyPolicies }) =>
    failing(
      riskyPolicies
        .filter((p) => p.kind === kind && p.escalationPaths.length > 0)
        .map((p) => policyFinding(p, `completes the privilege-escalation paths ${p.escalationPaths.join(', ')}`)),
    ),
  );

/** Roles whose trust policy could not be read: named unread by the checks of their trust. */
const unreadTrust = (role: IamRole): Unread => ({
  kind: 'resource',
  scope: role.arn,
  reason: 'Its trust policy is not a document Sentinel can read.',
});

function byTrust(roles: IamRole[], judge: (role: IamRole) => FailingResource | null): CheckResult {
  const resources: FailingResource[] = [];
  const unread: Unread[] = [];
  for (const role of roles) {
    if (role.trust === null) unread.push(unreadTrust(role));
    else {
      const found = judge(role);
      if (found) resources.push(found);
    }
  }
  return withUnread(failing(resources), unread);
}

const ESCALATION_REMEDIATION =
  'Console: IAM > Policies (or the user, group or role > Permissions for an inline policy) > the policy > Edit: ' +
  'remove the actions of the path, or scope them to named resources (iam:PassRole to the roles meant to be passed, ' +
  'with an iam:PassedToService condition). CLI: aws iam create-policy-version --policy-arn <arn> --policy-document ' +
  'file://policy.json --set-as-default (managed), or aws iam put-<user|group|role>-policy (inline). A permissions ' +
  'boundary on the holders also closes the path.';

export const IAM_ESCALATION_CHECKS: readonly Check[] = [
  {
    id: 'iam.group_admin_access',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'IAM group with AdministratorAccess',
    description:
      'An IAM group has the AWS managed AdministratorAccess policy: every user added to it, now or later, can do ' +
      'anything in the account, and adding a user to the group is a one-call escalation.',
    remediation:
      'Console: IAM > User groups > the group > Permissions: detach AdministratorAccess and attach job-function or ' +
      'least-privilege policies; give the few administrators access through IAM Identity Center instead. CLI: aws iam ' +
      'detach-group-policy --group-name <group> --policy-arn arn:aws:iam::aws:policy/AdministratorAccess.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#grant-least-privilege',
    prowler: ['iam_group_administrator_access_policy'],
    evaluate: onPart('iamPrincipals', ({ groups }) =>
      failing(
        groups
          .filter((g) => g.managedPolicies.includes('AdministratorAccess'))
          .map((g) => ({ resource: g.arn, detail: `Group ${g.name} has the AdministratorAccess policy.` })),
      ),
    ),
  },
  {
    id: 'iam.admin_without_mfa',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Administrator without MFA',
    description:
      "An IAM user with administrator access (through its own, a group's or an inline policy) has no MFA device: " +
      'one leaked password or key-and-password pair is the whole account.',
    remediation:
      'In the console, have the user assign an MFA device (IAM > Users > the user > Security credentials > Assign MFA device; CLI: ' +
      'aws iam create-virtual-mfa-device then aws iam enable-mfa-device), or remove the administrator access. Require ' +
      'MFA for administrative actions with an aws:MultiFactorAuthPresent condition.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_mfa_enable.html',
    prowler: ['iam_administrator_access_with_mfa'],
    evaluate: onParts(['iamPrincipals', 'credentialReport'], ({ users }, report) => {
      const rows = new Map(report.users.map((r) => [r.arn, r]));
      const resources: FailingResource[] = [];
      const unread: Unread[] = [];
      for (const user of users.filter((u) => u.adminAccess)) {
        const row = rows.get(user.arn);
        // Created after the report was generated: its MFA is not known yet.
        if (!row)
          unread.push({
            kind: 'resource',
            scope: user.arn,
            reason: `Not in the credential report generated at ${report.generatedAt}.`,
          });
        else if (!row.mfaActive)
          resources.push({ resource: user.arn, detail: `Administrator ${user.name} has no MFA device.` });
      }
      return withUnread(failing(resources), unread);
    }),
  },
  {
    id: 'iam.policy_privilege_escalation',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Customer managed policy allows privilege escalation',
    description:
      'A customer managed policy attached to a user, group or role allows a known set of actions that lets its ' +
      'holder grant itself more (iam:CreatePolicyVersion, iam:AttachUserPolicy, iam:PassRole with ec2:RunInstances or ' +
      'lambda:CreateFunction, ...): a compromise of any holder becomes administrator access.',
    remediation: ESCALATION_REMEDIATION,
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_use_passrole.html',
    prowler: ['iam_policy_allows_privilege_escalation'],
    evaluate: escalating('managed'),
  },
  {
    id: 'iam.inline_policy_privilege_escalation',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Inline policy allows privilege escalation',
    description:
      'An inline policy of a user, group or role allows a known set of actions that lets its holder grant itself ' +
      'more (iam:PutUserPolicy, iam:CreateAccessKey, iam:PassRole with ec2:RunInstances or lambda:CreateFunction, ...).',
    remediation: ESCALATION_REMEDIATION,
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_managed-vs-inline.html',
    prowler: ['iam_inline_policy_allows_privilege_escalation'],
    evaluate: escalating('inline'),
  },
  {
    id: 'iam.inline_policy_cloudtrail_full_access',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Inline policy gives full control of CloudTrail',
    description:
      'An inline policy allows cloudtrail:* on every resource: its holder can stop logging, delete trails and ' +
      'change where logs go, which is how an intruder erases their tracks.',
    remediation:
      'Console: IAM > the user, group or role > Permissions > the inline policy > Edit: replace cloudtrail:* with the ' +
      'read actions needed (or AWSCloudTrail_ReadOnlyAccess); keep StopLogging, DeleteTrail and UpdateTrail to a ' +
      'break-glass role. CLI: aws iam put-<user|group|role>-policy --<user|group|role>-name <name> --policy-name ' +
      '<policy> --policy-document file://policy.json.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/security_iam_id-based-policy-examples.html',
    prowler: ['iam_inline_policy_no_full_access_to_cloudtrail'],
    evaluate: onPart('iamPrincipals', ({ riskyPolicies }) =>
      failing(
        riskyPolicies
          .filter((p) => p.kind === 'inline' && p.cloudtrailFullAccess)
          .map((p) => policyFinding(p, 'allows cloudtrail:* on every resource')),
      ),
    ),
  },
  {
    id: 'iam.policy_assumes_any_role',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Policy lets its holder assume any role',
    description:
      'A customer managed or inline policy allows sts:AssumeRole on a wildcard resource: its holder can become ' +
      'every role that trusts the account, administrators included, so one compromised identity reaches them all.',
    remediation:
      'Console: IAM > the policy > Edit: list the role ARNs that may be assumed in Resource instead of "*". CLI: ' +
      'aws iam create-policy-version --policy-arn <arn> --policy-document file://policy.json --set-as-default, or ' +
      'aws iam put-<user|group|role>-policy for an inline policy.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_use_permissions-to-switch.html',
    prowler: ['iam_no_custom_policy_permissive_role_assumption'],
    evaluate: onPart('iamPrincipals', ({ riskyPolicies }) =>
      failing(
        riskyPolicies
          .filter((p) => p.assumesAnyRole)
          .map((p) => policyFinding(p, 'allows sts:AssumeRole on a wildcard resource')),
      ),
    ),
  },
  {
    id: 'iam.role_cross_account_readonly',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Role gives another account read access to everything',
    description:
      'A role with the ReadOnlyAccess policy trusts another account (or everyone): whoever controls that account ' +
      "can read this one's configuration and much of its data (objects, parameters, table items).",
    remediation:
      'Check that the trusted account is yours. Console: IAM > Roles > the role > Trust relationships > Edit: remove ' +
      'the account, or add an sts:ExternalId or aws:PrincipalOrgID condition; replace ReadOnlyAccess with ' +
      'SecurityAudit or ViewOnlyAccess where only configuration is needed. CLI: aws iam update-assume-role-policy ' +
      '--role-name <role> --policy-document file://trust.json; aws iam detach-role-policy --role-name <role> ' +
      '--policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_common-scenarios_aws-accounts.html',
    prowler: ['iam_role_cross_account_readonlyaccess_policy'],
    evaluate: onPart('iamPrincipals', ({ roles }) =>
      byTrust(
        roles.filter((r) => r.managedPolicies.includes('ReadOnlyAccess')),
        (role) =>
          role.trust && role.trust.externalPrincipals.length > 0
            ? {
                resource: role.arn,
                detail: `Role ${role.name} has ReadOnlyAccess and trusts ${role.trust.externalPrincipals.join(', ')}.`,
              }
            : null,
      ),
    ),
  },
  {
    id: 'iam.role_confused_deputy',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Service role open to the confused deputy',
    description:
      'A role trusts an AWS service without an aws:SourceAccount, aws:SourceArn or aws:SourceOrgID condition: another ' +
      "account's resource in that service can be set up to act with this role (the cross-service confused deputy).",
    remediation:
      'Console: IAM > Roles > the role > Trust relationships > Edit: add a condition such as "StringEquals": ' +
      '{"aws:SourceAccount": "<account id>"} (or aws:SourceArn with the resource that uses the role) to the statement ' +
      'that trusts the service. CLI: aws iam update-assume-role-policy --role-name <role> --policy-document file://trust.json.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html',
    prowler: ['iam_role_cross_service_confused_deputy_prevention'],
    evaluate: onPart('iamPrincipals', ({ roles }) =>
      byTrust(roles, (role) =>
        role.trust && role.trust.servicesWithoutSourceCondition.length > 0
          ? {
              resource: role.arn,
              detail: `Role ${role.name} trusts ${role.trust.servicesWithoutSourceCondition.join(', ')} with no source condition.`,
            }
          : null,
      ),
    ),
  },
  {
    id: 'iam.user_virtual_mfa',
    service: 'iam',
    scenario: 'iam',
    severity: 'LOW',
    title: 'IAM user protected by a virtual MFA device',
    description:
      "An IAM user's MFA is a virtual device (an authenticator app), which malware or a lost, unlocked phone can " +
      'expose; a hardware key or passkey keeps the second factor off general-purpose devices.',
    remediation:
      'Console: IAM > Users > the user > Security credentials > Assign MFA device: choose Passkey or security key (or ' +
      'Hardware TOTP token), then remove the virtual device. CLI: aws iam deactivate-mfa-device --user-name <user> ' +
      '--serial-number <virtual device ARN> after enabling the new one.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_mfa_enable_fido.html',
    prowler: ['iam_user_hardware_mfa_enabled'],
    evaluate: onParts(['credentialReport', 'rootVirtualMfa'], (report, { userArns }) => {
      const virtual = new Set(userArns);
      return failing(
        report.users
          .filter((u) => u.mfaActive && virtual.has(u.arn))
          .map((u) => ({ resource: u.arn, detail: `User ${u.arn} signs in with a virtual MFA device.` })),
      );
    }),
  },
];
