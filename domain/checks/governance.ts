import type { GuardDutyRegion, OrganizationView } from '../scans/inventory';
import { failing, failWhen, onPart } from './helpers';
import type { Check, CheckResult } from './types';

// Organization-wide governance, judged from the management account (what only it can read), and the protection
// plans of GuardDuty's detectors. In a member account, or an account outside any organization, the organization's
// checks are not applicable: they are reported so (not evaluated, with nothing missing), never passed.

function notApplicable(organization: OrganizationView): CheckResult {
  return {
    status: 'not_evaluated',
    absent: true,
    reason:
      organization.role === 'none'
        ? 'Not applicable: the account is not in an AWS Organization.'
        : `Not applicable: the account is a member of organization ${organization.id}; only its management account can read this.`,
  };
}

/** Services whose delegated administrator controls the other accounts, not just watches them. */
const CONTROLLING_SERVICES = new Set([
  'sso.amazonaws.com',
  'member.org.stacksets.cloudformation.amazonaws.com',
  'iam.amazonaws.com',
  'organizations.amazonaws.com',
  'ssm.amazonaws.com',
  'backup.amazonaws.com',
  'account.amazonaws.com',
]);

/** A rule on what the management account reads; not applicable elsewhere. */
const fromManagement = (rule: (organization: OrganizationView) => CheckResult) =>
  onPart('organization', (organization) =>
    organization.role === 'management' ? rule(organization) : notApplicable(organization),
  );

/** The management account's resource for the organization's own findings. */
const orgResource = (organization: OrganizationView) => organization.id ?? 'organization';

/** Whether the organization has a delegated administrator for a service principal. */
const delegates = (organization: OrganizationView, principal: string) =>
  (organization.delegatedAdministrators ?? []).some((a) => a.services.includes(principal));

function delegatedAdminCheck(principal: string, label: string) {
  return fromManagement((organization) =>
    failWhen(!delegates(organization, principal), {
      resource: orgResource(organization),
      detail: `Organization ${organization.id} has no delegated administrator for ${label} (${principal}).`,
    }),
  );
}

/** GuardDuty's regions with an enabled detector whose protection plan `feature` is not ENABLED. */
function planOff(feature: string, label: string) {
  return onPart('guardduty', ({ regions }) =>
    failing(
      regions
        .filter((r: GuardDutyRegion) => r.detectorEnabled && r.features[feature] !== 'ENABLED')
        .map((r) => ({
          resource: `guardduty-${r.region}`,
          region: r.region,
          detail:
            r.features[feature] === undefined
              ? `GuardDuty's detector in ${r.region} does not report ${label} (${feature}).`
              : `GuardDuty's ${label} (${feature}) is ${r.features[feature]} in ${r.region}.`,
        })),
    ),
  );
}

const planRemediation = (feature: string, consolePath: string) =>
  `Console: GuardDuty > ${consolePath}: enable it (in each region, or for the organization from the GuardDuty ` +
  `delegated administrator). CLI: aws guardduty update-detector --detector-id <id> --features ` +
  `Name=${feature},Status=ENABLED --region <region>.`;

