import type { Mitre } from './mitre';
import { PLAYBOOK_CATALOG } from './playbook-catalog';
import { isSigmaDetection } from './sigma/ids';
import type { DetectionDescription } from './types';
import { WINDOWS_CATALOG } from './windows-catalog';

// What every event detection is: its id, title, severity, scenario, description, remediation, the service group a
// rescan reads and the scan checks that confirm it. Data only, so the dashboard shows a signal's detection without
// shipping the logic that detects it (domain/events/detections.ts, keyed by the same ids).

const SG_REMEDIATION =
  'Confirm the rule was intended. If not, remove it; otherwise narrow its source to known address ' +
  'ranges, or reach the instances through Systems Manager Session Manager or a VPN instead of exposing the port.';

export const DETECTION_CATALOG: readonly DetectionDescription[] = Object.freeze([
  {
    id: 'event.root_console_sign_in',
    mitre: [{ tactic: 'TA0001', technique: 'T1078.004' }],
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'Root user signed in to the console',
    description:
      'Someone signed in to the AWS Management Console as the root user. Day-to-day work never needs it, and the ' +
      "root user can do everything, including closing the account and removing every other user's access.",
    remediation:
      'Confirm with the owner of the root credentials that the sign-in was theirs. If not, reset the root password, ' +
      'replace its MFA device, delete any root access keys, and review CloudTrail for what the session did.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_root-user.html',
    group: null,
    controls: { 'cis-aws-7.0': ['2.7'] },
  },
  {
    id: 'event.root_api_call',
    mitre: [{ tactic: 'TA0001', technique: 'T1078.004' }],
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'Root user made an API call',
    description:
      "An AWS API call was made with the root user's credentials, from the console or with root access keys. " +
      'Only a handful of tasks require the root user; anything else is a sign its credentials are in the wrong hands.',
    remediation:
      'Confirm the call was made on purpose by the owner of the root credentials. If not, reset the root password, ' +
      'replace its MFA device, delete any root access keys, and review everything the root user did in CloudTrail.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/root-user-tasks.html',
    group: null,
    controls: { 'cis-aws-7.0': ['2.7'] },
  },
  {
    id: 'event.console_sign_in_without_mfa',
    mitre: [{ tactic: 'TA0001', technique: 'T1078.004' }],
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Console sign-in without MFA',
    description:
      'An IAM user signed in to the console with a password alone. IAM asks for MFA whenever the user has a device, ' +
      'so this user has none: a phished or reused password is all it takes to sign in as them.',
    remediation:
      "Confirm the sign-in was the user's. Have them assign an MFA device (IAM > Users > Security credentials > " +
      'Assign MFA device), or remove their console password if they do not need the console. Prefer IAM Identity Center ' +
      'for human access.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_mfa.html',
    group: 'iam',
    confirmedBy: ['iam.console_user_without_mfa'],
    controls: { 'cis-aws-7.0': ['2.10'] },
  },
  {
    id: 'event.iam_user_created',
    mitre: [{ tactic: 'TA0003', technique: 'T1136.003' }],
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'IAM user created',
    description:
      'A new IAM user was created. Creating users for persistence is one of the first things an intruder does ' +
      'with stolen credentials.',
    remediation:
      "Confirm who created the user and why. If nobody did it on purpose, delete the user's keys, password and " +
      'policies, delete the user, and rotate the credentials that created it.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_users.html',
    group: 'iam',
  },
  {
    id: 'event.access_key_created',
    mitre: [{ tactic: 'TA0003', technique: 'T1098.001' }],
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'Access key created',
    description:
      'A new access key was created for an IAM user; new keys on existing users are a common way to keep access ' +
      'after a compromise.',
    remediation:
      "Confirm the key's owner created it and needs it. If not, deactivate and delete it and investigate the " +
      'identity that created it.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html',
    group: 'iam',
  },
  {
    id: 'event.login_profile_created',
    mitre: [{ tactic: 'TA0003', technique: 'T1098.001' }],
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'Console password created for an IAM user',
    description:
      'An IAM user was given a console password (a login profile). An intruder does this to a user that had ' +
      'only access keys, to get into the console with it.',
    remediation:
      'Confirm the user needs console access and who set the password. If not, delete the login profile ' +
      '(IAM > Users > Security credentials > Manage console access > Disable) and investigate the identity that created it.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/Using_ManagingLogins.html',
    group: 'iam',
  },
  {
    id: 'event.admin_policy_attached',
    mitre: [{ tactic: 'TA0004', technique: 'T1098.003' }],
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Administrator access granted',
    description:
      'AdministratorAccess or IAMFullAccess was attached to an IAM user, role or group, or an inline policy granting ' +
      'as much (every action, or every IAM action, on every resource) was put on one. Granting itself admin rights is how ' +
      'an intruder turns a foothold into the account.',
    remediation:
      'Confirm the grant was intended. If not, detach or delete the policy, and investigate the identity that ' +
      'granted it. Otherwise scope the permissions to what the principal does, using IAM last-accessed data.',
    docsUrl: 'https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AdministratorAccess.html',
    group: 'iam',
    confirmedBy: ['iam.user_admin_access', 'iam.role_admin_access'],
    controls: { 'cis-aws-7.0': ['2.14'] },
  },
  {
    id: 'event.cloudtrail_logging_stopped',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.008' }],
    scenario: 'detection',
    severity: 'CRITICAL',
    title: 'CloudTrail logging stopped',
    description:
      'Logging was stopped on a CloudTrail trail: what happens in the account from now on is no longer recorded ' +
      'there. Stopping trails is a classic step of an attacker covering their tracks. EventBridge forwards API calls only ' +
      "while a trail logs them: if it was the last, Sentinel sees no more of the account's API calls until logging resumes.",
    remediation:
      'Start logging again at once (CloudTrail > Trails > the trail > Start logging), find who called StopLogging ' +
      'and why, and review what that identity did around the same time.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-turning-off-logging.html',
    group: 'logging',
    confirmedBy: ['detection.trail_not_logging'],
    controls: { 'cis-aws-7.0': ['4.1'] },
  },
  {
    id: 'event.cloudtrail_trail_deleted',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.008' }],
    scenario: 'detection',
    severity: 'CRITICAL',
    title: 'CloudTrail trail deleted',
    description:
      'A CloudTrail trail was deleted: the activity it recorded is no longer kept beyond the 90-day event history. ' +
      'Deleting trails is a classic step of an attacker covering their tracks. EventBridge forwards API calls only while a ' +
      "trail logs them: if it was the last, Sentinel sees no more of the account's API calls.",
    remediation:
      'Find who called DeleteTrail and why. Re-create a multi-region trail logging management events to a ' +
      'dedicated bucket with log file validation, and review what the deleting identity did.',
    docsUrl:
      'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/receive-cloudtrail-log-files-from-multiple-regions.html',
    group: 'logging',
    confirmedBy: ['detection.no_multi_region_trail'],
    controls: { 'cis-aws-7.0': ['4.1'] },
  },
  {
    id: 'event.cloudtrail_weakened',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.008' }],
    scenario: 'detection',
    severity: 'HIGH',
    title: 'CloudTrail trail weakened',
    description:
      'A trail was changed to record less or to be less trustworthy: made single-region, its log file validation ' +
      'turned off, global service events (IAM, STS) left out, or its event selectors changed so that it no longer records ' +
      'management write events.',
    remediation:
      'Confirm the change was intended. If not, restore the trail (multi-region, log file validation on, event ' +
      'selectors recording all management events), and review what the identity that changed it did.',
    docsUrl:
      'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/logging-management-events-with-cloudtrail.html',
    group: 'logging',
    confirmedBy: ['detection.no_multi_region_trail', 'detection.trail_log_validation_off'],
    // Each finding names which: a trail made single-region or recording less (4.1), its validation off (4.2).
    controls: { 'cis-aws-7.0': ['4.1', '4.2'] },
  },
  {
    id: 'event.guardduty_disabled',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.001' }],
    scenario: 'detection',
    severity: 'CRITICAL',
    title: 'GuardDuty detector deleted, suspended or disassociated',
    description:
      'A GuardDuty detector was deleted or suspended, turning threat detection off in the region, or the account left ' +
      'its GuardDuty administrator account, whose security team no longer sees its findings. Attackers do this before acting.',
    remediation:
      'Find who made the call and why. Re-enable GuardDuty in the region or re-associate the account with the ' +
      'administrator account, and protect both with a service control policy denying these actions.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_suspend-disable.html',
    group: 'guardduty',
    confirmedBy: ['detection.guardduty_disabled'],
  },
  {
    id: 'event.guardduty_high_severity_finding',
    mitre: [],
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'GuardDuty high-severity finding',
    description:
      'GuardDuty reported a finding that Sentinel rates HIGH or CRITICAL: its own severity is 7 or more, or its type ' +
      'means a compromise whatever its severity (crypto-mining, a backdoor, stolen instance credentials: ' +
      'domain/events/guardduty-types.ts). An active threat.',
    remediation:
      'Open the finding in the GuardDuty console and follow the remediation for its type: isolate affected ' +
      'instances, revoke and rotate exposed credentials, and review CloudTrail for what the actor did.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_remediate.html',
    group: 'guardduty',
  },
  {
    id: 'event.security_group_admin_port_opened',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.007' }],
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Security group opened to the internet on an admin port',
    description:
      'A security group rule was added that allows SSH (22), RDP (3389), SMB (445) or all traffic from 0.0.0.0/0 ' +
      'or ::/0. Such ports are scanned and brute-forced within minutes of opening.',
    remediation: SG_REMEDIATION,
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html',
    group: 'network',
    confirmedBy: [
      'exposure.sg_ssh_open',
      'exposure.sg_rdp_open',
      'exposure.sg_cifs_open',
      'exposure.sg_all_ports_open',
    ],
    // Each finding names which: SMB fails 6.1.2, SSH and RDP 6.3 from 0.0.0.0/0 and 6.4 from ::/0.
    controls: { 'cis-aws-7.0': ['6.1.2', '6.3', '6.4'] },
  },
  {
    id: 'event.security_group_database_port_opened',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.007' }],
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Security group opened to the internet on a database port',
    description:
      'A security group rule was added that allows a database port (MySQL 3306, PostgreSQL 5432, SQL Server 1433, ' +
      'Oracle 1521, MongoDB 27017, Redis 6379, Elasticsearch 9200, CouchDB 5984) from 0.0.0.0/0 or ::/0. Exposed ' +
      'databases are found by scanners and emptied or ransomed.',
    remediation: SG_REMEDIATION,
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/security-group-rules.html',
    group: 'network',
    // A rule that also opens an admin port (all traffic, wide ranges) is the admin detection's.
  },
  {
    id: 'event.s3_bucket_made_public',
    mitre: [
      { tactic: 'TA0010', technique: 'T1537' },
      { tactic: 'TA0009', technique: 'T1530' },
    ],
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'S3 bucket made public',
    description:
      'A bucket was given a policy allowing everyone without condition, an ACL granting AllUsers or ' +
      'AuthenticatedUsers, or had its Block Public Access configuration deleted or turned off: its objects may now be ' +
      'readable by anyone.',
    remediation:
      'Confirm the bucket is meant to be public. If not, remove the public grant, turn Block Public Access back on ' +
      'for the bucket, and check its access logs for downloads; serve public content through CloudFront with origin ' +
      'access control instead.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html',
    group: 's3',
    confirmedBy: ['exposure.s3_bucket_public'],
    // S3 takes a public grant only where Block Public Access lets it through.
    controls: { 'cis-aws-7.0': ['3.1.4'] },
  },
  {
    id: 'event.s3_account_public_access_block_removed',
    mitre: [{ tactic: 'TA0009', technique: 'T1530' }],
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'S3 Block Public Access removed for the account',
    description:
      'The account-level S3 Block Public Access configuration was deleted or turned off: nothing stops a bucket ' +
      'policy or ACL from publishing any bucket of the account any more.',
    remediation:
      'Confirm the change was intended. If not, turn all four account-level Block Public Access settings back on ' +
      '(S3 > Block Public Access settings for this account) and review recent bucket policy and ACL changes.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/configuring-block-public-access-account.html',
    group: 's3',
    confirmedBy: ['exposure.s3_account_public_access_block_off'],
    controls: { 'cis-aws-7.0': ['3.1.4'] },
  },
  {
    id: 'event.instance_launched_in_unused_region',
    mitre: [{ tactic: 'TA0005', technique: 'T1535' }],
    scenario: 'threat',
    severity: 'HIGH',
    title: 'Instance launched in a region the account does not use',
    description:
      "Instances were launched in a region outside the account's baseline (the regions its first complete scan found " +
      'in use, and those a member accepted since). ' +
      'Attackers launch in far-away regions hoping nobody looks there.',
    remediation:
      'Confirm the launch was intended. If not, terminate the instances after snapshotting them, revoke the ' +
      'credentials that launched them, and disable unused opt-in regions or deny them with a service control policy.',
    docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-regions.html',
    group: 'compute',
    confirmedBy: ['threat.instance_in_unused_region'],
  },
  {
    id: 'event.gpu_instance_launched',
    mitre: [{ tactic: 'TA0040', technique: 'T1496.001' }],
    scenario: 'threat',
    severity: 'HIGH',
    title: 'GPU or high-end instance launched',
    description:
      'Instances of an accelerated family (GPUs, ML chips, FPGAs), a bare-metal size or a 24xlarge-and-larger size ' +
      'were launched: the pattern of crypto-mining on stolen credentials, and thousands of dollars a day.',
    remediation:
      'Confirm with the team that the instances are expected. If not, stop them, snapshot their volumes for ' +
      'investigation, revoke the credentials that launched them, and check every region for more.',
    docsUrl: 'https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html',
    group: 'compute',
    confirmedBy: ['threat.gpu_instance_running'],
  },
  {
    id: 'event.alternate_contact_deleted',
    mitre: [{ tactic: 'TA0003', technique: 'T1098' }],
    scenario: 'suspension',
    severity: 'MEDIUM',
    title: 'Alternate contact deleted',
    description:
      'An alternate contact (security, billing or operations) of the account was deleted: AWS notices of that kind, ' +
      'abuse reports and exposed-key warnings included, now go only to the root e-mail address. An intruder does this so ' +
      'the team does not hear from AWS.',
    remediation:
      'Confirm the change was intended. If not, set the contact again (Account > Alternate contacts) to a ' +
      'monitored team address, and investigate the identity that deleted it.',
    docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-update-contact-alternate.html',
    group: 'account',
    confirmedBy: [
      'suspension.security_contact_missing',
      'suspension.billing_contact_missing',
      'suspension.operations_contact_missing',
    ],
    // Each finding names which: any contact fails 2.2, the security contact 2.3 too.
    controls: { 'cis-aws-7.0': ['2.2', '2.3'] },
  },
  // AWS Health's RISK and ABUSE events: AWS itself says the account's credentials or resources are in the wrong hands,
  // and opens a case that ends in suspension when left unanswered: CRITICAL, like the scan checks reading the same
  // events (suspension.health_*). Their events reach the forwarder on every support plan, where the checks need a
  // Business support plan or above. No compliance control asks for them.
  {
    id: 'event.health_risk_event',
    mitre: [{ tactic: 'TA0006', technique: 'T1552.001' }],
    scenario: 'suspension',
    severity: 'CRITICAL',
    title: 'AWS reports compromised or exposed credentials',
    description:
      'AWS Health opened an event of its RISK category: AWS found an access key or other credentials of the account ' +
      'exposed in a public place, compromised or suspected of being so (AWS_RISK_CREDENTIALS_COMPROMISED, ' +
      'AWS_RISK_CREDENTIALS_EXPOSURE_SUSPECTED, ...), or quarantined them (AWS_RISK_IAM_QUARANTINE). AWS opens a ' +
      'support case with it; left unanswered, it ends in suspension.',
    remediation:
      'Read the event in the AWS Health Dashboard and its support case. Deactivate and delete the named access key ' +
      'now, replace it where it is legitimately used, remove it from where it was exposed and from its history, review ' +
      'CloudTrail for what it was used for (new users, keys, instances in unusual regions), and answer the support case.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html',
    group: 'health',
    confirmedBy: ['suspension.health_credentials_exposed'],
  },
  {
    id: 'event.health_abuse_event',
    mitre: [{ tactic: 'TA0040', technique: 'T1496' }],
    scenario: 'suspension',
    severity: 'CRITICAL',
    title: 'AWS abuse report',
    description:
      'AWS Health opened an event of its ABUSE category (AWS_ABUSE_DOS_REPORT, AWS_ABUSE_PHISHING_REPORT, ...): AWS ' +
      'received a report that resources of the account send spam, attack or scan others, or host malicious content. ' +
      'Abuse from an account is often the first sign it was taken over; unanswered reports lead to suspension.',
    remediation:
      'Read the event in the AWS Health Dashboard and the message from AWS Trust & Safety, stop the reported ' +
      'activity (isolate or terminate the resources, revoke the credentials used), and reply to the abuse case with what ' +
      'you did before its deadline.',
    docsUrl: 'https://docs.aws.amazon.com/health/latest/ug/cloudwatch-events-health.html',
    group: 'health',
    confirmedBy: ['suspension.health_abuse_event'],
  },
  {
    id: 'event.event_forwarder_changed',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.008' }],
    scenario: 'detection',
    severity: 'HIGH',
    title: "Sentinel's event forwarder changed",
    description:
      "One of Sentinel's EventBridge rules (sentinel-*) was deleted, disabled, changed or had its target removed or " +
      'redirected, or the sentinel-events connection or API destination was deleted, deauthorized or changed. Each ' +
      'of these stops or diverts the events of the region on their way to Sentinel: blinding the monitoring is what an ' +
      'intruder does before acting.',
    remediation:
      'Find who made the call and why. If nobody meant to, restore the forwarder: re-apply the Terraform snippet, run ' +
      "the CLI script's forwarder part again, or update the CloudFormation stack (or StackSet instance) of the region; " +
      'then investigate the identity that changed it, and deny events:* on sentinel-* resources to everyone else with a ' +
      'service control policy.',
    docsUrl: 'https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-api-destinations.html',
    // The targeted rescan reads the region's forwarder at once (detection.event_forwarder_broken names what is
    // missing, disabled or retargeted). It confirms nothing: a key changed in the connection or a pattern narrowed
    // leaves what the scan reads as it was, so the signal stays open for review.
    group: 'forwarder',
  },
  {
    id: 'event.sentinel_role_changed',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.001' }],
    scenario: 'detection',
    severity: 'HIGH',
    title: "Sentinel's role changed",
    description:
      'The role Sentinel scans the account with, or the role EventBridge forwards events to Sentinel with, was ' +
      'deleted, had a policy detached, deleted or attached (a deny, for one), had its trust policy replaced or was ' +
      'given a permissions boundary. Scans then read less or nothing, or events stop reaching Sentinel.',
    remediation:
      'Find who made the call and why. If nobody meant to, restore the role as Sentinel gave it: re-apply the Terraform ' +
      'snippet or update the CloudFormation stack (for the scan role, POST /accounts/{account_id}/verify then checks ' +
      'it), and investigate the identity that changed it.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_manage_modify.html',
    group: null,
  },
  {
    id: 'event.region_enabled',
    mitre: [{ tactic: 'TA0005', technique: 'T1535' }],
    scenario: 'detection',
    severity: 'HIGH',
    title: 'Region enabled, not covered by the event forwarder',
    description:
      "An opt-in region was enabled in the account. Sentinel's event forwarder covers only the regions it was set up " +
      'in, so nothing that happens in the new region reaches Sentinel in real time until it is covered there; ' +
      'attackers enable far-away regions to work where nobody looks.',
    remediation:
      'Confirm the region was enabled on purpose; if not, disable it (Account > AWS Regions). If it was, cover it: ' +
      "apply the Terraform snippet again (it reads the enabled regions when applied), run the CLI script's forwarder " +
      'part again, or add the region to the forwarder StackSet (create-stack-instances --regions <region>).',
    docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-regions.html',
    group: null,
  },
  {
    id: 'event.forwarding_blind',
    mitre: [{ tactic: 'TA0005', technique: 'T1562.008' }],
    scenario: 'detection',
    severity: 'HIGH',
    title: 'Real-time detection is blind in a region',
    description:
      "The event forwarder's heartbeat from this region stopped arriving: a region that beat before and has been silent " +
      'for longer than the bound no longer delivers its events, so a root sign-in, a trail stopped or a bucket made public ' +
      'there reaches Sentinel only at the next scan.',
    remediation:
      'In the region, check the forwarder: the EventBridge rules (sentinel-heartbeat and the sentinel-* rules) exist and ' +
      'are enabled with their target, the connection sentinel-events is authorized with the current event key, and the ' +
      'API destination sentinel-events points at the ingestion endpoint (its failed invocations are in CloudWatch). Then ' +
      'run the forwarder template again for that region (Terraform, the CLI script or the CloudFormation stack).',
    docsUrl: 'https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-api-destinations.html',
    group: null,
  },
  {
    id: 'event.probable_compromise',
    mitre: [{ tactic: 'TA0001', technique: 'T1078.004' }],
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'Probable account compromise',
    description:
      'Within 24 hours, new access to the account appeared (a new IAM user, access key or console password, or ' +
      'root user activity) and so did compute or spend that is out of the ordinary (instances in an unused region, GPU or ' +
      'high-end instances, a spend spike). Together they are the usual pattern of stolen credentials used for crypto-mining.',
    remediation:
      'Treat it as an incident until proven otherwise: confirm each listed indicator with its owner; for any that ' +
      'nobody owns, deactivate the new keys and passwords, stop the instances (snapshot them first), rotate the ' +
      'credentials that made the changes, review CloudTrail for everything those identities did, and contact AWS Support ' +
      'about unauthorized charges.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/compromised-creds.html',
    group: null,
  },
  ...PLAYBOOK_CATALOG,
  {
    id: 'event.guardduty_finding',
    mitre: [],
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'GuardDuty finding',
    description:
      'GuardDuty reported a finding that Sentinel rates MEDIUM or LOW: its own severity is below 7 and its type is not ' +
      'one that means a compromise (domain/events/guardduty-types.ts). Probes, unusual traffic, root credentials used, ' +
      'a setting weakened: worth a look, often the first sign of what comes next.',
    remediation:
      'Open the finding in the GuardDuty console (GuardDuty > Findings) or read it with aws guardduty get-findings ' +
      '--detector-id ID --finding-ids FINDING, and follow the remediation for its type. Archive it there if it is ' +
      'expected (a scanner of your own), or suppress its kind with a filter that names exactly that source.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_finding-types-active.html',
    group: 'guardduty',
  },
  ...WINDOWS_CATALOG,
]);

