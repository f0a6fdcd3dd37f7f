import { AWS_ADMIN_POLICIES, awsManagedName, documentGrantsAdministrator } from '../admin-policies';
import { admitsPort } from '../checks/exposure';
import { isHighEnd } from '../checks/threat';
import type { OpenIngress } from '../inventory';
import { CLOUDTRAIL_API_CALL, CONSOLE_SIGN_IN, GUARDDUTY_FINDING, GUARDDUTY_HIGH_SEVERITY } from './forwarding-rules';
import { asArray, asObject, asString, pathOf } from './normalize';
import type { AccountEvent, DetectionContext, EventDetection, EventFinding, ServiceGroup } from './types';

// The detections run on every event the account forwards (domain/events/forwarding-rules.ts). Each reads one
// event and says what it found; whether a scan can later confirm it is the definition's `confirmedBy`.
//
// Left out: sign-in from a new country, which needs an IP geolocation database the domain does not have. A security
// group rule changed with ModifySecurityGroupRules opens no signal: it asks for a rescan (`rescansOf`).

type Detail = Record<string, unknown>;

/** A failed call changed nothing: CloudTrail records it with an `errorCode` (AccessDenied, ...). */
const failed = (detail: Detail) => detail.errorCode !== undefined && detail.errorCode !== null && detail.errorCode !== '';

/** The CloudTrail record of a successful call to one of `names` on `eventSource`; null for any other event. */
function successfulCall(event: AccountEvent, eventSource: string, names: readonly string[]): Detail | null {
  const { detail } = event;
  if (event.detailType !== CLOUDTRAIL_API_CALL || detail.eventSource !== eventSource) return null;
  if (event.eventName === null || !names.includes(event.eventName) || failed(detail)) return null;
  return detail;
}

/** The CloudTrail record of a successful console sign-in; null for any other event. */
function successfulSignIn(event: AccountEvent): Detail | null {
  const { detail } = event;
  if (event.detailType !== CONSOLE_SIGN_IN || event.eventName !== 'ConsoleLogin' || failed(detail)) return null;
  return pathOf(detail, 'responseElements', 'ConsoleLogin') === 'Success' ? detail : null;
}

const identityType = (detail: Detail) => pathOf(detail, 'userIdentity', 'type');
const params = (detail: Detail): Detail => asObject(detail.requestParameters) ?? {};
const str = (value: unknown, ...path: string[]) => asString(pathOf(value, ...path));

/** A string or a list of strings, as IAM policies and S3 headers write them. */
const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : asArray(value).filter((v) => typeof v === 'string'));
/** A single object or a list of them, as JSON converted from XML (S3 ACL grants) or policies write them. */
const objects = (value: unknown): Detail[] => (Array.isArray(value) ? value : [value]).flatMap((v) => {
  const object = asObject(v);
  return object ? [object] : [];
});

/**
 * A policy document as CloudTrail logs it: an object, a JSON string, or (for IAM's query API) a URL-encoded
 * JSON string. Null when it is none of them.
 */
export function parsePolicy(value: unknown): Detail | null {
  if (typeof value !== 'string') return asObject(value);
  for (const decode of [(s: string) => s, (s: string) => decodeURIComponent(s.replace(/\+/g, '%20'))]) {
    try {
      const parsed = asObject(JSON.parse(decode(value)));
      if (parsed) return parsed;
    } catch {
      // Not this encoding: try the next one.
    }
  }
  return null;
}

const statements = (policy: Detail | null): Detail[] => objects(policy?.Statement);

// ---- Root and sign-ins ----

const rootConsoleSignIn: EventDetection = {
  id: 'event.root_console_sign_in',
  scenario: 'threat',
  severity: 'CRITICAL',
  title: 'Root user signed in to the console',
  description: 'Someone signed in to the AWS Management Console as the root user. Day-to-day work never needs it, and the '
    + 'root user can do everything, including closing the account and removing every other user\'s access.',
  remediation: 'Confirm with the owner of the root credentials that the sign-in was theirs. If not, reset the root password, '
    + 'replace its MFA device, delete any root access keys, and review CloudTrail for what the session did.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_root-user.html',
  group: null,
  detect: (event) => {
    const detail = successfulSignIn(event);
    if (!detail || identityType(detail) !== 'Root') return [];
    const mfa = pathOf(detail, 'additionalEventData', 'MFAUsed') === 'Yes' ? 'with MFA' : 'without MFA';
    return [{ resource: 'root', detail: `The root user signed in to the console ${mfa}.` }];
  },
};