export const GOVERNANCE_CHECKS: readonly Check[] = [
  {
    id: 'iam.organization_delegated_admin',
    service: 'organizations',
    scenario: 'iam',
    severity: 'CRITICAL',
    title: 'Member account delegated control over other accounts',
    description:
      'A member account is delegated administrator of a service that controls the other accounts (ListDelegatedAdministrators): ' +
      'IAM Identity Center can give anyone administrator access anywhere, CloudFormation StackSets deploys into every ' +
      'account, IAM root access management acts as their root users, Organizations policy management writes the SCPs. ' +
      'Whoever controls that account controls the organization. Delegations to a security account for monitoring ' +
      'services (GuardDuty, Security Hub, Config...), which CIS recommends, are not reported. Prowler reports every ' +
      'delegated administrator not on its configured list; here the accepted findings are the trusted list.',
    remediation:
      'Check that the account is a hardened administration account that nobody runs workloads in, and accept the ' +
      "finding if so. Otherwise, from the management account: Console: the service's console > Settings > Delegated " +
      'administrator > Deregister; CLI: aws organizations deregister-delegated-administrator --account-id <account> ' +
      '--service-principal <service>.',
    docsUrl: 'https://docs.aws.amazon.com/organizations/latest/userguide/orgs_integrate_delegated_admin.html',
    prowler: ['organizations_delegated_administrators'],
    evaluate: fromManagement((organization) =>
      failing(
        (organization.delegatedAdministrators ?? []).flatMap((a) => {
          const controlling = a.services.filter((s) => CONTROLLING_SERVICES.has(s));
          if (controlling.length === 0) return [];
          return [
            {
              resource: a.accountId,
              detail: `Account ${a.accountId} (${a.name}) is delegated administrator for ${controlling.join(', ')}.`,
            },
          ];
        }),
      ),
    ),
  },
  {
    id: 'iam.organization_no_region_restriction',
    service: 'organizations',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'No service control policy confines the organization to its regions',
    description:
      'No service control policy denies requests outside a list of regions (aws:RequestedRegion): stolen ' +
      'credentials can launch instances, miners and resources in regions nobody watches.',
    remediation:
      'Create an SCP that denies every action when aws:RequestedRegion is not one of the regions you use (exempting ' +
      'global services such as IAM, Organizations, STS, CloudFront, Route 53 and Support), and attach it to the root ' +
      'or the workload OUs. Console: AWS Organizations > Policies > Service control policies > Create policy. CLI: ' +
      'aws organizations create-policy --type SERVICE_CONTROL_POLICY --name deny-other-regions --content ' +
      'file://scp.json --description "Regions in use"; aws organizations attach-policy --policy-id <id> --target-id <root or OU id>.',
    docsUrl:
      'https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps_examples_general.html',
    prowler: ['organizations_scp_check_deny_regions'],
    evaluate: fromManagement((organization) =>
      failWhen(!(organization.serviceControlPolicies ?? []).some((p) => p.restrictsRegions), {
        resource: orgResource(organization),
        detail: `None of the ${(organization.serviceControlPolicies ?? []).length} service control policies of organization ${organization.id} restricts regions.`,
      }),
    ),
  },
  {
    id: 'iam.root_credentials_management_off',
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Centralized root access is off for the organization',
    description:
      "IAM's centralized root access (RootCredentialsManagement) is off: every member account keeps its own root " +
      "password, keys and MFA to secure, and a member's root user can be recovered by whoever controls its e-mail.",
    remediation:
      'From the management account: Console: IAM > Root access management > Enable (turns on trusted access for ' +
      "IAM), then delete the member accounts' root credentials. CLI: aws organizations enable-aws-service-access " +
      '--service-principal iam.amazonaws.com; aws iam enable-organizations-root-credentials-management.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_root-user.html#id_root-user-access-management',
    prowler: ['iam_root_credentials_management_enabled'],
    evaluate: fromManagement((organization) =>
      failWhen(organization.rootCredentialsManagement !== true, {
        resource: orgResource(organization),
        detail: `Organization ${organization.id} does not have RootCredentialsManagement enabled.`,
      }),
    ),
  },
  {
    id: 'detection.guardduty_no_delegated_admin',
    service: 'guardduty',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'GuardDuty has no delegated administrator',
    description:
      "No member account is GuardDuty's delegated administrator: findings stay in each account, new accounts are " +
      "not enrolled automatically, and nobody sees the organization's threats in one place.",
    remediation:
      'From the management account: Console: GuardDuty > Settings > Delegated administrator: enter the security ' +
      'account (in every region used), then in that account turn on auto-enable for the organization. CLI: aws ' +
      'guardduty enable-organization-admin-account --admin-account-id <account> --region <region>.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_organizations.html',
    prowler: ['guardduty_delegated_admin_enabled_all_regions'],
    evaluate: delegatedAdminCheck('guardduty.amazonaws.com', 'GuardDuty'),
  },
  {
    id: 'detection.security_hub_no_delegated_admin',
    service: 'securityhub',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'Security Hub has no delegated administrator',
    description:
      "No member account is Security Hub's delegated administrator: findings are not aggregated across the " +
      'organization and new accounts are not enrolled automatically.',
    remediation:
      'From the management account: Console: Security Hub > Settings > General > Delegated administrator: enter the ' +
      'security account, then configure central configuration from it. CLI: aws securityhub ' +
      'enable-organization-admin-account --admin-account-id <account>.',
    docsUrl: 'https://docs.aws.amazon.com/securityhub/latest/userguide/designate-orgs-admin-account.html',
    prowler: ['securityhub_delegated_admin_enabled_all_regions'],
    evaluate: delegatedAdminCheck('securityhub.amazonaws.com', 'Security Hub'),
  },
  {
    id: 'detection.guardduty_s3_protection_off',
    service: 'guardduty',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'GuardDuty S3 Protection is off',
    description:
      'GuardDuty runs without S3 Protection: it does not analyse S3 data events, so bulk downloads, deletions and ' +
      'access from known-bad addresses to buckets go undetected.',
    remediation: planRemediation('S3_DATA_EVENTS', 'Protection plans > S3 Protection'),
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/s3-protection.html',
    controls: { 'aws-fsbp': ['GuardDuty.10'] },
    prowler: ['guardduty_s3_protection_enabled'],
    evaluate: planOff('S3_DATA_EVENTS', 'S3 Protection'),
  },
  {
    id: 'detection.guardduty_eks_audit_logs_off',
    service: 'guardduty',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'GuardDuty EKS Audit Log Monitoring is off',
    description:
      'GuardDuty does not analyse EKS audit logs: a compromised Kubernetes API (anonymous access, privileged pods, ' +
      'secrets read by unknown users) goes undetected.',
    remediation: planRemediation('EKS_AUDIT_LOGS', 'Protection plans > EKS Protection'),
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/kubernetes-protection.html',
    controls: { 'aws-fsbp': ['GuardDuty.5'] },
    prowler: ['guardduty_eks_audit_log_enabled'],
    evaluate: planOff('EKS_AUDIT_LOGS', 'EKS Audit Log Monitoring'),
  },
  {
    id: 'detection.guardduty_ec2_malware_protection_off',
    service: 'guardduty',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'GuardDuty Malware Protection for EC2 is off',
    description:
      'GuardDuty does not scan the volumes of an instance it suspects: a finding about an instance is not confirmed ' +
      'by the malware (miner, backdoor) on its disks.',
    remediation: planRemediation('EBS_MALWARE_PROTECTION', 'Protection plans > Malware Protection for EC2'),
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/malware-protection.html',
    controls: { 'aws-fsbp': ['GuardDuty.8'] },
    prowler: ['guardduty_ec2_malware_protection_enabled'],
    evaluate: planOff('EBS_MALWARE_PROTECTION', 'Malware Protection for EC2'),
  },
  {
    id: 'detection.guardduty_lambda_protection_off',
    service: 'guardduty',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'GuardDuty Lambda Protection is off',
    description:
      'GuardDuty does not watch the network activity of Lambda functions: a function turned into a miner or talking ' +
      'to a command-and-control server goes undetected.',
    remediation: planRemediation('LAMBDA_NETWORK_LOGS', 'Protection plans > Lambda Protection'),
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/lambda-protection.html',
    controls: { 'aws-fsbp': ['GuardDuty.6'] },
    prowler: ['guardduty_lambda_protection_enabled'],
    evaluate: planOff('LAMBDA_NETWORK_LOGS', 'Lambda Protection'),
  },
  {
    id: 'detection.guardduty_rds_protection_off',
    service: 'guardduty',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'GuardDuty RDS Protection is off',
    description:
      'GuardDuty does not analyse Aurora and RDS login activity: brute force and logins from unusual places to the ' +
      'databases go undetected.',
    remediation: planRemediation('RDS_LOGIN_EVENTS', 'Protection plans > RDS Protection'),
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/rds-protection.html',
    controls: { 'aws-fsbp': ['GuardDuty.9'] },
    prowler: ['guardduty_rds_protection_enabled'],
    evaluate: planOff('RDS_LOGIN_EVENTS', 'RDS Protection'),
  },
];
