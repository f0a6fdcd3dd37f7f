import type { Scenario, Severity } from '../checks/types';
import type { Mitre, Tactic, Technique } from './mitre';
import type { DetectionDescription, ServiceGroup } from './types';

// What the attacker's playbook detections are (domain/events/playbook.ts holds how each detects): what an intruder
// does after the first key, call by call. Each names the AWS calls it reads (`calls`): the forwarding rules
// (domain/events/forwarding-rules.ts) forward exactly those, so a detection never waits on an event nobody sends.
// Data only, like domain/events/catalog.ts, so the dashboard can show a signal's detection without its logic.

/** The CloudTrail calls a detection reads: an EventBridge source, CloudTrail's eventSource and the event names. */
export interface PlaybookCalls {
  source: string;
  eventSource: string;
  names: readonly string[];
  /**
   * `global`: the service delivers its events in us-east-1 only (IAM, Organizations, Account Management, Route 53);
   * `regional`: where they happen, so the rule is needed in every enabled region.
   */
  scope: 'global' | 'regional';
  /**
   * Read-only calls (a secret read, a password retrieved): EventBridge delivers them only to a rule in state
   * ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS, so they get a rule of their own, narrowed to these names.
   */
  readOnly?: true;
  /**
   * More of the event's detail to match (a request parameter), so that only the calls the detection reads are
   * forwarded, not every call of that name: a call with it gets a rule of its own.
   */
  narrow?: Record<string, unknown>;
  /**
   * CloudTrail data events (object-level S3 calls): delivered only when a trail of the account logs them, and then
   * in numbers, so always narrowed.
   */
  dataEvent?: true;
}

export interface PlaybookDescription extends DetectionDescription {
  calls: PlaybookCalls;
}

interface Entry {
  id: string;
  scenario: Scenario;
  severity: Severity;
  mitre: [Tactic, Technique][];
  title: string;
  description: string;
  remediation: string;
  docsUrl: string;
  calls: PlaybookCalls;
  group?: ServiceGroup | null;
  confirmedBy?: string[];
}

const entry = ({ mitre, group = null, ...rest }: Entry): PlaybookDescription => ({
  ...rest,
  group,
  mitre: mitre.map(([tactic, technique]): Mitre => ({ tactic, technique })),
});

const iam = (...names: string[]): PlaybookCalls => ({
  source: 'aws.iam',
  eventSource: 'iam.amazonaws.com',
  names,
  scope: 'global',
});
const regional = (service: string, ...names: string[]): PlaybookCalls => ({
  source: `aws.${service}`,
  eventSource: `${service}.amazonaws.com`,
  names,
  scope: 'regional',
});
const readOnly = (service: string, ...names: string[]): PlaybookCalls => ({
  ...regional(service, ...names),
  readOnly: true,
});

const IAM_DOCS = 'https://docs.aws.amazon.com/IAM/latest/UserGuide';
const CONFIRM =
  'Confirm with the identity that made the call, and whoever owns it, that the change was intended. If nobody did it ' +
  'on purpose, treat the identity as compromised: deactivate its keys or revoke its sessions, and review everything it ' +
  'did in CloudTrail around the same time.';