const rootApiCall: EventDetection = {
  id: 'event.root_api_call',
  scenario: 'threat',
  severity: 'CRITICAL',
  title: 'Root user made an API call',
  description: 'An AWS API call was made with the root user\'s credentials, from the console or with root access keys. '
    + 'Only a handful of tasks require the root user; anything else is a sign its credentials are in the wrong hands.',
  remediation: 'Confirm the call was made on purpose by the owner of the root credentials. If not, reset the root password, '
    + 'replace its MFA device, delete any root access keys, and review everything the root user did in CloudTrail.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/root-user-tasks.html',
  group: null,
  detect: (event) => {
    const { detail } = event;
    if (event.detailType !== CLOUDTRAIL_API_CALL || identityType(detail) !== 'Root' || failed(detail)) return [];
    // Calls an AWS service made on the root user's behalf name it in `invokedBy`: the root user's own call is logged too.
    if (str(detail, 'userIdentity', 'invokedBy')) return [];
    const call = `${str(detail, 'eventSource') ?? event.source} ${event.eventName ?? 'call'}`;
    return [{ resource: 'root', detail: `The root user called ${call} in ${event.region}.` }];
  },
};

const consoleSignInWithoutMfa: EventDetection = {
  id: 'event.console_sign_in_without_mfa',
  scenario: 'iam',
  severity: 'HIGH',
  title: 'Console sign-in without MFA',
  description: 'An IAM user signed in to the console with a password alone. IAM asks for MFA whenever the user has a device, '
    + 'so this user has none: a phished or reused password is all it takes to sign in as them.',
  remediation: 'Confirm the sign-in was the user\'s. Have them assign an MFA device (IAM > Users > Security credentials > '
    + 'Assign MFA device), or remove their console password if they do not need the console. Prefer IAM Identity Center '
    + 'for human access.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_mfa.html',
  group: 'iam',
  confirmedBy: ['iam.console_user_without_mfa'],
  detect: (event) => {
    const detail = successfulSignIn(event);
    // Federated users (AssumedRole, SAMLUser) authenticate with their identity provider, which enforces MFA if
    // anything does, so CloudTrail says MFAUsed: No for them too. The root user has its own detection.
    if (!detail || identityType(detail) !== 'IAMUser' || pathOf(detail, 'additionalEventData', 'MFAUsed') !== 'No') return [];
    const user = str(detail, 'userIdentity', 'arn') ?? str(detail, 'userIdentity', 'userName');
    return user ? [{ resource: user, detail: `IAM user ${user} signed in to the console without MFA.` }] : [];
  },
};

// ---- New identities and credentials ----

const IAM = 'iam.amazonaws.com';

const iamUserCreated: EventDetection = {
  id: 'event.iam_user_created',
  scenario: 'threat',
  severity: 'MEDIUM',
  title: 'IAM user created',
  description: 'A new IAM user was created. Creating users for persistence is one of the first things an intruder does '
    + 'with stolen credentials.',
  remediation: 'Confirm who created the user and why. If nobody did it on purpose, delete the user\'s keys, password and '
    + 'policies, delete the user, and rotate the credentials that created it.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_users.html',
  group: 'iam',
  detect: (event) => {
    const detail = successfulCall(event, IAM, ['CreateUser']);
    if (!detail) return [];
    const name = str(detail, 'responseElements', 'user', 'userName') ?? str(params(detail), 'userName');
    const resource = str(detail, 'responseElements', 'user', 'arn') ?? name;
    return resource ? [{ resource, detail: `IAM user ${name ?? resource} was created.` }] : [];
  },
};

const accessKeyCreated: EventDetection = {
  id: 'event.access_key_created',
  scenario: 'threat',
  severity: 'MEDIUM',
  title: 'Access key created',
  description: 'A new access key was created for an IAM user; new keys on existing users are a common way to keep access '
    + 'after a compromise.',
  remediation: 'Confirm the key\'s owner created it and needs it. If not, deactivate and delete it and investigate the '
    + 'identity that created it.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html',
  group: 'iam',
  detect: (event) => {
    const detail = successfulCall(event, IAM, ['CreateAccessKey']);
    const keyId = detail && str(detail, 'responseElements', 'accessKey', 'accessKeyId');
    if (!detail || !keyId) return [];
    // Without a user name in the request, the key is for the caller.
    const owner = str(detail, 'responseElements', 'accessKey', 'userName') ?? str(params(detail), 'userName')
      ?? str(detail, 'userIdentity', 'userName');
    return [{ resource: keyId, detail: `Access key ${keyId} was created for IAM user ${owner ?? '(unknown)'}.` }];
  },
};

