import type { DetectionDescription } from './types';

// What the detections with memory are (domain/events/windows.ts holds how each counts): a threshold over a window of
// events, or a principal's first use of a sensitive call. Data only, like domain/events/catalog.ts. None of them is
// one event's: each opens a signal when the account's remembered state (db/repositories/detection-windows.ts) says so.

const CONFIRM_PRINCIPAL =
  'Confirm with whoever owns the principal that the activity was theirs. If nobody does, deactivate its access keys ' +
  '(or revoke the role sessions issued before now), rotate any secret it read, and review CloudTrail for everything ' +
  'it did in the window.';

export const WINDOWS_CATALOG: readonly DetectionDescription[] = Object.freeze([
  {
    id: 'event.s3_objects_mass_deleted',
    mitre: [{ tactic: 'TA0040', technique: 'T1485' }],
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'Objects deleted in bulk from a bucket',
    description:
      'One principal deleted at least 50 objects (or object versions) from one bucket within 10 minutes, or deleted ' +
      'a batch with DeleteObjects (up to 1,000 objects a call, how many CloudTrail does not say). S3 ransomware ' +
      'empties a bucket this way, versions included, then leaves a ransom note. Seen only when a trail of the ' +
      'account logs S3 data events.',
    remediation:
      'Stop the principal at once if the deletion was not planned: deactivate its access keys or revoke its role ' +
      'sessions. Restore from versions or backups that are left (S3 > the bucket > Show versions, AWS Backup), and ' +
      'protect buckets that matter with S3 Object Lock or MFA delete. Name an application that cleans up in bulk as ' +
      'a trusted principal for this detection.',
    docsUrl: 'https://aws.amazon.com/blogs/security/anatomy-of-a-ransomware-event-targeting-data-in-amazon-s3/',
    group: null,
  },
  {
    id: 'event.console_sign_in_failures',
    mitre: [{ tactic: 'TA0006', technique: 'T1110' }],
    scenario: 'threat',
    severity: 'HIGH',
    title: 'Repeated failed console sign-ins from one address',
    description:
      'IAM users failed to sign in to the AWS Management Console from the same source address at least 5 times in 10 ' +
      'minutes: someone is guessing passwords, or trying passwords leaked elsewhere.',
    remediation:
      'Find which user names were tried (the events of the window). Make sure every console user has MFA, reset the ' +
      'password of any user who did not fail on their own, and block the address where your network allows it.',
    docsUrl:
      'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-aws-console-sign-in-events.html',
    group: null,
  },
  {
    id: 'event.root_sign_in_failures',
    mitre: [{ tactic: 'TA0006', technique: 'T1110' }],
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'Repeated failed root sign-ins from one address',
    description:
      'Sign-ins as the root user failed at least 3 times in 10 minutes from the same source address. The root user ' +
      'can do everything, including closing the account: someone is trying its password.',
    remediation:
      'Check with the owner of the root credentials. Make sure the root user has MFA (a hardware key is best), change ' +
      'its password if it may be known, and keep the root e-mail mailbox itself protected with MFA.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_root-user.html',
    group: null,
  },
  {
    id: 'event.access_denied_burst',
    mitre: [
      { tactic: 'TA0007', technique: 'T1580' },
      { tactic: 'TA0004', technique: 'T1078.004' },
    ],
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'Burst of denied calls from one principal',
    description:
      'One principal made at least 20 calls that AWS refused (AccessDenied, UnauthorizedOperation) in 10 minutes. ' +
      'Software with a missing permission fails the same call over and over; an intruder with a new key tries what it ' +
      'can do, and fails on many calls.',
    remediation: `Read the denied calls of the window: one call failing again is a permission to fix; many different calls are someone probing. ${CONFIRM_PRINCIPAL}`,
    docsUrl:
      'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html',
    group: null,
  },
  {
    id: 'event.discovery_burst',
    mitre: [
      { tactic: 'TA0007', technique: 'T1580' },
      { tactic: 'TA0007', technique: 'T1087.004' },
    ],
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'Enumeration of the account by one principal',
    description:
      'One principal called at least 8 different discovery APIs (who am I, which users, roles, buckets, trails, ' +
      'detectors, snapshots) across services in 10 minutes: what an intruder does first with a new key. Applications ' +
      'call the few APIs they need; inventory tools doing this belong on the trusted list.',
    remediation: `${CONFIRM_PRINCIPAL} A known inventory or security tool can be accepted for its principal.`,
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_actions-resources-contextkeys.html',
    group: null,
  },
  {
    id: 'event.secret_retrieval_burst',
    mitre: [
      { tactic: 'TA0006', technique: 'T1555.006' },
      { tactic: 'TA0006', technique: 'T1552' },
    ],
    scenario: 'threat',
    severity: 'HIGH',
    title: 'Many secrets read by one principal',
    description:
      'One principal read at least 10 different secrets, or made at least 20 secret reads, in 10 minutes: Secrets ' +
      'Manager values, SSM parameters decrypted, or Windows passwords of instances. An application reads the few ' +
      'secrets it needs; reading them all is how an intruder collects credentials.',
    remediation: `${CONFIRM_PRINCIPAL} Rotate every secret read in the window, starting with database and third-party credentials.`,
    docsUrl: 'https://docs.aws.amazon.com/secretsmanager/latest/userguide/monitoring-cloudtrail.html',
    group: null,
  },
  {
    id: 'event.sensitive_api_first_use',
    mitre: [
      { tactic: 'TA0003', technique: 'T1098' },
      { tactic: 'TA0005', technique: 'T1562.008' },
    ],
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'A principal used a sensitive API for the first time',
    description:
      'A principal called a sensitive API (new users, keys and passwords, policies given to users, trust policies ' +
      'changed, secrets read, logging stopped) that it had not called in this account in the last 90 days. Automation ' +
      'repeats the same calls; a stolen identity does what its owner never did.',
    remediation: CONFIRM_PRINCIPAL,
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_last-accessed.html',
    group: null,
  },
  {
    id: 'event.instance_credentials_outside_aws',
    mitre: [
      { tactic: 'TA0006', technique: 'T1552.005' },
      { tactic: 'TA0001', technique: 'T1078.004' },
    ],
    scenario: 'threat',
    severity: 'HIGH',
    title: "An instance's credentials were used from another address",
    description:
      "The temporary credentials of an EC2 instance's role (the ones the instance metadata service hands out) were used " +
      'from two different public addresses within 6 hours. An instance calls AWS from its own address; a second one ' +
      'is usually someone who read the credentials off the instance (SSRF, a compromised process) and uses them ' +
      'elsewhere.',
    remediation:
      'Revoke the role\'s sessions issued before now (the "Revoke active sessions" action of the role), find how the ' +
      'credentials left the instance (require IMDSv2, look for SSRF in what it serves), and review what the other ' +
      'address did.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_finding-types-iam.html',
    group: null,
  },
]);