export const PLAYBOOK_CATALOG: readonly PlaybookDescription[] = Object.freeze([
  // ---- Privilege escalation and persistence ----
  entry({
    id: 'event.iam_policy_version_set_default',
    scenario: 'iam',
    severity: 'HIGH',
    mitre: [
      ['TA0004', 'T1098.003'],
      ['TA0003', 'T1098.003'],
    ],
    title: 'IAM policy changed by a new default version',
    description:
      "A customer managed policy's default version was changed (CreatePolicyVersion with setAsDefault, or " +
      'SetDefaultPolicyVersion): everyone it is attached to now has the permissions of that version. An identity allowed ' +
      'to do this on a policy attached to itself can give itself any permission: a well-known privilege escalation.',
    remediation: `${CONFIRM} Set the previous version back as the default (IAM > Policies > the policy > Policy versions > Set as default, or aws iam set-default-policy-version --policy-arn ARN --version-id v1) and delete the new version.`,
    docsUrl: `${IAM_DOCS}/access_policies_managed-versioning.html`,
    calls: iam('CreatePolicyVersion', 'SetDefaultPolicyVersion'),
    group: 'iam',
  }),
  entry({
    id: 'event.iam_user_added_to_group',
    scenario: 'iam',
    severity: 'MEDIUM',
    mitre: [['TA0004', 'T1098.003']],
    title: 'IAM user added to a group',
    description:
      "A user was added to an IAM group and now holds the group's permissions. Adding a user one controls to an " +
      'administrators group is a quiet way to escalate privileges or keep access.',
    remediation: `${CONFIRM} Remove the user from the group if it should not be there (aws iam remove-user-from-group --user-name USER --group-name GROUP).`,
    docsUrl: `${IAM_DOCS}/id_groups_manage_add-remove-users.html`,
    calls: iam('AddUserToGroup'),
    group: 'iam',
  }),
  entry({
    id: 'event.iam_role_trusts_outside_account',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [
      ['TA0003', 'T1098.003'],
      ['TA0001', 'T1199'],
    ],
    title: 'IAM role trusts an outside account',
    description:
      "A role was created, or its trust policy changed, so that an AWS account other than this one (or anyone, '*') " +
      'may assume it. A backdoor role trusting an attacker-controlled account survives the rotation of every key in ' +
      'this one.',
    remediation: `${CONFIRM} If the outside account is not a known partner, restore the trust policy (aws iam update-assume-role-policy --role-name ROLE --policy-document file://trust.json) or delete the role.`,
    docsUrl: `${IAM_DOCS}/id_roles_common-scenarios_third-party.html`,
    calls: iam('CreateRole', 'UpdateAssumeRolePolicy'),
    group: 'iam',
  }),
  entry({
    id: 'event.iam_permissions_boundary_removed',
    scenario: 'iam',
    severity: 'MEDIUM',
    mitre: [['TA0004', 'T1098']],
    title: 'Permissions boundary removed',
    description:
      'The permissions boundary of a user or role was deleted: the boundary capped what its policies can grant, and ' +
      'without it every permission they name applies.',
    remediation: `${CONFIRM} Put the boundary back (aws iam put-user-permissions-boundary or put-role-permissions-boundary --permissions-boundary ARN).`,
    docsUrl: `${IAM_DOCS}/access_policies_boundaries.html`,
    calls: iam('DeleteUserPermissionsBoundary', 'DeleteRolePermissionsBoundary'),
    group: 'iam',
  }),
  entry({
    id: 'event.rolesanywhere_trust_anchor_created',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0003', 'T1098.001']],
    title: 'IAM Roles Anywhere trust anchor or profile created',
    description:
      'A Roles Anywhere trust anchor or profile was created or changed: whoever holds a certificate of that authority ' +
      "can then get the profile's roles' credentials from anywhere, a persistence that no access key rotation ends.",
    remediation: `${CONFIRM} Delete or disable the trust anchor and profile if they are not yours (aws rolesanywhere delete-trust-anchor --trust-anchor-id ID).`,
    docsUrl: 'https://docs.aws.amazon.com/rolesanywhere/latest/userguide/introduction.html',
    calls: regional('rolesanywhere', 'CreateTrustAnchor', 'UpdateTrustAnchor', 'CreateProfile', 'UpdateProfile'),
  }),
  entry({
    id: 'event.federation_token_issued',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0003', 'T1078.004']],
    title: 'Federation token issued to an IAM user',
    description:
      "An IAM user's long-term key was used to get a federation token (GetFederationToken). Its credentials stay " +
      'valid up to 36 hours even after the key is deleted: attackers use it to keep access past a key rotation.',
    remediation: `${CONFIRM} Deleting the key does not end the token's sessions: attach a policy that denies everything to the user with a condition on aws:TokenIssueTime, or revoke with an explicit deny, then rotate the key.`,
    docsUrl: `${IAM_DOCS}/id_credentials_temp_request.html#api_getfederationtoken`,
    calls: readOnly('sts', 'GetFederationToken'),
  }),
  entry({
    id: 'event.access_key_created_for_another_user',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0003', 'T1098.001']],
    title: 'Access key created for another user',
    description:
      'An identity created an access key for a different IAM user. Giving a key to an existing user (often a ' +
      'forgotten service user with broad permissions) is how intruders keep access unnoticed.',
    remediation: `${CONFIRM} Deactivate and delete the key (aws iam update-access-key --status Inactive, then delete-access-key) unless the user's owner asked for it.`,
    docsUrl: `${IAM_DOCS}/id_credentials_access-keys.html`,
    calls: iam('CreateAccessKey'),
    group: 'iam',
  }),
  entry({
    id: 'event.login_profile_updated',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [
      ['TA0004', 'T1098'],
      ['TA0003', 'T1098'],
    ],
    title: "Another user's console password changed",
    description:
      'An identity changed the console password of a different IAM user (UpdateLoginProfile): it can now sign in as ' +
      'that user, with its permissions. A user changing its own password is not reported.',
    remediation: `${CONFIRM} Reset the user's password and ask its owner to set a new one; require MFA for console users.`,
    docsUrl: `${IAM_DOCS}/id_credentials_passwords_admin-change-user.html`,
    calls: iam('UpdateLoginProfile'),
    group: 'iam',
  }),
  entry({
    id: 'event.mfa_device_removed',
    scenario: 'iam',
    severity: 'HIGH',
    mitre: [
      ['TA0005', 'T1556.006'],
      ['TA0003', 'T1556.006'],
    ],
    title: 'MFA device deactivated or deleted',
    description:
      'An MFA device was deactivated for a user, or a virtual MFA device deleted: the user signs in with a password ' +
      'alone until a device is assigned again. Taking MFA off is a step of account takeover.',
    remediation: `${CONFIRM} Assign an MFA device to the user again (IAM > Users > Security credentials > Assign MFA device).`,
    docsUrl: `${IAM_DOCS}/id_credentials_mfa_disable.html`,
    calls: iam('DeactivateMFADevice', 'DeleteVirtualMFADevice'),
    group: 'iam',
    confirmedBy: ['iam.console_user_without_mfa'],
  }),
  entry({
    id: 'event.access_key_reactivated',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0003', 'T1098.001']],
    title: 'Inactive access key reactivated',
    description:
      'An access key was set back to Active. Keys are deactivated when they leak or are retired: turning one back on ' +
      'restores whatever access it had, to whoever holds it.',
    remediation: `${CONFIRM} Deactivate the key again (aws iam update-access-key --access-key-id ID --status Inactive) and delete it if it is not needed.`,
    docsUrl: `${IAM_DOCS}/id_credentials_access-keys.html#Using_RotateAccessKey`,
    calls: iam('UpdateAccessKey'),
    group: 'iam',
  }),
  entry({
    id: 'event.compromised_key_quarantine_attached',
    scenario: 'suspension',
    severity: 'CRITICAL',
    mitre: [['TA0006', 'T1552.001']],
    title: 'AWS quarantined a leaked access key',
    description:
      'An AWSCompromisedKeyQuarantine policy was attached to a user or role. AWS does this when it finds the ' +
      "principal's access key exposed in public (a code repository, a paste site): the account is under an abuse case " +
      'and will be restricted or suspended if it is not answered.',
    remediation:
      'Rotate and delete the exposed key at once, review what it did in CloudTrail, remove resources nobody owns, then ' +
      'answer the AWS Support case (it asks you to confirm the steps). Only then detach the quarantine policy.',
    docsUrl: 'https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSCompromisedKeyQuarantineV3.html',
    calls: iam('AttachUserPolicy', 'AttachRolePolicy'),
    group: 'iam',
    confirmedBy: ['suspension.compromised_key_quarantine'],
  }),
  entry({
    id: 'event.identity_provider_changed',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [
      ['TA0003', 'T1484.002'],
      ['TA0005', 'T1556.007'],
    ],
    title: 'SAML or OIDC identity provider created or changed',
    description:
      'A SAML or OpenID Connect identity provider was created or changed in IAM: whoever controls that provider can ' +
      'sign in to the roles that trust it. A federation backdoor outlives every password and key reset.',
    remediation: `${CONFIRM} Delete the provider if it is not yours (aws iam delete-saml-provider or delete-open-id-connect-provider), and check which roles trust it.`,
    docsUrl: `${IAM_DOCS}/id_roles_providers.html`,
    calls: iam(
      'CreateSAMLProvider',
      'UpdateSAMLProvider',
      'CreateOpenIDConnectProvider',
      'UpdateOpenIDConnectProviderThumbprint',
      'AddClientIDToOpenIDConnectProvider',
    ),
    group: 'iam',
  }),
  entry({
    id: 'event.identity_center_access_granted',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0003', 'T1098.003']],
    title: 'IAM Identity Center access granted or widened',
    description:
      'A permission set was created or given a policy, or a user or group was assigned to an account, in IAM ' +
      'Identity Center: the people it names get those permissions in the accounts it names.',
    remediation: `${CONFIRM} Remove the assignment (aws sso-admin delete-account-assignment) or the policy from the permission set.`,
    docsUrl: 'https://docs.aws.amazon.com/singlesignon/latest/userguide/permissionsetsconcept.html',
    calls: regional(
      'sso',
      'CreatePermissionSet',
      'AttachManagedPolicyToPermissionSet',
      'PutInlinePolicyToPermissionSet',
      'AttachCustomerManagedPolicyReferenceToPermissionSet',
      'CreateAccountAssignment',
    ),
  }),
  // ---- Defence evasion ----
  entry({
    id: 'event.guardduty_findings_suppressed',
    scenario: 'detection',
    severity: 'HIGH',
    mitre: [['TA0005', 'T1562.001']],
    title: 'GuardDuty findings archived automatically',
    description:
      'A GuardDuty filter with the action ARCHIVE was created or changed: the findings it matches are archived as ' +
      'they arrive and nobody sees them. Attackers add one matching their own activity.',
    remediation: `${CONFIRM} Delete the filter (GuardDuty > Findings > Saved rules, or aws guardduty delete-filter) unless it suppresses known noise.`,
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/findings_suppression-rule.html',
    calls: regional('guardduty', 'CreateFilter', 'UpdateFilter'),
    group: 'guardduty',
  }),
  entry({
    id: 'event.guardduty_trusted_ip_list_added',
    scenario: 'detection',
    severity: 'HIGH',
    mitre: [['TA0005', 'T1562.001']],
    title: 'GuardDuty trusted IP list added or changed',
    description:
      'A trusted IP list was created or changed in GuardDuty: it produces no findings for traffic from those ' +
      'addresses, so an attacker adding their own is invisible to it.',
    remediation: `${CONFIRM} Delete or correct the list (GuardDuty > Lists, or aws guardduty delete-ip-set).`,
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_upload-lists.html',
    calls: regional('guardduty', 'CreateIPSet', 'UpdateIPSet'),
    group: 'guardduty',
  }),
  entry({
    id: 'event.guardduty_export_or_members_changed',
    scenario: 'detection',
    severity: 'HIGH',
    mitre: [['TA0005', 'T1562.001']],
    title: 'GuardDuty findings export or member accounts removed',
    description:
      "GuardDuty's publishing destination was deleted or changed, or member accounts were disassociated or stopped " +
      'being monitored: findings stop reaching the SIEM or the administrator account that watches them.',
    remediation: `${CONFIRM} Restore the publishing destination, and re-invite or re-enable monitoring of the members.`,
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_exportfindings.html',
    calls: regional(
      'guardduty',
      'DeletePublishingDestination',
      'UpdatePublishingDestination',
      'DisassociateMembers',
      'DeleteMembers',
      'StopMonitoringMembers',
    ),
    group: 'guardduty',
  }),
  entry({
    id: 'event.config_recording_stopped',
    scenario: 'detection',
    severity: 'HIGH',
    mitre: [['TA0005', 'T1562.008']],
    title: 'AWS Config recording stopped',
    description:
      'An AWS Config recorder was stopped or deleted, or its delivery channel deleted: changes to resources are no ' +
      'longer recorded, so what an intruder changes from now on leaves no configuration history.',
    remediation: `${CONFIRM} Start the recorder again (aws configservice start-configuration-recorder --configuration-recorder-name NAME) or re-create it and its delivery channel.`,
    docsUrl: 'https://docs.aws.amazon.com/config/latest/developerguide/stop-start-recorder.html',
    calls: regional('config', 'StopConfigurationRecorder', 'DeleteConfigurationRecorder', 'DeleteDeliveryChannel'),
  }),
  entry({
    id: 'event.security_hub_disabled',
    scenario: 'detection',
    severity: 'HIGH',
    mitre: [['TA0005', 'T1562.001']],
    title: 'Security Hub disabled or its findings suppressed',
    description:
      'Security Hub was disabled, a standard or integration switched off, or findings set to SUPPRESSED (by a call or ' +
      'an automation rule): security findings stop being seen.',
    remediation: `${CONFIRM} Enable Security Hub again (aws securityhub enable-security-hub), re-enable the standards, and set suppressed findings back to NEW if they were real.`,
    docsUrl: 'https://docs.aws.amazon.com/securityhub/latest/userguide/securityhub-disable.html',
    calls: regional(
      'securityhub',
      'DisableSecurityHub',
      'BatchDisableStandards',
      'DisableImportFindingsForProduct',
      'BatchUpdateFindings',
      'CreateAutomationRule',
    ),
  }),
  entry({
    id: 'event.cloudwatch_alarms_silenced',
    scenario: 'detection',
    severity: 'MEDIUM',
    mitre: [['TA0005', 'T1562.001']],
    title: 'CloudWatch alarms deleted or silenced',
    description:
      'CloudWatch alarms were deleted or their actions disabled: the alarm that would have told someone (of a root ' +
      'sign-in, a policy change, a spend spike) no longer does.',
    remediation: `${CONFIRM} Re-create the alarms from your infrastructure code, or enable their actions again (aws cloudwatch enable-alarm-actions --alarm-names NAME).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/AlarmThatSendsEmail.html',
    calls: { ...regional('monitoring', 'DeleteAlarms', 'DisableAlarmActions'), source: 'aws.cloudwatch' },
  }),
  entry({
    id: 'event.log_group_deleted',
    scenario: 'detection',
    severity: 'MEDIUM',
    mitre: [['TA0005', 'T1562.008']],
    title: 'CloudWatch log group deleted',
    description:
      "A CloudWatch Logs log group was deleted with all its events: if it held a trail's or a VPC's logs, the record " +
      'of what happened is gone.',
    remediation: `${CONFIRM} Re-create the log group and what delivers to it; protect important ones with a deny on logs:DeleteLogGroup.`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/Working-with-log-groups-and-streams.html',
    calls: regional('logs', 'DeleteLogGroup'),
  }),
  entry({
    id: 'event.access_analyzer_deleted',
    scenario: 'detection',
    severity: 'MEDIUM',
    mitre: [['TA0005', 'T1562.001']],
    title: 'IAM Access Analyzer deleted',
    description:
      'An IAM Access Analyzer was deleted: resources shared outside the account are no longer reported in the region.',
    remediation: `${CONFIRM} Create the analyzer again (aws accessanalyzer create-analyzer --analyzer-name NAME --type ACCOUNT).`,
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/what-is-access-analyzer.html',
    calls: regional('access-analyzer', 'DeleteAnalyzer'),
  }),
  entry({
    id: 'event.dns_query_logging_deleted',
    scenario: 'detection',
    severity: 'MEDIUM',
    mitre: [['TA0005', 'T1562.008']],
    title: 'DNS query logging deleted',
    description:
      'A Route 53 Resolver query logging configuration was deleted or disassociated from a VPC: DNS lookups made from ' +
      'the VPC (how malware finds its command server) are no longer logged.',
    remediation: `${CONFIRM} Re-create the configuration and associate it with the VPCs again.`,
    docsUrl: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/resolver-query-logs.html',
    calls: regional('route53resolver', 'DeleteResolverQueryLogConfig', 'DisassociateResolverQueryLogConfig'),
  }),
  entry({
    id: 'event.flow_logs_deleted',
    scenario: 'detection',
    severity: 'HIGH',
    mitre: [['TA0005', 'T1562.008']],
    title: 'VPC flow logs deleted',
    description:
      "Flow logs were deleted: the VPC's network traffic (connections to and from the internet, exfiltration) is no " +
      'longer recorded.',
    remediation: `${CONFIRM} Create the flow logs again (aws ec2 create-flow-logs).`,
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/flow-logs.html',
    calls: regional('ec2', 'DeleteFlowLogs'),
  }),
  entry({
    id: 'event.organization_left',
    scenario: 'detection',
    severity: 'CRITICAL',
    mitre: [['TA0005', 'T1666']],
    title: 'Account left its AWS Organization',
    description:
      "The account left its organization (LeaveOrganization): the organization's service control policies, " +
      'organization trail and delegated security services no longer apply to it.',
    remediation:
      'Confirm with the organization administrators. If nobody did it on purpose, invite the account back, review ' +
      'what it did outside the guardrails, and deny organizations:LeaveOrganization by SCP.',
    docsUrl: 'https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_accounts_leave-as-member.html',
    calls: { ...regional('organizations', 'LeaveOrganization'), scope: 'global' },
  }),
  entry({
    id: 'event.bedrock_invocation_logging_removed',
    scenario: 'detection',
    severity: 'HIGH',
    mitre: [['TA0005', 'T1562.008']],
    title: 'Bedrock model invocation logging removed',
    description:
      'Bedrock model invocation logging was deleted: prompts and completions are no longer recorded, which is how ' +
      'stolen credentials used for LLM-jacking are spotted.',
    remediation: `${CONFIRM} Turn invocation logging back on (Bedrock > Settings > Model invocation logging).`,
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/model-invocation-logging.html',
    calls: regional('bedrock', 'DeleteModelInvocationLoggingConfiguration'),
  }),
  // ---- Exfiltration by sharing ----
  entry({
    id: 'event.ami_shared',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [['TA0010', 'T1537']],
    title: 'AMI shared with another account or made public',
    description:
      'An AMI was given a launch permission for another AWS account or for everyone: its snapshots, with whatever ' +
      'data, keys and code the machine held, can be copied out.',
    remediation: `${CONFIRM} Remove the launch permission (aws ec2 modify-image-attribute --image-id ID --launch-permission "Remove=[{UserId=ACCOUNT}]").`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/sharingamis-explicit.html',
    calls: regional('ec2', 'ModifyImageAttribute'),
  }),
  entry({
    id: 'event.ebs_snapshot_shared',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [['TA0010', 'T1537']],
    title: 'EBS snapshot shared with another account or made public',
    description:
      'An EBS snapshot was given a create-volume permission for another AWS account or for everyone: the disk it copies ' +
      'can be restored elsewhere and read whole.',
    remediation: `${CONFIRM} Remove the permission (aws ec2 modify-snapshot-attribute --snapshot-id ID --attribute createVolumePermission --operation-type remove --user-ids ACCOUNT).`,
    docsUrl: 'https://docs.aws.amazon.com/ebs/latest/userguide/ebs-modifying-snapshot-permissions.html',
    calls: regional('ec2', 'ModifySnapshotAttribute'),
  }),
  entry({
    id: 'event.rds_snapshot_shared',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [['TA0010', 'T1537']],
    title: 'RDS snapshot shared with another account or made public',
    description:
      'A database snapshot was shared with another AWS account or with everyone (restore attribute): the whole ' +
      'database can be restored and read outside the account.',
    remediation: `${CONFIRM} Remove the account from the snapshot's restore attribute (aws rds modify-db-snapshot-attribute --attribute-name restore --values-to-remove ACCOUNT).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_ShareSnapshot.html',
    calls: regional('rds', 'ModifyDBSnapshotAttribute', 'ModifyDBClusterSnapshotAttribute'),
  }),
  entry({
    id: 'event.s3_bucket_shared_externally',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [['TA0010', 'T1537']],
    title: 'Bucket policy grants access to another account',
    description:
      'A bucket policy now allows an AWS account other than this one: a backdoored bucket policy lets an attacker ' +
      "read or write the bucket from their own account, where this account's logs do not follow them.",
    remediation: `${CONFIRM} Remove the statement naming the outside account (S3 > the bucket > Permissions > Bucket policy).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/example-walkthroughs-managing-access-example2.html',
    calls: regional('s3', 'PutBucketPolicy'),
    group: 's3',
  }),
  // ---- Compute and LLM abuse ----
  entry({
    id: 'event.gpu_capacity_requested',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0040', 'T1496.001']],
    title: 'GPU or high-end capacity requested outside RunInstances',
    description:
      'Spot instances, a fleet, a launch template or an Auto Scaling group were asked for GPU or other high-end ' +
      'instance types. Crypto-miners use these paths as much as RunInstances, and they cost the same.',
    remediation: `${CONFIRM} Cancel the requests, delete the fleet or group, and terminate what they launched.`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/accelerated-computing-instances.html',
    calls: regional(
      'ec2',
      'RequestSpotInstances',
      'RequestSpotFleet',
      'CreateFleet',
      'CreateLaunchTemplate',
      'CreateLaunchTemplateVersion',
    ),
    group: 'compute',
  }),
  entry({
    id: 'event.gpu_instance_launch_attempted',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0040', 'T1496.001']],
    title: 'GPU instance launch attempted and refused',
    description:
      'A RunInstances call for GPU or other high-end instance types failed (quota, capacity or permissions). Stolen ' +
      'keys are usually tried this way first: the next attempt, in another region or with a quota raised, may succeed.',
    remediation: `${CONFIRM} Find the identity in the event and whether it should launch such instances at all.`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-resource-limits.html',
    calls: regional('ec2', 'RunInstances'),
  }),
  entry({
    id: 'event.lightsail_instances_created',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0040', 'T1496.001']],
    title: 'Lightsail instances created',
    description:
      'Lightsail instances were created. They run outside EC2, where most alerts and dashboards look, and come with ' +
      'fixed monthly prices that add up across regions: miners and spammers use them for exactly that reason.',
    remediation: `${CONFIRM} Delete the instances nobody owns (aws lightsail delete-instance --instance-name NAME).`,
    docsUrl: 'https://docs.aws.amazon.com/lightsail/latest/userguide/what-is-amazon-lightsail.html',
    calls: regional('lightsail', 'CreateInstances', 'CreateInstancesFromSnapshot'),
  }),
  entry({
    id: 'event.batch_compute_environment_created',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0040', 'T1496.001']],
    title: 'Batch compute environment created',
    description:
      'An AWS Batch compute environment was created or resized: it launches instances of the types it names as jobs ' +
      'arrive, a path to large-scale compute that few alerts watch.',
    remediation: `${CONFIRM} Disable and delete the compute environment if nobody owns it (aws batch update-compute-environment --state DISABLED, then delete-compute-environment).`,
    docsUrl: 'https://docs.aws.amazon.com/batch/latest/userguide/compute_environments.html',
    calls: regional('batch', 'CreateComputeEnvironment', 'UpdateComputeEnvironment'),
  }),
  entry({
    id: 'event.auto_scaling_group_created',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0040', 'T1496.001']],
    title: 'Auto Scaling group created or scaled up',
    description:
      'An Auto Scaling group was created, or its desired capacity raised to 10 instances or more: a way to start ' +
      'many instances at once that survives their termination.',
    remediation: `${CONFIRM} Set the group's capacity to zero and delete it if nobody owns it (aws autoscaling delete-auto-scaling-group --force-delete).`,
    docsUrl: 'https://docs.aws.amazon.com/autoscaling/ec2/userguide/auto-scaling-groups.html',
    calls: regional('autoscaling', 'CreateAutoScalingGroup', 'UpdateAutoScalingGroup', 'SetDesiredCapacity'),
  }),
  entry({
    id: 'event.service_quota_increase_requested',
    scenario: 'billing',
    severity: 'MEDIUM',
    mitre: [['TA0040', 'T1496']],
    title: 'Service quota increase requested',
    description:
      'A quota increase was requested (Service Quotas). Attackers raise vCPU and GPU quotas before launching mining ' +
      'fleets; a request nobody planned is an early sign.',
    remediation: `${CONFIRM} Ask AWS Support to cancel the request if it was not yours.`,
    docsUrl: 'https://docs.aws.amazon.com/servicequotas/latest/userguide/request-quota-increase.html',
    calls: regional('servicequotas', 'RequestServiceQuotaIncrease'),
  }),
  entry({
    id: 'event.sagemaker_gpu_resource_created',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0040', 'T1496.001']],
    title: 'SageMaker notebook or job with GPU instances created',
    description:
      'A SageMaker notebook instance, training job or endpoint was created on a GPU instance type (ml.p*, ml.g*, ' +
      'ml.trn*, ml.inf*): expensive by the hour, and a way to mine or run models on stolen credit.',
    remediation: `${CONFIRM} Stop and delete it if nobody owns it.`,
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/notebooks-available-instance-types.html',
    calls: regional('sagemaker', 'CreateNotebookInstance', 'CreateTrainingJob', 'CreateEndpointConfig'),
  }),
  entry({
    id: 'event.bedrock_model_access_enabled',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0040', 'T1496.004']],
    title: 'Bedrock model access enabled',
    description:
      "Access to a Bedrock foundation model was requested or granted (the use-case form, the model's agreement or " +
      'entitlement). LLM-jacking starts here: stolen keys enable the most expensive models and resell access to them.',
    remediation: `${CONFIRM} If nobody asked for the model, deny bedrock:InvokeModel to the identity, and review model invocations in CloudTrail and the bill.`,
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/model-access.html',
    calls: regional(
      'bedrock',
      'PutUseCaseForModelAccess',
      'CreateFoundationModelAgreement',
      'PutFoundationModelEntitlement',
    ),
  }),
  // ---- Ransomware and destruction ----
  entry({
    id: 'event.kms_key_disabled_or_deleted',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [
      ['TA0040', 'T1485'],
      ['TA0040', 'T1486'],
    ],
    title: 'KMS key disabled or scheduled for deletion',
    description:
      'A customer managed KMS key was disabled or scheduled for deletion: everything encrypted with it becomes ' +
      'unreadable, for good once the key is deleted. Ransomware in the cloud works this way.',
    remediation: `${CONFIRM} Cancel the deletion within its waiting period (aws kms cancel-key-deletion --key-id ID) and enable the key again (aws kms enable-key).`,
    docsUrl: 'https://docs.aws.amazon.com/kms/latest/developerguide/deleting-keys.html',
    calls: regional('kms', 'DisableKey', 'ScheduleKeyDeletion'),
  }),
  entry({
    id: 'event.kms_key_policy_opened',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [
      ['TA0040', 'T1486'],
      ['TA0010', 'T1537'],
    ],
    title: 'KMS key policy opened to another account or everyone',
    description:
      "A KMS key's policy now allows an AWS account other than this one, or everyone: data encrypted with the key can " +
      'be decrypted outside the account, or the key used to encrypt data for ransom.',
    remediation: `${CONFIRM} Restore the key policy (aws kms put-key-policy --key-id ID --policy-name default --policy file://policy.json).`,
    docsUrl: 'https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-modifying-external-accounts.html',
    calls: regional('kms', 'PutKeyPolicy', 'CreateGrant'),
  }),
  entry({
    id: 'event.s3_versioning_suspended',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0040', 'T1490']],
    title: 'S3 bucket versioning suspended',
    description:
      'Versioning was suspended on a bucket: objects overwritten or deleted from now on cannot be recovered from ' +
      'earlier versions. Ransomware suspends it before deleting or encrypting objects.',
    remediation: `${CONFIRM} Enable versioning again (aws s3api put-bucket-versioning --bucket BUCKET --versioning-configuration Status=Enabled).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/Versioning.html',
    calls: regional('s3', 'PutBucketVersioning'),
  }),
  entry({
    id: 'event.s3_expiration_lifecycle_rule',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [
      ['TA0040', 'T1485'],
      ['TA0005', 'T1562.008'],
    ],
    title: 'Lifecycle rule expires objects within a week',
    description:
      "A bucket's lifecycle configuration now deletes objects within 7 days of their creation. On a trail's bucket " +
      'it erases the logs of what an intruder did; on a data bucket it is a slow, quiet deletion.',
    remediation: `${CONFIRM} Remove or lengthen the rule (S3 > the bucket > Management > Lifecycle rules).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lifecycle-mgmt.html',
    calls: regional('s3', 'PutBucketLifecycle'),
  }),
  entry({
    id: 'event.s3_objects_encrypted_with_customer_key',
    scenario: 'threat',
    severity: 'CRITICAL',
    mitre: [['TA0040', 'T1486']],
    title: 'Objects rewritten with a customer-provided key',
    description:
      'Objects were written or copied over with server-side encryption with a customer-provided key (SSE-C): only ' +
      'whoever holds that key can read them again. Ransomware encrypts a bucket in place this way.',
    remediation:
      'Find the identity and stop it at once (deactivate its keys, revoke its sessions). Restore the objects from ' +
      'earlier versions or backups, and deny s3:PutObject with the x-amz-server-side-encryption-customer-algorithm ' +
      'header by bucket policy or SCP.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/ServerSideEncryptionCustomerKeys.html',
    calls: {
      ...regional('s3', 'PutObject', 'CopyObject'),
      dataEvent: true,
      narrow: { requestParameters: { 'x-amz-server-side-encryption-customer-algorithm': [{ exists: true }] } },
    },
  }),
  entry({
    id: 'event.backups_deleted',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0040', 'T1490']],
    title: 'Backups deleted',
    description:
      'An AWS Backup vault, recovery point or backup plan was deleted: what ransomware deletes first, so that nothing ' +
      'is left to restore.',
    remediation: `${CONFIRM} Re-create the plan; protect vaults with AWS Backup Vault Lock so recovery points cannot be deleted early.`,
    docsUrl: 'https://docs.aws.amazon.com/aws-backup/latest/devguide/vault-lock.html',
    calls: regional('backup', 'DeleteBackupVault', 'DeleteRecoveryPoint', 'DeleteBackupPlan'),
  }),
  entry({
    id: 'event.ami_deregistered',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0040', 'T1485']],
    title: 'AMI deregistered',
    description:
      'An AMI was deregistered: instances can no longer be launched from it, and with its snapshots deleted it is ' +
      'gone. Attackers destroy golden images to slow recovery.',
    remediation: `${CONFIRM} Restore the AMI from the Recycle Bin if a retention rule kept it (aws ec2 restore-image-from-recycle-bin).`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/deregister-ami.html',
    calls: regional('ec2', 'DeregisterImage'),
  }),
  // ---- Execution and lateral movement ----
  entry({
    id: 'event.ssm_command_sent',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0002', 'T1651']],
    title: 'Command sent to instances through Systems Manager',
    description:
      'SendCommand ran a command on instances through Systems Manager: it runs as root or SYSTEM, and can read the ' +
      "instances' role credentials. Attackers use it to move onto instances without a network path.",
    remediation: `${CONFIRM} Read the command in Systems Manager > Run Command > Command history.`,
    docsUrl: 'https://docs.aws.amazon.com/systems-manager/latest/userguide/run-command.html',
    calls: regional('ssm', 'SendCommand'),
  }),
  entry({
    id: 'event.ssm_session_started',
    scenario: 'threat',
    severity: 'LOW',
    mitre: [['TA0008', 'T1021.007']],
    title: 'Session Manager session started',
    description: 'A Session Manager shell was opened on an instance.',
    remediation: `${CONFIRM} Review the session's log if session logging is on.`,
    docsUrl: 'https://docs.aws.amazon.com/systems-manager/latest/userguide/session-manager.html',
    calls: regional('ssm', 'StartSession'),
  }),
  entry({
    id: 'event.instance_user_data_changed',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [
      ['TA0002', 'T1059.009'],
      ['TA0004', 'T1578.005'],
    ],
    title: "Instance's user data changed",
    description:
      "An instance's user data was changed: the script runs as root the next time the instance starts, a way to " +
      'execute code on it, and read its role credentials, with no network access at all.',
    remediation: `${CONFIRM} Read the new user data (aws ec2 describe-instance-attribute --attribute userData) and restore it before the instance restarts.`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/user-data.html',
    calls: regional('ec2', 'ModifyInstanceAttribute'),
  }),
  entry({
    id: 'event.instance_ssh_key_pushed',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [
      ['TA0008', 'T1021.007'],
      ['TA0003', 'T1098.004'],
    ],
    title: 'SSH key pushed to an instance or its serial console',
    description:
      'A public key was pushed to an instance through EC2 Instance Connect or to its serial console, or serial console ' +
      'access was enabled for the account: a way onto the instance that bypasses key pairs and security groups.',
    remediation: `${CONFIRM} Disable serial console access if nobody needs it (aws ec2 disable-serial-console-access).`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/connect-linux-inst-eic.html',
    calls: regional('ec2-instance-connect', 'SendSSHPublicKey', 'SendSerialConsoleSSHPublicKey'),
  }),
  entry({
    id: 'event.serial_console_access_enabled',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0008', 'T1021.007']],
    title: 'EC2 serial console access enabled',
    description:
      "Serial console access was enabled for the account's instances in the region: with a pushed key, a shell on " +
      'any instance without network access or key pair.',
    remediation: `${CONFIRM} Disable it again (aws ec2 disable-serial-console-access).`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configure-access-to-serial-console.html',
    calls: regional('ec2', 'EnableSerialConsoleAccess'),
  }),
  entry({
    id: 'event.sagemaker_lifecycle_config_changed',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0002', 'T1059']],
    title: 'SageMaker notebook lifecycle script changed',
    description:
      "A notebook instance's lifecycle configuration was created, changed or attached: its script runs as root on " +
      "every start of the notebook, with the notebook's role.",
    remediation: `${CONFIRM} Read the script (aws sagemaker describe-notebook-instance-lifecycle-config) and detach it.`,
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/notebook-lifecycle-config.html',
    calls: regional(
      'sagemaker',
      'CreateNotebookInstanceLifecycleConfig',
      'UpdateNotebookInstanceLifecycleConfig',
      'UpdateNotebookInstance',
    ),
  }),
  entry({
    id: 'event.lambda_function_made_public',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [['TA0003', 'T1546']],
    title: 'Lambda function opened to everyone',
    description:
      "A function's resource policy now lets anyone ('*') invoke it, with no source account or ARN to narrow it: a " +
      "backdoor anyone on the internet can call, running with the function's role.",
    remediation: `${CONFIRM} Remove the statement (aws lambda remove-permission --function-name NAME --statement-id SID).`,
    docsUrl: 'https://docs.aws.amazon.com/lambda/latest/dg/access-control-resource-based.html',
    calls: regional('lambda', 'AddPermission20150331v2', 'AddPermission20150331'),
  }),
  entry({
    id: 'event.lambda_function_url_public',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [['TA0001', 'T1190']],
    title: 'Lambda function URL without authentication',
    description:
      'A function URL was created or changed with auth type NONE: anyone with the URL can invoke the function over ' +
      "HTTPS, with the function's role.",
    remediation: `${CONFIRM} Set the auth type to AWS_IAM (aws lambda update-function-url-config --auth-type AWS_IAM) or delete the URL.`,
    docsUrl: 'https://docs.aws.amazon.com/lambda/latest/dg/urls-auth.html',
    calls: regional('lambda', 'CreateFunctionUrlConfig', 'UpdateFunctionUrlConfig'),
  }),
  entry({
    id: 'event.lambda_code_updated',
    scenario: 'threat',
    severity: 'LOW',
    mitre: [
      ['TA0003', 'T1546'],
      ['TA0002', 'T1648'],
    ],
    title: "Lambda function's code replaced",
    description:
      "A function's code was replaced (UpdateFunctionCode). Deployments do this all day; from an identity that does " +
      "not deploy, it is a backdoor running with the function's role.",
    remediation: `${CONFIRM} Name your deployment roles as trusted automation so their deployments do not alert.`,
    docsUrl: 'https://docs.aws.amazon.com/lambda/latest/dg/configuration-function-zip.html',
    calls: regional('lambda', 'UpdateFunctionCode20150331v2', 'UpdateFunctionCode20150331'),
  }),
  entry({
    id: 'event.lambda_foreign_layer_added',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0003', 'T1546']],
    title: 'Lambda layer from another account added',
    description:
      'A function was given a layer published by another AWS account. A layer can carry an extension that runs ' +
      "alongside every invocation, reading its events and the function's credentials.",
    remediation: `${CONFIRM} Remove the layer (aws lambda update-function-configuration --layers with the function's own layers only).`,
    docsUrl: 'https://docs.aws.amazon.com/lambda/latest/dg/chapter-layers.html',
    calls: regional(
      'lambda',
      'UpdateFunctionConfiguration20150331v2',
      'UpdateFunctionConfiguration20150331',
      'CreateFunction20150331',
    ),
  }),
  // ---- Credential access and discovery (read-only calls) ----
  entry({
    id: 'event.ec2_password_data_retrieved',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0006', 'T1552']],
    title: 'Windows administrator password requested',
    description:
      'GetPasswordData was called for an instance: it returns the encrypted Windows Administrator password, which the ' +
      "instance's key pair decrypts. Requests for instances the caller does not know (failed calls) are counted too: " +
      'that is how stolen keys probe for them.',
    remediation: `${CONFIRM} Change the Administrator password of the instances named.`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/WindowsGuide/connecting_to_windows_instance.html',
    calls: readOnly('ec2', 'GetPasswordData'),
  }),
  entry({
    id: 'event.instance_user_data_read',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [
      ['TA0007', 'T1580'],
      ['TA0006', 'T1552.001'],
    ],
    title: "Instance's user data read",
    description:
      "An identity read an instance's user data through the API, where configuration scripts often keep passwords " +
      'and keys. Failed reads are counted too: probing for user data is the same intent.',
    remediation: `${CONFIRM} Move secrets out of user data (Secrets Manager, SSM Parameter Store) and rotate the ones it held.`,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/user-data.html',
    // Tools describe instance attributes all day: only reads of the user data are forwarded.
    calls: {
      ...readOnly('ec2', 'DescribeInstanceAttribute'),
      narrow: { requestParameters: { attribute: ['userData'] } },
    },
  }),
  entry({
    id: 'event.secrets_batch_retrieved',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [['TA0006', 'T1555.006']],
    title: 'Secrets retrieved in bulk',
    description:
      'BatchGetSecretValue read several Secrets Manager secrets in one call. Applications read the secret they need; ' +
      'reading many at once is what credential harvesting looks like.',
    remediation: `${CONFIRM} Rotate the secrets it read.`,
    docsUrl: 'https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_BatchGetSecretValue.html',
    calls: readOnly('secretsmanager', 'BatchGetSecretValue'),
  }),
  entry({
    id: 'event.ses_enumerated_with_user_key',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [['TA0007', 'T1526']],
    title: "SES sending limits read with a user's long-term key",
    description:
      "An IAM user's access key asked SES whether the account can send and how much (GetAccountSendingEnabled, " +
      'GetSendQuota). Spammers check this first with keys they found; applications use roles.',
    remediation: `${CONFIRM} Rotate the user's key.`,
    docsUrl: 'https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas.html',
    calls: readOnly('ses', 'GetAccountSendingEnabled', 'GetSendQuota'),
  }),
  // ---- Account takeover and suspension triggers ----
  entry({
    id: 'event.account_contacts_changed',
    scenario: 'suspension',
    severity: 'HIGH',
    mitre: [['TA0003', 'T1098']],
    title: "Account's contact information or alternate contacts changed",
    description:
      "The account's contact information or an alternate contact was set: AWS writes about abuse, security and " +
      'billing to them. An attacker who redirects them hears of the suspension notice before you do.',
    remediation: `${CONFIRM} Set the contacts back (Account > Contact information, Alternate contacts).`,
    docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-update-contact-alternate.html',
    calls: { ...regional('account', 'PutContactInformation', 'PutAlternateContact'), scope: 'global' },
  }),
  entry({
    id: 'event.root_email_change_started',
    scenario: 'threat',
    severity: 'CRITICAL',
    mitre: [
      ['TA0040', 'T1531'],
      ['TA0003', 'T1098'],
    ],
    title: "Root user's e-mail address change",
    description:
      "A change of the root user's e-mail address was started or accepted: whoever controls the new address controls " +
      'password recovery for the root user, and with it the whole account.',
    remediation:
      'If nobody asked for it, contact AWS Support at once from the current root address; secure the root user (new ' +
      'password, MFA) and review what was done.',
    docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-update-root-user-email.html',
    calls: { ...regional('account', 'StartPrimaryEmailUpdate', 'AcceptPrimaryEmailUpdate'), scope: 'global' },
  }),
  entry({
    id: 'event.domain_transfer_started',
    scenario: 'threat',
    severity: 'CRITICAL',
    mitre: [['TA0042', 'T1584.001']],
    title: 'Route 53 domain transfer started or lock removed',
    description:
      "A registered domain's transfer lock was removed, or its transfer to another AWS account or registrar started: " +
      'whoever receives it controls its DNS, e-mail and certificates.',
    remediation:
      'Cancel the transfer (aws route53domains cancel-domain-transfer-to-another-aws-account) and turn the transfer ' +
      'lock back on (enable-domain-transfer-lock).',
    docsUrl: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/domain-transfer-from-route-53.html',
    calls: {
      ...regional('route53domains', 'DisableDomainTransferLock', 'TransferDomainToAnotherAwsAccount', 'TransferDomain'),
      scope: 'global',
    },
  }),
  entry({
    id: 'event.ses_sending_changed',
    scenario: 'suspension',
    severity: 'MEDIUM',
    mitre: [['TA0040', 'T1496.004']],
    title: 'SES sending enabled or production access requested',
    description:
      'Sending was enabled for the account in SES, or production access requested: spammers with stolen keys do ' +
      "this to send from the account's reputation, and AWS suspends accounts that send spam.",
    remediation: `${CONFIRM} Disable sending (aws ses update-account-sending-enabled --no-enabled) if nobody sends mail from the account.`,
    docsUrl: 'https://docs.aws.amazon.com/ses/latest/dg/request-production-access.html',
    calls: regional('ses', 'UpdateAccountSendingEnabled', 'PutAccountDetails'),
  }),
  // ---- Privilege escalation, exposure and persistence beyond IAM users ----
  entry({
    id: 'event.iam_policy_version_grants_escalation',
    scenario: 'iam',
    severity: 'HIGH',
    mitre: [
      ['TA0004', 'T1098.003'],
      ['TA0003', 'T1098.003'],
    ],
    title: 'IAM policy version grants administrator, IAM or role assumption on everything',
    description:
      'A new version of a customer managed policy allows every action, every IAM action, or sts:AssumeRole on every ' +
      'resource. Whether or not it was made the default, it is one SetDefaultPolicyVersion away from giving whoever ' +
      'holds the policy the whole account: the first step of the policy-version privilege escalation.',
    remediation: `${CONFIRM} Delete the version (IAM > Policies > the policy > Policy versions > Delete, or aws iam delete-policy-version --policy-arn ARN --version-id v2) after setting a reviewed version as the default.`,
    docsUrl: `${IAM_DOCS}/access_policies_managed-versioning.html`,
    calls: iam('CreatePolicyVersion'),
    group: 'iam',
  }),
  entry({
    id: 'event.eks_cluster_admin_granted',
    scenario: 'iam',
    severity: 'HIGH',
    mitre: [
      ['TA0004', 'T1098.006'],
      ['TA0003', 'T1098.006'],
    ],
    title: 'EKS cluster administrator access granted',
    description:
      'An IAM principal was given administrator access to an EKS cluster: the cluster admin access policy associated ' +
      'with its access entry, or an access entry putting it in the system:masters group. It can then run anything on ' +
      "the cluster's nodes and read every Kubernetes secret.",
    remediation: `${CONFIRM} Remove the access (EKS > the cluster > Access > IAM access entries, or aws eks disassociate-access-policy --cluster-name NAME --principal-arn ARN --policy-arn POLICY, aws eks delete-access-entry).`,
    docsUrl: 'https://docs.aws.amazon.com/eks/latest/userguide/access-policies.html',
    calls: regional('eks', 'AssociateAccessPolicy', 'CreateAccessEntry', 'UpdateAccessEntry'),
  }),
  entry({
    id: 'event.eks_endpoint_made_public',
    scenario: 'exposure',
    severity: 'MEDIUM',
    mitre: [['TA0005', 'T1562.007']],
    title: "EKS cluster's API endpoint opened to the internet",
    description:
      "An EKS cluster's Kubernetes API endpoint was made reachable from the whole internet (public access on, from " +
      '0.0.0.0/0). Anyone with a leaked kubeconfig or token, or an exploit for the API server, can now reach it.',
    remediation: `${CONFIRM} Restrict public access to known ranges or turn it off (EKS > the cluster > Networking > Manage endpoint access, or aws eks update-cluster-config --name NAME --resources-vpc-config endpointPublicAccess=false,endpointPrivateAccess=true).`,
    docsUrl: 'https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html',
    calls: regional('eks', 'CreateCluster', 'UpdateClusterConfig'),
  }),
  entry({
    id: 'event.rds_instance_made_public',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [
      ['TA0005', 'T1562.007'],
      ['TA0010', 'T1537'],
    ],
    title: 'RDS database made publicly accessible',
    description:
      'A database instance was created or modified with PubliclyAccessible: its endpoint resolves to a public address, ' +
      'and only its security groups stand between the database and the internet. Attackers open a database this way ' +
      'to copy it out, or after resetting its master password.',
    remediation: `${CONFIRM} Turn public access off (RDS > Databases > the instance > Modify > Connectivity > Not publicly accessible, or aws rds modify-db-instance --db-instance-identifier ID --no-publicly-accessible --apply-immediately).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_VPC.WorkingWithRDSInstanceinaVPC.html',
    calls: regional('rds', 'CreateDBInstance', 'ModifyDBInstance'),
  }),
  entry({
    id: 'event.rds_master_password_changed',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [
      ['TA0003', 'T1098'],
      ['TA0040', 'T1531'],
    ],
    title: 'RDS master password reset',
    description:
      "The master user's password of a database instance or cluster was changed through the RDS API. Whoever has " +
      'rds:ModifyDBInstance can take over a database this way without knowing any database credential, and lock its ' +
      'owners out.',
    remediation: `${CONFIRM} Set a new master password and rotate it into the applications (RDS > Databases > the instance > Modify > New master password, or aws rds modify-db-instance --db-instance-identifier ID --manage-master-user-password).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_ResetPassword.html',
    calls: regional('rds', 'ModifyDBInstance', 'ModifyDBCluster'),
  }),
  entry({
    id: 'event.vpc_peering_to_outside_account',
    scenario: 'exposure',
    severity: 'MEDIUM',
    mitre: [
      ['TA0005', 'T1599'],
      ['TA0010', 'T1537'],
    ],
    title: 'VPC peering requested with another account',
    description:
      'A VPC peering connection was requested with a VPC of another AWS account. Once accepted and routed, that ' +
      "account's network reaches this VPC's private addresses, past every internet-facing control.",
    remediation: `${CONFIRM} Delete the peering connection if the account is not a known partner (VPC > Peering connections > Actions > Delete, or aws ec2 delete-vpc-peering-connection --vpc-peering-connection-id ID).`,
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/peering/create-vpc-peering-connection.html',
    calls: regional('ec2', 'CreateVpcPeeringConnection'),
  }),
  entry({
    id: 'event.traffic_mirror_session_created',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [
      ['TA0006', 'T1040'],
      ['TA0009', 'T1040'],
    ],
    title: 'Traffic mirroring session created',
    description:
      "A traffic mirroring session now copies an instance's network traffic to a mirror target: everything the " +
      'instance sends and receives unencrypted (credentials, session cookies, database queries) can be read there.',
    remediation: `${CONFIRM} Delete the session and its target if nobody set them up to investigate (VPC > Traffic mirroring > Mirror sessions > Delete, or aws ec2 delete-traffic-mirror-session --traffic-mirror-session-id ID).`,
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/mirroring/what-is-traffic-mirroring.html',
    calls: regional('ec2', 'CreateTrafficMirrorSession'),
  }),
  entry({
    id: 'event.ecr_repository_shared_externally',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [['TA0010', 'T1537']],
    title: 'ECR repository opened to everyone or another account',
    description:
      "A container repository's policy now lets everyone, or an AWS account other than this one, pull (or push) its " +
      "images: the application's code, its build secrets, or a way to plant a backdoored image.",
    remediation: `${CONFIRM} Restore the repository policy (ECR > Repositories > the repository > Permissions, or aws ecr set-repository-policy --repository-name NAME --policy-text file://policy.json, or aws ecr delete-repository-policy).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonECR/latest/userguide/repository-policies.html',
    calls: regional('ecr', 'SetRepositoryPolicy'),
  }),
  entry({
    id: 'event.sns_topic_shared_externally',
    scenario: 'exposure',
    severity: 'MEDIUM',
    mitre: [['TA0010', 'T1537']],
    title: 'SNS topic opened to everyone or another account',
    description:
      "An SNS topic's access policy now lets everyone, or an AWS account other than this one, publish to it or " +
      'subscribe to it: an outsider can read every message it carries, or send alerts and orders in its name.',
    remediation: `${CONFIRM} Restore the topic's access policy (SNS > Topics > the topic > Edit > Access policy, or aws sns set-topic-attributes --topic-arn ARN --attribute-name Policy --attribute-value file://policy.json, or aws sns remove-permission).`,
    docsUrl: 'https://docs.aws.amazon.com/sns/latest/dg/sns-access-policy-use-cases.html',
    calls: regional('sns', 'SetTopicAttributes', 'CreateTopic', 'AddPermission'),
  }),
  entry({
    id: 'event.sqs_queue_shared_externally',
    scenario: 'exposure',
    severity: 'MEDIUM',
    mitre: [['TA0010', 'T1537']],
    title: 'SQS queue opened to everyone or another account',
    description:
      "An SQS queue's access policy now lets everyone, or an AWS account other than this one, send to it or receive " +
      'from it: an outsider can read the messages, or feed the consumers work of its own.',
    remediation: `${CONFIRM} Restore the queue's access policy (SQS > Queues > the queue > Access policy, or aws sqs set-queue-attributes --queue-url URL --attributes file://attributes.json, or aws sqs remove-permission).`,
    docsUrl:
      'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-basic-examples-of-sqs-policies.html',
    calls: regional('sqs', 'SetQueueAttributes', 'CreateQueue', 'AddPermission'),
  }),
  entry({
    id: 'event.secret_policy_opened',
    scenario: 'exposure',
    severity: 'HIGH',
    mitre: [
      ['TA0006', 'T1555.006'],
      ['TA0010', 'T1537'],
    ],
    title: 'Secrets Manager secret opened to everyone or another account',
    description:
      "A secret's resource policy now lets everyone, or an AWS account other than this one, act on it: an attacker " +
      'who opens a secret to an account it controls can read it from there, where this account logs nothing.',
    remediation: `${CONFIRM} Restore the resource policy (Secrets Manager > the secret > Resource permissions, or aws secretsmanager delete-resource-policy --secret-id ID) and rotate the secret.`,
    docsUrl: 'https://docs.aws.amazon.com/secretsmanager/latest/userguide/auth-and-access_resource-policies.html',
    calls: regional('secretsmanager', 'PutResourcePolicy'),
  }),
  entry({
    id: 'event.secret_deletion_scheduled',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [
      ['TA0040', 'T1485'],
      ['TA0005', 'T1562.001'],
    ],
    title: 'Secret scheduled for deletion or its rotation cancelled',
    description:
      'A Secrets Manager secret was scheduled for deletion (or deleted at once), or its rotation was turned off. ' +
      'Deleting secrets breaks the applications that read them; stopping rotation keeps a stolen value valid.',
    remediation: `${CONFIRM} Restore a secret scheduled for deletion (Secrets Manager > the secret > Cancel deletion, or aws secretsmanager restore-secret --secret-id ID) and turn rotation back on (aws secretsmanager rotate-secret --secret-id ID).`,
    docsUrl: 'https://docs.aws.amazon.com/secretsmanager/latest/userguide/manage_delete-restore-secret.html',
    calls: regional('secretsmanager', 'DeleteSecret', 'CancelRotateSecret'),
  }),
  entry({
    id: 'event.cloudformation_stackset_created',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [
      ['TA0003', 'T1098'],
      ['TA0008', 'T1021.007'],
    ],
    title: 'CloudFormation StackSet created or deployed',
    description:
      'A StackSet was created, or its stacks deployed to accounts and regions. From an administrator account a ' +
      'StackSet plants the same resources (a backdoor role, a user) in every target account at once, and redeploys ' +
      'them when they are removed.',
    remediation: `${CONFIRM} Review the template and the target accounts; delete the stack instances and the StackSet if nobody created them (CloudFormation > StackSets > Actions > Delete stacks from StackSet, or aws cloudformation delete-stack-instances, then delete-stack-set).`,
    docsUrl: 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/what-is-cfnstacksets.html',
    calls: regional('cloudformation', 'CreateStackSet', 'CreateStackInstances'),
  }),
  entry({
    id: 'event.glue_dev_endpoint_key_added',
    scenario: 'threat',
    severity: 'HIGH',
    mitre: [
      ['TA0004', 'T1098.004'],
      ['TA0008', 'T1021.007'],
    ],
    title: 'SSH key added to a Glue development endpoint',
    description:
      'A Glue development endpoint was created or updated with an SSH public key. Whoever holds the private key gets ' +
      "a shell on the endpoint with its role's permissions: a known way to escalate through iam:PassRole.",
    remediation: `${CONFIRM} Remove the key or delete the endpoint (aws glue update-dev-endpoint --endpoint-name NAME --delete-public-keys KEY, or aws glue delete-dev-endpoint --endpoint-name NAME; Glue > Dev endpoints in the console).`,
    docsUrl: 'https://docs.aws.amazon.com/glue/latest/dg/dev-endpoint.html',
    calls: regional('glue', 'CreateDevEndpoint', 'UpdateDevEndpoint'),
  }),
  entry({
    id: 'event.ecs_privileged_task_registered',
    scenario: 'threat',
    severity: 'MEDIUM',
    mitre: [
      ['TA0002', 'T1610'],
      ['TA0040', 'T1496.001'],
    ],
    title: 'ECS task definition with a privileged container or GPUs registered',
    description:
      'A task definition was registered whose container runs privileged (root on the host, every device) or asks for ' +
      'GPUs. Attackers register such tasks to escape onto the container host or to mine on GPUs the account pays for.',
    remediation: `${CONFIRM} Deregister the revision and stop its tasks (ECS > Task definitions > the revision > Deregister, or aws ecs deregister-task-definition --task-definition FAMILY:REVISION and aws ecs stop-task).`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task_definition_parameters.html',
    calls: regional('ecs', 'RegisterTaskDefinition'),
  }),
  entry({
    id: 'event.route53_query_logging_deleted',
    scenario: 'detection',
    severity: 'MEDIUM',
    mitre: [['TA0005', 'T1562.008']],
    title: 'Route 53 public DNS query logging deleted',
    description:
      "The query logging configuration of a public hosted zone was deleted: the record of who resolved the zone's " +
      'names (an attacker checking a phishing or takeover domain, say) stops.',
    remediation: `${CONFIRM} Configure query logging again (Route 53 > Hosted zones > the zone > Configure query logging, or aws route53 create-query-logging-config --hosted-zone-id ID --cloud-watch-logs-log-group-arn ARN).`,
    docsUrl: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/query-logs.html',
    calls: { ...regional('route53', 'DeleteQueryLoggingConfig'), scope: 'global' },
  }),
  entry({
    id: 'event.network_acl_opened',
    scenario: 'exposure',
    severity: 'MEDIUM',
    mitre: [['TA0005', 'T1562.007']],
    title: 'Network ACL entry allows all traffic from the internet',
    description:
      'A network ACL entry now allows inbound traffic of every protocol and port from 0.0.0.0/0 or ::/0. Only the ' +
      "security groups remain between the subnet's instances and the internet: attackers widen ACLs before opening " +
      'a group.',
    remediation: `${CONFIRM} Remove or narrow the entry (VPC > Network ACLs > the ACL > Inbound rules, or aws ec2 delete-network-acl-entry --network-acl-id ID --rule-number N --ingress).`,
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/vpc-network-acls.html',
    calls: regional('ec2', 'CreateNetworkAclEntry', 'ReplaceNetworkAclEntry'),
  }),
  entry({
    id: 'event.iam_role_max_session_raised',
    scenario: 'iam',
    severity: 'LOW',
    mitre: [['TA0003', 'T1098']],
    title: "IAM role's maximum session duration raised",
    description:
      "A role's maximum session duration was set above AWS's default of one hour (up to twelve). Credentials taken " +
      'from a session of that role stay valid that much longer after the intruder is found.',
    remediation: `${CONFIRM} Set it back to one hour (IAM > Roles > the role > Edit > Maximum session duration, or aws iam update-role --role-name ROLE --max-session-duration 3600).`,
    docsUrl: `${IAM_DOCS}/id_roles_update-role-settings.html`,
    calls: iam('UpdateRole', 'CreateRole'),
    group: 'iam',
  }),
  entry({
    id: 'event.organizations_policy_detached',
    scenario: 'detection',
    severity: 'HIGH',
    mitre: [
      ['TA0005', 'T1484'],
      ['TA0005', 'T1562.001'],
    ],
    title: 'Service control policy detached or turned off',
    description:
      'A policy was detached from the organization root, an organizational unit or an account, or service control ' +
      'policies were turned off for the root. The guardrails it enforced (regions denied, CloudTrail and GuardDuty ' +
      'protected) stop applying to every account below it at once.',
    remediation: `${CONFIRM} Attach the policy again (AWS Organizations > Policies > the policy > Targets > Attach, or aws organizations attach-policy --policy-id ID --target-id TARGET; aws organizations enable-policy-type for the root).`,
    docsUrl: 'https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps.html',
    calls: { ...regional('organizations', 'DetachPolicy', 'DisablePolicyType'), scope: 'global' },
  }),
]);

/**
 * The playbook detections whose signal stands for a resource's state (a snapshot shared, a bucket's versioning
 * suspended): one signal per resource while it lasts. Every other one stands for something that happened, counted per
 * principal (domain/events/occurrences.ts).
 */
export const PLAYBOOK_STATE_IDS: ReadonlySet<string> = new Set([
  'event.ami_shared',
  'event.ebs_snapshot_shared',
  'event.rds_snapshot_shared',
  'event.s3_bucket_shared_externally',
  'event.kms_key_policy_opened',
  'event.lambda_function_made_public',
  'event.lambda_function_url_public',
  'event.s3_versioning_suspended',
  'event.s3_expiration_lifecycle_rule',
  'event.iam_role_trusts_outside_account',
  'event.iam_user_added_to_group',
  'event.identity_provider_changed',
  'event.compromised_key_quarantine_attached',
  'event.rds_instance_made_public',
  'event.eks_endpoint_made_public',
  'event.vpc_peering_to_outside_account',
  'event.ecr_repository_shared_externally',
  'event.sns_topic_shared_externally',
  'event.sqs_queue_shared_externally',
  'event.secret_policy_opened',
  'event.network_acl_opened',
  'event.iam_role_max_session_raised',
]);