const loginProfileCreated: EventDetection = {
  id: 'event.login_profile_created',
  scenario: 'threat',
  severity: 'MEDIUM',
  title: 'Console password created for an IAM user',
  description: 'An IAM user was given a console password (a login profile). An intruder does this to a user that had '
    + 'only access keys, to get into the console with it.',
  remediation: 'Confirm the user needs console access and who set the password. If not, delete the login profile '
    + '(IAM > Users > Security credentials > Manage console access > Disable) and investigate the identity that created it.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/Using_ManagingLogins.html',
  group: 'iam',
  detect: (event) => {
    const detail = successfulCall(event, IAM, ['CreateLoginProfile']);
    const user = detail && (str(params(detail), 'userName') ?? str(detail, 'responseElements', 'loginProfile', 'userName'));
    return user ? [{ resource: user, detail: `IAM user ${user} was given a console password.` }] : [];
  },
};

// ---- Admin policies ----

/** The calls that give a principal a policy: managed (Attach*) or inline (Put*), and the parameter naming it. */
type PolicyCall = { kind: string; param: string; inline: boolean };
const POLICY_CALLS: ReadonlyMap<string, PolicyCall> = new Map((['User', 'Role', 'Group'] as const).flatMap((kind): [string, PolicyCall][] => {
  const principal = { kind: kind.toLowerCase(), param: `${kind.toLowerCase()}Name` };
  return [[`Attach${kind}Policy`, { ...principal, inline: false }], [`Put${kind}Policy`, { ...principal, inline: true }]];
}));

const adminPolicyAttached: EventDetection = {
  id: 'event.admin_policy_attached',
  scenario: 'iam',
  severity: 'HIGH',
  title: 'Administrator access granted',
  description: 'AdministratorAccess or IAMFullAccess was attached to an IAM user, role or group, or an inline policy granting '
    + 'as much (every action, or every IAM action, on every resource) was put on one. Granting itself admin rights is how '
    + 'an intruder turns a foothold into the account.',
  remediation: 'Confirm the grant was intended. If not, detach or delete the policy, and investigate the identity that '
    + 'granted it. Otherwise scope the permissions to what the principal does, using IAM last-accessed data.',
  docsUrl: 'https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AdministratorAccess.html',
  group: 'iam',
  confirmedBy: ['iam.user_admin_access', 'iam.role_admin_access'],
  detect: (event) => {
    const call = POLICY_CALLS.get(event.eventName ?? '');
    const detail = call && successfulCall(event, IAM, [event.eventName ?? '']);
    if (!call || !detail) return [];
    const request = params(detail);
    const managed = awsManagedName(str(request, 'policyArn') ?? undefined);
    const admin = call.inline
      ? documentGrantsAdministrator(parsePolicy(request.policyDocument))
      : managed !== undefined && AWS_ADMIN_POLICIES.has(managed);
    const name = str(request, call.param);
    if (!admin || !name) return [];
    const policyName = str(request, 'policyName');
    const grant = call.inline ? `Inline policy ${policyName ? `${policyName} ` : ''}granting administrator access was put on` : `${managed} was attached to`;
    return [{ resource: `${call.kind}/${name}`, detail: `${grant} IAM ${call.kind} ${name}.` }];
  },
};

// ---- CloudTrail ----

const CLOUDTRAIL = 'cloudtrail.amazonaws.com';