const BY_ID: ReadonlyMap<string, DetectionDescription> = new Map(DETECTION_CATALOG.map((d) => [d.id, d]));

/** The compound detection (domain/events/compound.ts): what it is; its logic reads indicators, not one event. */
export const PROBABLE_COMPROMISE_ID = 'event.probable_compromise';

/**
 * A region of the forwarder whose heartbeat stopped (domain/events/forwarding-health.ts): opened and resolved by the
 * forwarding watch alone (core/events/forwarding-watch.ts), never by a scan, which cannot see the forwarder deliver.
 */
export const FORWARDING_BLIND_ID = 'event.forwarding_blind';

/**
 * A signal an event opened: its check id is a detection's (`event.*`, or a tenant's Sigma rule's `sigma.*`), never a
 * scan check's.
 */
export const isEventSignal = (checkId: string): boolean => checkId.startsWith('event.') || isSigmaDetection(checkId);

export function eventDetection(id: string): DetectionDescription | undefined {
  return BY_ID.get(id);
}

/** The MITRE ATT&CK ids of a signal's detection, by its check id; none for a scan check's signal. */
export function mitreOf(checkId: string): readonly Mitre[] {
  return BY_ID.get(checkId)?.mitre ?? [];
}

/** A detection's description by its id; throws for an id the catalogue does not hold (a programming error). */
export function describedDetection(id: string): DetectionDescription {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`No event detection ${id} in the catalogue`);
  return found;
}