/** A trail's name from a request, which may give its ARN (arn:aws:cloudtrail:region:account:trail/name). */
const trailName = (value: unknown) => asString(value)?.replace(/^arn:[^:]+:cloudtrail:[^:]*:[^:]*:trail\//, '') ?? 'cloudtrail';

const cloudTrailStopped: EventDetection = {
  id: 'event.cloudtrail_logging_stopped',
  scenario: 'detection',
  severity: 'CRITICAL',
  title: 'CloudTrail logging stopped',
  description: 'Logging was stopped on a CloudTrail trail: what happens in the account from now on is no longer recorded '
    + 'there. Stopping trails is a classic step of an attacker covering their tracks. EventBridge forwards API calls only '
    + 'while a trail logs them: if it was the last, Sentinel sees no more of the account\'s API calls until logging resumes.',
  remediation: 'Start logging again at once (CloudTrail > Trails > the trail > Start logging), find who called StopLogging '
    + 'and why, and review what that identity did around the same time.',
  docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-turning-off-logging.html',
  group: 'logging',
  confirmedBy: ['detection.trail_not_logging'],
  detect: (event) => {
    const detail = successfulCall(event, CLOUDTRAIL, ['StopLogging']);
    if (!detail) return [];
    const trail = trailName(params(detail).name);
    return [{ resource: trail, region: event.region, detail: `Logging was stopped on trail ${trail}.` }];
  },
};

const cloudTrailDeleted: EventDetection = {
  id: 'event.cloudtrail_trail_deleted',
  scenario: 'detection',
  severity: 'CRITICAL',
  title: 'CloudTrail trail deleted',
  description: 'A CloudTrail trail was deleted: the activity it recorded is no longer kept beyond the 90-day event history. '
    + 'Deleting trails is a classic step of an attacker covering their tracks. EventBridge forwards API calls only while a '
    + 'trail logs them: if it was the last, Sentinel sees no more of the account\'s API calls.',
  remediation: 'Find who called DeleteTrail and why. Re-create a multi-region trail logging management events to a '
    + 'dedicated bucket with log file validation, and review what the deleting identity did.',
  docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/receive-cloudtrail-log-files-from-multiple-regions.html',
  group: 'logging',
  confirmedBy: ['detection.no_multi_region_trail'],
  detect: (event) => {
    const detail = successfulCall(event, CLOUDTRAIL, ['DeleteTrail']);
    if (!detail) return [];
    const trail = trailName(params(detail).name);
    return [{ resource: trail, region: event.region, detail: `Trail ${trail} was deleted.` }];
  },
};

/** Whether event selectors record management write events (what an attacker's changes are). */
function recordsManagementWrites(request: Detail): boolean {
  const advanced = request.advancedEventSelectors;
  if (Array.isArray(advanced)) {
    return objects(advanced).some((selector) => {
      const fields = objects(selector.fieldSelectors);
      const equals = (field: string) => fields.filter((f) => f.field === field).flatMap((f) => strings(f.equals));
      const readOnly = equals('readOnly');
      return equals('eventCategory').includes('Management') && !(readOnly.length > 0 && readOnly.every((v) => v === 'true'));
    });
  }
  // Basic selectors record management events unless told not to.
  return objects(request.eventSelectors).some((s) => s.includeManagementEvents !== false && s.readWriteType !== 'ReadOnly');
}

const cloudTrailWeakened: EventDetection = {
  id: 'event.cloudtrail_weakened',
  scenario: 'detection',
  severity: 'HIGH',
  title: 'CloudTrail trail weakened',
  description: 'A trail was changed to record less or to be less trustworthy: made single-region, its log file validation '
    + 'turned off, global service events (IAM, STS) left out, or its event selectors changed so that it no longer records '
    + 'management write events.',
  remediation: 'Confirm the change was intended. If not, restore the trail (multi-region, log file validation on, event '
    + 'selectors recording all management events), and review what the identity that changed it did.',
  docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/logging-management-events-with-cloudtrail.html',
  group: 'logging',
  confirmedBy: ['detection.no_multi_region_trail', 'detection.trail_log_validation_off'],
  detect: (event) => {
    const detail = successfulCall(event, CLOUDTRAIL, ['UpdateTrail', 'PutEventSelectors']);
    if (!detail) return [];
    const request = params(detail);
    const changes = event.eventName === 'UpdateTrail'
      ? [
        ...(request.isMultiRegionTrail === false ? ['made single-region'] : []),
        ...(request.enableLogFileValidation === false ? ['log file validation turned off'] : []),
        ...(request.includeGlobalServiceEvents === false ? ['global service events (IAM, STS, sign-ins) no longer recorded'] : []),
      ]
      : (Array.isArray(request.eventSelectors) || Array.isArray(request.advancedEventSelectors)) && !recordsManagementWrites(request)
        ? ['no longer records management write events'] : [];
    if (changes.length === 0) return [];
    const trail = trailName(request.name ?? request.trailName);
    return [{ resource: trail, region: event.region, detail: `Trail ${trail}: ${changes.join(', ')}.` }];
  },
};

// ---- GuardDuty ----

const GUARDDUTY = 'guardduty.amazonaws.com';

const guardDutyDisabled: EventDetection = {
  id: 'event.guardduty_disabled',
  scenario: 'detection',
  severity: 'CRITICAL',
  title: 'GuardDuty detector deleted, suspended or disassociated',
  description: 'A GuardDuty detector was deleted or suspended, turning threat detection off in the region, or the account left '
    + 'its GuardDuty administrator account, whose security team no longer sees its findings. Attackers do this before acting.',
  remediation: 'Find who made the call and why. Re-enable GuardDuty in the region or re-associate the account with the '
    + 'administrator account, and protect both with a service control policy denying these actions.',
  docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_suspend-disable.html',
  group: 'guardduty',
  confirmedBy: ['detection.guardduty_disabled'],
  detect: (event) => {
    const detail = successfulCall(event, GUARDDUTY, [
      'DeleteDetector', 'UpdateDetector', 'DisassociateFromMasterAccount', 'DisassociateFromAdministratorAccount',
    ]);
    // An update that does not suspend the detector (its publishing frequency, its features) changes nothing here.
    if (!detail || (event.eventName === 'UpdateDetector' && params(detail).enable !== false)) return [];
    const detector = str(params(detail), 'detectorId') ?? 'guardduty';
    const what = event.eventName === 'DeleteDetector' ? 'was deleted'
      : event.eventName === 'UpdateDetector' ? 'was suspended' : 'was disassociated from its administrator account';
    return [{ resource: detector, region: event.region, detail: `GuardDuty detector ${detector} in ${event.region} ${what}.` }];
  },
};

const guardDutyFinding: EventDetection = {
  id: 'event.guardduty_high_severity_finding',
  scenario: 'threat',
  severity: 'CRITICAL',
  title: 'GuardDuty high-severity finding',
  description: 'GuardDuty reported a finding of severity 7 or more (HIGH or CRITICAL): an active threat such as compromised '
    + 'credentials, a backdoored instance or crypto-mining.',
  remediation: 'Open the finding in the GuardDuty console and follow the remediation for its type: isolate affected '
    + 'instances, revoke and rotate exposed credentials, and review CloudTrail for what the actor did.',
  docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_remediate.html',
  group: 'guardduty',
  detect: (event) => {
    const { detail } = event;
    if (event.detailType !== GUARDDUTY_FINDING || pathOf(detail, 'service', 'archived') === true) return [];
    // An administrator account's bus also carries its members' findings: each is the member's (its own forwarder's).
    const findingAccount = str(detail, 'accountId');
    if (findingAccount && findingAccount !== event.account) return [];
    const severity = typeof detail.severity === 'number' ? detail.severity : NaN;
    if (!(severity >= GUARDDUTY_HIGH_SEVERITY)) return [];
    const level = severity >= 9 ? 'CRITICAL' : 'HIGH';
    return [{
      resource: str(detail, 'id') ?? event.eventId,
      region: str(detail, 'region') ?? event.region,
      detail: `${str(detail, 'title') ?? 'GuardDuty finding'} (${event.eventName ?? 'unknown type'}, GuardDuty severity ${severity}: ${level}).`,
    }];
  },
};

// ---- Security groups ----

const EC2 = 'ec2.amazonaws.com';
const INTERNET = new Set(['0.0.0.0/0', '::/0']);
/** Remote administration and file sharing, as the exposure.sg_* checks see them (RDP over UDP too). */
const ADMIN_PORTS: readonly [number, string[]][] = [[22, ['tcp']], [3389, ['tcp', 'udp']], [445, ['tcp']]];
/** MySQL, PostgreSQL, SQL Server, Oracle, MongoDB, Redis, Elasticsearch, CouchDB. */
const DATABASE_PORTS = [3306, 5432, 1433, 1521, 27017, 6379, 9200, 5984];

/** An IP protocol as CloudTrail writes it: a name (`tcp`), a number, or `-1` for all. */
const protocolOf = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** The internet-open rules an AuthorizeSecurityGroupIngress request adds. */
function openRules(request: Detail): OpenIngress[] {
  const port = (value: unknown) => (typeof value === 'number' ? value : null);
  const permissions = objects(pathOf(request, 'ipPermissions', 'items')).map((p) => ({
    protocol: protocolOf(p.ipProtocol),
    fromPort: port(p.fromPort),
    toPort: port(p.toPort),
    cidrs: [
      ...objects(pathOf(p, 'ipRanges', 'items')).map((r) => r.cidrIp),
      ...objects(pathOf(p, 'ipv6Ranges', 'items')).map((r) => r.cidrIpv6),
    ],
  }));
  // The older single-rule form puts one IPv4 range at the top of the request.
  if (typeof request.cidrIp === 'string') {
    permissions.push({ protocol: protocolOf(request.ipProtocol), fromPort: port(request.fromPort), toPort: port(request.toPort), cidrs: [request.cidrIp] });
  }
  return permissions.flatMap(({ cidrs, ...rule }) => cidrs
    .filter((cidr): cidr is string => typeof cidr === 'string' && INTERNET.has(cidr))
    .map((cidr) => ({ ...rule, cidr })));
}

const admitsAdminPort = (rule: OpenIngress) => ADMIN_PORTS.some(([port, protocols]) => admitsPort(rule, protocols, port));
const admitsDatabasePort = (rule: OpenIngress) => DATABASE_PORTS.some((port) => admitsPort(rule, ['tcp'], port));

function describeRule(rule: OpenIngress): string {
  if (rule.protocol === '-1') return `all traffic from ${rule.cidr}`;
  const ports = rule.fromPort === rule.toPort ? `port ${rule.fromPort}` : `ports ${rule.fromPort}-${rule.toPort}`;
  return `${rule.protocol} ${ports} from ${rule.cidr}`;
}

/** One finding for the group when the request adds an internet-open rule that `matches`. */
function openedGroup(event: AccountEvent, matches: (rule: OpenIngress) => boolean): EventFinding[] {
  const detail = successfulCall(event, EC2, ['AuthorizeSecurityGroupIngress']);
  if (!detail) return [];
  const request = params(detail);
  const rules = openRules(request).filter(matches);
  const group = str(request, 'groupId') ?? str(request, 'groupName');
  if (rules.length === 0 || !group) return [];
  return [{ resource: group, region: event.region, detail: `Security group ${group} now allows ${rules.map(describeRule).join(', ')}.` }];
}

/**
 * Whether a ModifySecurityGroupRules request leaves a rule open to the internet, on any port. Its CloudTrail record
 * wraps the request: `ModifySecurityGroupRulesRequest.SecurityGroupRule` is one update or a list of them, each with
 * the rule as it now is under its own `SecurityGroupRule`.
 */
function opensModifiedRule(request: Detail): boolean {
  const updates = objects(asObject(request.ModifySecurityGroupRulesRequest)?.SecurityGroupRule);
  return updates.flatMap((update) => objects(update.SecurityGroupRule))
    .some((rule) => [rule.CidrIpv4, rule.CidrIpv6].some((cidr) => typeof cidr === 'string' && INTERNET.has(cidr)));
}

/**
 * The service groups an event asks to rescan without opening a signal: calls whose effect the event alone cannot
 * judge. A rule changed with ModifySecurityGroupRules may be inbound or outbound (its record does not say, and an
 * outbound rule open to the internet is the default), so one now open to the internet on any port asks for a rescan
 * of the network group: the exposure.sg_* checks then say whether an inbound port opened, and alert as any new finding.
 */
export function rescansOf(event: AccountEvent): ServiceGroup[] {
  const detail = successfulCall(event, EC2, ['ModifySecurityGroupRules']);
  return detail && opensModifiedRule(params(detail)) ? ['network'] : [];
}

const SG_REMEDIATION = 'Confirm the rule was intended. If not, remove it; otherwise narrow its source to known address '
  + 'ranges, or reach the instances through Systems Manager Session Manager or a VPN instead of exposing the port.';

// The admin ports and the database ports are two detections because only the first have scan checks: a scan
// passing every exposure.sg_* check says nothing about a database port, so it must not close that signal.
const securityGroupAdminPortOpened: EventDetection = {
  id: 'event.security_group_admin_port_opened',
  scenario: 'exposure',
  severity: 'HIGH',
  title: 'Security group opened to the internet on an admin port',
  description: 'A security group rule was added that allows SSH (22), RDP (3389), SMB (445) or all traffic from 0.0.0.0/0 '
    + 'or ::/0. Such ports are scanned and brute-forced within minutes of opening.',
  remediation: SG_REMEDIATION,
  docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html',
  group: 'network',
  confirmedBy: ['exposure.sg_ssh_open', 'exposure.sg_rdp_open', 'exposure.sg_cifs_open', 'exposure.sg_all_ports_open'],
  detect: (event) => openedGroup(event, admitsAdminPort),
};

const securityGroupDatabasePortOpened: EventDetection = {
  id: 'event.security_group_database_port_opened',
  scenario: 'exposure',
  severity: 'HIGH',
  title: 'Security group opened to the internet on a database port',
  description: 'A security group rule was added that allows a database port (MySQL 3306, PostgreSQL 5432, SQL Server 1433, '
    + 'Oracle 1521, MongoDB 27017, Redis 6379, Elasticsearch 9200, CouchDB 5984) from 0.0.0.0/0 or ::/0. Exposed '
    + 'databases are found by scanners and emptied or ransomed.',
  remediation: SG_REMEDIATION,
  docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/security-group-rules.html',
  group: 'network',
  // A rule that also opens an admin port (all traffic, wide ranges) is the admin detection's.
  detect: (event) => openedGroup(event, (rule) => admitsDatabasePort(rule) && !admitsAdminPort(rule)),
};

// ---- S3 ----

const S3 = 's3.amazonaws.com';
const PUBLIC_CANNED_ACLS = new Set(['public-read', 'public-read-write', 'authenticated-read']);
const PUBLIC_GROUPS = ['http://acs.amazonaws.com/groups/global/AllUsers', 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers'];

const isPublicPrincipal = (principal: unknown) => principal === '*' || strings(asObject(principal)?.AWS).includes('*');
const hasCondition = (statement: Detail) => Object.keys(asObject(statement.Condition) ?? {}).length > 0;

const BLOCK_PUBLIC_ACCESS_SETTINGS = ['BlockPublicAcls', 'IgnorePublicAcls', 'BlockPublicPolicy', 'RestrictPublicBuckets'];

/** Whether a Put*PublicAccessBlock request turns every Block Public Access setting off (deleting it, in effect). */
function turnsBlockOff(request: Detail): boolean {
  const settings = asObject(request.PublicAccessBlockConfiguration);
  return settings !== null && BLOCK_PUBLIC_ACCESS_SETTINGS.every((s) => settings[s] === false || settings[s] === 'false');
}

/** Why a bucket request makes the bucket public, or null. */
function publicChange(eventName: string, request: Detail): string | null {
  if (eventName === 'PutBucketPolicy') {
    const open = statements(parsePolicy(request.bucketPolicy ?? request.policy))
      .some((s) => s.Effect === 'Allow' && isPublicPrincipal(s.Principal) && !hasCondition(s));
    return open ? 'its bucket policy now allows everyone ("Principal": "*", no condition)' : null;
  }
  if (eventName === 'PutBucketAcl') {
    const canned = strings(request['x-amz-acl']).find((acl) => PUBLIC_CANNED_ACLS.has(acl));
    if (canned) return `its ACL was set to ${canned}`;
    const grants = objects(pathOf(request, 'AccessControlPolicy', 'AccessControlList', 'Grant'));
    const headers = Object.entries(request).filter(([key]) => key.startsWith('x-amz-grant-')).map(([, value]) => JSON.stringify(value));
    const grantsPublic = grants.some((g) => PUBLIC_GROUPS.includes(str(g, 'Grantee', 'URI') ?? ''))
      || headers.some((h) => PUBLIC_GROUPS.some((group) => h.includes(group)));
    return grantsPublic ? 'its ACL now grants access to AllUsers or AuthenticatedUsers' : null;
  }
  if (eventName === 'PutBucketPublicAccessBlock') return turnsBlockOff(request) ? 'its Block Public Access settings were all turned off' : null;
  return 'its Block Public Access configuration was deleted';
}

const s3BucketMadePublic: EventDetection = {
  id: 'event.s3_bucket_made_public',
  scenario: 'exposure',
  severity: 'HIGH',
  title: 'S3 bucket made public',
  description: 'A bucket was given a policy allowing everyone without condition, an ACL granting AllUsers or '
    + 'AuthenticatedUsers, or had its Block Public Access configuration deleted or turned off: its objects may now be '
    + 'readable by anyone.',
  remediation: 'Confirm the bucket is meant to be public. If not, remove the public grant, turn Block Public Access back on '
    + 'for the bucket, and check its access logs for downloads; serve public content through CloudFront with origin '
    + 'access control instead.',
  docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html',
  group: 's3',
  confirmedBy: ['exposure.s3_bucket_public'],
  detect: (event) => {
    // CloudTrail names the bucket-level call DeleteBucketPublicAccessBlock, not the API's DeletePublicAccessBlock.
    const detail = successfulCall(event, S3, [
      'PutBucketPolicy', 'PutBucketAcl', 'PutBucketPublicAccessBlock', 'DeleteBucketPublicAccessBlock', 'DeletePublicAccessBlock',
    ]);
    if (!detail || !event.eventName) return [];
    const request = params(detail);
    const bucket = str(request, 'bucketName');
    const why = publicChange(event.eventName, request);
    return bucket && why ? [{ resource: bucket, region: event.region, detail: `Bucket ${bucket}: ${why}.` }] : [];
  },
};

const s3AccountBlockRemoved: EventDetection = {
  id: 'event.s3_account_public_access_block_removed',
  scenario: 'exposure',
  severity: 'HIGH',
  title: 'S3 Block Public Access removed for the account',
  description: 'The account-level S3 Block Public Access configuration was deleted or turned off: nothing stops a bucket '
    + 'policy or ACL from publishing any bucket of the account any more.',
  remediation: 'Confirm the change was intended. If not, turn all four account-level Block Public Access settings back on '
    + '(S3 > Block Public Access settings for this account) and review recent bucket policy and ACL changes.',
  docsUrl: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/configuring-block-public-access-account.html',
  group: 's3',
  confirmedBy: ['exposure.s3_account_public_access_block_off'],
  detect: (event) => {
    const detail = successfulCall(event, S3, ['DeleteAccountPublicAccessBlock', 'PutAccountPublicAccessBlock']);
    if (!detail) return [];
    if (event.eventName === 'PutAccountPublicAccessBlock' && !turnsBlockOff(params(detail))) return [];
    const what = event.eventName === 'PutAccountPublicAccessBlock' ? 'turned off' : 'deleted';
    return [{ resource: 's3-account-public-access-block', detail: `The account-level S3 Block Public Access configuration was ${what}.` }];
  },
};

// ---- Instances ----

interface Launch {
  reservation: string;
  instances: string[];
  types: string[];
}

/** What a successful RunInstances launched: the type is in the request, or per instance in the response (launch templates). */
function launched(event: AccountEvent): Launch | null {
  const detail = successfulCall(event, EC2, ['RunInstances']);
  if (!detail) return null;
  const items = objects(pathOf(detail, 'responseElements', 'instancesSet', 'items'));
  const types = [str(params(detail), 'instanceType'), ...items.map((i) => asString(i.instanceType))];
  return {
    reservation: str(detail, 'responseElements', 'reservationId') ?? event.eventId,
    instances: items.flatMap((i) => asString(i.instanceId) ?? []),
    types: [...new Set(types.filter((t): t is string => t !== null))],
  };
}

const describeLaunch = (launch: Launch, region: string) => {
  const what = launch.instances.length > 0 ? `Instance(s) ${launch.instances.join(', ')}` : `Reservation ${launch.reservation}`;
  return `${what} (${launch.types.join(', ') || 'type unknown'}) launched in ${region}`;
};

const instanceInUnusedRegion: EventDetection = {
  id: 'event.instance_launched_in_unused_region',
  scenario: 'threat',
  severity: 'HIGH',
  title: 'Instance launched in a region the account does not use',
  description: 'Instances were launched in a region where the account had no instance and no CloudTrail trail home. '
    + 'Attackers launch in far-away regions hoping nobody looks there.',
  remediation: 'Confirm the launch was intended. If not, terminate the instances after snapshotting them, revoke the '
    + 'credentials that launched them, and disable unused opt-in regions or deny them with a service control policy.',
  docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-regions.html',
  group: 'compute',
  confirmedBy: ['threat.instance_in_unused_region'],
  detect: (event, context: DetectionContext) => {
    // Unknown regions in use (no scan yet): a region cannot be called unused.
    if (context.usedRegions === null || context.usedRegions.includes(event.region)) return [];
    const launch = launched(event);
    return launch ? [{
      resource: launch.reservation,
      region: event.region,
      detail: `${describeLaunch(launch, event.region)}, a region the account does not use.`,
    }] : [];
  },
};

const gpuInstanceLaunched: EventDetection = {
  id: 'event.gpu_instance_launched',
  scenario: 'threat',
  severity: 'HIGH',
  title: 'GPU or high-end instance launched',
  description: 'Instances of an accelerated family (GPUs, ML chips, FPGAs), a bare-metal size or a 24xlarge-and-larger size '
    + 'were launched: the pattern of crypto-mining on stolen credentials, and thousands of dollars a day.',
  remediation: 'Confirm with the team that the instances are expected. If not, stop them, snapshot their volumes for '
    + 'investigation, revoke the credentials that launched them, and check every region for more.',
  docsUrl: 'https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html',
  group: 'compute',
  confirmedBy: ['threat.gpu_instance_running'],
  detect: (event) => {
    const launch = launched(event);
    return launch && launch.types.some(isHighEnd)
      ? [{ resource: launch.reservation, region: event.region, detail: `${describeLaunch(launch, event.region)}.` }]
      : [];
  },
};

// ---- Account ----

const alternateContactDeleted: EventDetection = {
  id: 'event.alternate_contact_deleted',
  scenario: 'suspension',
  severity: 'MEDIUM',
  title: 'Alternate contact deleted',
  description: 'An alternate contact (security, billing or operations) of the account was deleted: AWS notices of that kind, '
    + 'abuse reports and exposed-key warnings included, now go only to the root e-mail address. An intruder does this so '
    + 'the team does not hear from AWS.',
  remediation: 'Confirm the change was intended. If not, set the contact again (Account > Alternate contacts) to a '
    + 'monitored team address, and investigate the identity that deleted it.',
  docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-update-contact-alternate.html',
  group: 'account',
  confirmedBy: ['suspension.security_contact_missing', 'suspension.billing_contact_missing', 'suspension.operations_contact_missing'],
  detect: (event) => {
    const detail = successfulCall(event, 'account.amazonaws.com', ['DeleteAlternateContact']);
    // A management account may delete a member account's contact: that is the member's change, not this account's.
    const target = detail && str(params(detail), 'accountId');
    if (target && target !== event.account) return [];
    const kind = detail && str(params(detail), 'alternateContactType')?.toLowerCase();
    return kind ? [{ resource: `${kind}-contact`, detail: `The ${kind} alternate contact was deleted.` }] : [];
  },
};

export const EVENT_DETECTIONS: readonly EventDetection[] = Object.freeze([
  rootConsoleSignIn,
  rootApiCall,
  consoleSignInWithoutMfa,
  iamUserCreated,
  accessKeyCreated,
  loginProfileCreated,
  adminPolicyAttached,
  cloudTrailStopped,
  cloudTrailDeleted,
  cloudTrailWeakened,
  guardDutyDisabled,
  guardDutyFinding,
  securityGroupAdminPortOpened,
  securityGroupDatabasePortOpened,
  s3BucketMadePublic,
  s3AccountBlockRemoved,
  instanceInUnusedRegion,
  gpuInstanceLaunched,
  alternateContactDeleted,
]);

/** Every detection's findings for one event. */
export function detectEvent(event: AccountEvent, context: DetectionContext): { detection: EventDetection; finding: EventFinding }[] {
  return EVENT_DETECTIONS.flatMap((detection) => detection.detect(event, context).map((finding) => ({ detection, finding })));
}
