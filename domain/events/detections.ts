import { AWS_ADMIN_POLICIES, awsManagedName, documentGrantsAdministrator } from '../checks/admin-policies';
import { admitsPort } from '../checks/exposure';
import { parseJsonWithin } from '../json-budget';
import { isHighEnd } from '../checks/threat';
import type { ControlRefs } from '../compliance/types';
import type { Severity } from '../checks/types';
import type { OpenIngress } from '../scans/inventory';
import {
  API_DESTINATION_NAME,
  CONNECTION_NAME,
  FORWARDER_POLICY_NAME,
  forwarderPolicy,
  TARGET_ID,
} from '../onboarding/forwarder-templates';
import { inlinePolicies, MANAGED_POLICIES } from '../onboarding/role';
import {
  CLOUDTRAIL_API_CALL,
  DEFAULT_RULE_STATE,
  FORWARDER_CHANGE_CALLS,
  FORWARDER_RULE_PREFIX,
  FORWARDING_RULES,
  GUARDDUTY_FINDING,
  HEARTBEAT_RULE_NAME,
  HEARTBEAT_SCHEDULE,
  HEALTH_ABUSE_CATEGORY,
  HEALTH_EVENT_TYPES,
  HEALTH_RISK_CATEGORY,
  HEALTH_SOURCE,
  ruleState,
} from './forwarding-rules';
import {
  type Detail,
  failed,
  identityType,
  objects,
  params,
  parsePolicy,
  statements,
  str,
  strings,
  successfulCall,
  successfulSignIn,
} from './cloudtrail-record';
import { asArray, asObject, asString, pathOf } from './normalize';
import { describedDetection } from './catalog';
import { isHighOrCritical, rateGuardDutyFinding } from './guardduty-types';
import { PLAYBOOK_DETECTIONS } from './playbook';
import { bySentinel, FORWARDER_ROLE } from './trusted-principals';
import type { AccountEvent, Detect, DetectionContext, EventDetection, EventFinding, ServiceGroup } from './types';

// The detections run on every event the account forwards (domain/events/forwarding-rules.ts). Each reads one
// event and says what it found; what it is (title, severity, remediation, the scan checks that confirm it) is its
// entry in domain/events/catalog.ts.
//
// Left out: sign-in from a new country, which needs an IP geolocation database the domain does not have. A security
// group rule changed with ModifySecurityGroupRules opens no signal: it asks for a rescan (`rescansOf`).

/** The detection of the catalogue's entry `id`, detecting with `detect`. */
const detection = (id: string, detect: Detect): EventDetection => ({ ...describedDetection(id), detect });

export { parsePolicy };

// ---- Root and sign-ins ----

const rootConsoleSignIn = detection('event.root_console_sign_in', (event) => {
  const detail = successfulSignIn(event);
  if (!detail || identityType(detail) !== 'Root') return [];
  const mfa = pathOf(detail, 'additionalEventData', 'MFAUsed') === 'Yes' ? 'with MFA' : 'without MFA';
  return [{ resource: 'root', detail: `The root user signed in to the console ${mfa}.` }];
});

const rootApiCall = detection('event.root_api_call', (event) => {
  const { detail } = event;
  // A read-only call (ListBuckets, GetCallerIdentity) is root use as much as a write: someone holds the root
  // credentials. A denied one is not (it did nothing), whether it read or wrote.
  if (event.detailType !== CLOUDTRAIL_API_CALL || identityType(detail) !== 'Root' || failed(detail)) return [];
  // Calls an AWS service made on the root user's behalf name it in `invokedBy`: the root user's own call is logged too.
  if (str(detail, 'userIdentity', 'invokedBy')) return [];
  const call = `${str(detail, 'eventSource') ?? event.source} ${event.eventName ?? 'call'}`;
  const kind = detail.readOnly === true ? ' (read-only)' : '';
  return [{ resource: 'root', detail: `The root user called ${call}${kind} in ${event.region}.` }];
});

const consoleSignInWithoutMfa = detection('event.console_sign_in_without_mfa', (event) => {
  const detail = successfulSignIn(event);
  // Federated users (AssumedRole, SAMLUser) authenticate with their identity provider, which enforces MFA if
  // anything does, so CloudTrail says MFAUsed: No for them too. The root user has its own detection.
  if (!detail || identityType(detail) !== 'IAMUser' || pathOf(detail, 'additionalEventData', 'MFAUsed') !== 'No')
    return [];
  const user = str(detail, 'userIdentity', 'arn') ?? str(detail, 'userIdentity', 'userName');
  return user ? [{ resource: user, detail: `IAM user ${user} signed in to the console without MFA.` }] : [];
});

// ---- New identities and credentials ----

const IAM = 'iam.amazonaws.com';

const iamUserCreated = detection('event.iam_user_created', (event) => {
  const detail = successfulCall(event, IAM, ['CreateUser']);
  if (!detail) return [];
  const name = str(detail, 'responseElements', 'user', 'userName') ?? str(params(detail), 'userName');
  const resource = str(detail, 'responseElements', 'user', 'arn') ?? name;
  return resource ? [{ resource, detail: `IAM user ${name ?? resource} was created.` }] : [];
});

const accessKeyCreated = detection('event.access_key_created', (event) => {
  const detail = successfulCall(event, IAM, ['CreateAccessKey']);
  const keyId = detail && str(detail, 'responseElements', 'accessKey', 'accessKeyId');
  if (!detail || !keyId) return [];
  // Without a user name in the request, the key is for the caller.
  const owner =
    str(detail, 'responseElements', 'accessKey', 'userName') ??
    str(params(detail), 'userName') ??
    str(detail, 'userIdentity', 'userName');
  return [{ resource: keyId, detail: `Access key ${keyId} was created for IAM user ${owner ?? '(unknown)'}.` }];
});

const loginProfileCreated = detection('event.login_profile_created', (event) => {
  const detail = successfulCall(event, IAM, ['CreateLoginProfile']);
  const user =
    detail && (str(params(detail), 'userName') ?? str(detail, 'responseElements', 'loginProfile', 'userName'));
  return user ? [{ resource: user, detail: `IAM user ${user} was given a console password.` }] : [];
});

// ---- Admin policies ----

/** The calls that give a principal a policy: managed (Attach*) or inline (Put*), and the parameter naming it. */
type PolicyCall = { kind: string; param: string; inline: boolean };
const POLICY_CALLS: ReadonlyMap<string, PolicyCall> = new Map(
  (['User', 'Role', 'Group'] as const).flatMap((kind): [string, PolicyCall][] => {
    const principal = { kind: kind.toLowerCase(), param: `${kind.toLowerCase()}Name` };
    return [
      [`Attach${kind}Policy`, { ...principal, inline: false }],
      [`Put${kind}Policy`, { ...principal, inline: true }],
    ];
  }),
);

const adminPolicyAttached = detection('event.admin_policy_attached', (event) => {
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
  const grant = call.inline
    ? `Inline policy ${policyName ? `${policyName} ` : ''}granting administrator access was put on`
    : `${managed} was attached to`;
  return [{ resource: `${call.kind}/${name}`, detail: `${grant} IAM ${call.kind} ${name}.` }];
});

// ---- CloudTrail ----

const CLOUDTRAIL = 'cloudtrail.amazonaws.com';

/** A trail's name from a request, which may give its ARN (arn:aws:cloudtrail:region:account:trail/name). */
const trailName = (value: unknown) =>
  asString(value)?.replace(/^arn:[^:]+:cloudtrail:[^:]*:[^:]*:trail\//, '') ?? 'cloudtrail';

const cloudTrailStopped = detection('event.cloudtrail_logging_stopped', (event) => {
  const detail = successfulCall(event, CLOUDTRAIL, ['StopLogging']);
  if (!detail) return [];
  const trail = trailName(params(detail).name);
  return [{ resource: trail, region: event.region, detail: `Logging was stopped on trail ${trail}.` }];
});

const cloudTrailDeleted = detection('event.cloudtrail_trail_deleted', (event) => {
  const detail = successfulCall(event, CLOUDTRAIL, ['DeleteTrail']);
  if (!detail) return [];
  const trail = trailName(params(detail).name);
  return [{ resource: trail, region: event.region, detail: `Trail ${trail} was deleted.` }];
});

/** Whether event selectors record management write events (what an attacker's changes are). */
function recordsManagementWrites(request: Detail): boolean {
  const advanced = request.advancedEventSelectors;
  if (Array.isArray(advanced)) {
    return objects(advanced).some((selector) => {
      const fields = objects(selector.fieldSelectors);
      const equals = (field: string) => fields.filter((f) => f.field === field).flatMap((f) => strings(f.equals));
      const readOnly = equals('readOnly');
      return (
        equals('eventCategory').includes('Management') && !(readOnly.length > 0 && readOnly.every((v) => v === 'true'))
      );
    });
  }
  // Basic selectors record management events unless told not to.
  return objects(request.eventSelectors).some(
    (s) => s.includeManagementEvents !== false && s.readWriteType !== 'ReadOnly',
  );
}

/**
 * What an UpdateTrail request that sets these to false weakens, with the CIS control it breaks: 4.1 wants a
 * multi-region trail recording every management event, 4.2 log file validation.
 */
const TRAIL_UPDATES = [
  { param: 'isMultiRegionTrail', change: 'made single-region', control: '4.1' },
  { param: 'enableLogFileValidation', change: 'log file validation turned off', control: '4.2' },
  {
    param: 'includeGlobalServiceEvents',
    change: 'global service events (IAM, STS, sign-ins) no longer recorded',
    control: '4.1',
  },
] as const;

const cloudTrailWeakened = detection('event.cloudtrail_weakened', (event) => {
  const detail = successfulCall(event, CLOUDTRAIL, ['UpdateTrail', 'PutEventSelectors']);
  if (!detail) return [];
  const request = params(detail);
  const changes =
    event.eventName === 'UpdateTrail'
      ? TRAIL_UPDATES.filter(({ param }) => request[param] === false)
      : (Array.isArray(request.eventSelectors) || Array.isArray(request.advancedEventSelectors)) &&
          !recordsManagementWrites(request)
        ? [{ change: 'no longer records management write events', control: '4.1' }]
        : [];
  if (changes.length === 0) return [];
  const trail = trailName(request.name ?? request.trailName);
  return [
    {
      resource: trail,
      region: event.region,
      detail: `Trail ${trail}: ${changes.map((c) => c.change).join(', ')}.`,
      controls: { 'cis-aws-7.0': [...new Set(changes.map((c) => c.control))].sort() },
    },
  ];
});

// ---- GuardDuty ----

const GUARDDUTY = 'guardduty.amazonaws.com';

const guardDutyDisabled = detection('event.guardduty_disabled', (event) => {
  const detail = successfulCall(event, GUARDDUTY, [
    'DeleteDetector',
    'UpdateDetector',
    'DisassociateFromMasterAccount',
    'DisassociateFromAdministratorAccount',
  ]);
  // An update that does not suspend the detector (its publishing frequency, its features) changes nothing here.
  if (!detail || (event.eventName === 'UpdateDetector' && params(detail).enable !== false)) return [];
  const detector = str(params(detail), 'detectorId') ?? 'guardduty';
  const what =
    event.eventName === 'DeleteDetector'
      ? 'was deleted'
      : event.eventName === 'UpdateDetector'
        ? 'was suspended'
        : 'was disassociated from its administrator account';
  return [
    { resource: detector, region: event.region, detail: `GuardDuty detector ${detector} in ${event.region} ${what}.` },
  ];
});

/**
 * The finding of a GuardDuty finding event, rated (domain/events/guardduty-types.ts), when `wanted` takes its rating.
 * Every severity is forwarded; the HIGH and CRITICAL ones are event.guardduty_high_severity_finding's, the others
 * event.guardduty_finding's, so a signal's severity says which.
 */
function guardDutyFindingOf(event: AccountEvent, wanted: (severity: Severity) => boolean): EventFinding[] {
  const { detail } = event;
  if (event.detailType !== GUARDDUTY_FINDING || pathOf(detail, 'service', 'archived') === true) return [];
  // An administrator account's bus also carries its members' findings: each is the member's (its own forwarder's).
  const findingAccount = str(detail, 'accountId');
  if (findingAccount && findingAccount !== event.account) return [];
  // GuardDuty writes its severity as a number: anything else is not a finding it wrote.
  if (typeof detail.severity !== 'number' || !Number.isFinite(detail.severity)) return [];
  const type = str(detail, 'type') ?? event.eventName ?? 'unknown type';
  const rating = rateGuardDutyFinding(type, detail.severity);
  if (!wanted(rating.severity)) return [];
  const raised = rating.raisedBy ? `; rated ${rating.severity} for its type (${rating.raisedBy.reason})` : '';
  return [
    {
      resource: str(detail, 'id') ?? event.eventId,
      region: str(detail, 'region') ?? event.region,
      detail: `${str(detail, 'title') ?? 'GuardDuty finding'} (${type}, GuardDuty severity ${detail.severity}: ${rating.band}${raised}).`,
    },
  ];
}

const guardDutyHighSeverityFinding = detection('event.guardduty_high_severity_finding', (event) =>
  guardDutyFindingOf(event, isHighOrCritical),
);
const guardDutyFinding = detection('event.guardduty_finding', (event) =>
  guardDutyFindingOf(event, (severity) => !isHighOrCritical(severity)),
);

// ---- Security groups ----

const EC2 = 'ec2.amazonaws.com';
const INTERNET = new Set(['0.0.0.0/0', '::/0']);
/** Remote administration and file sharing, as the exposure.sg_* checks see them (RDP over UDP too). */
const ADMIN_PORTS: readonly [number, string[]][] = [
  [22, ['tcp']],
  [3389, ['tcp', 'udp']],
  [445, ['tcp']],
];
/** MySQL, PostgreSQL, SQL Server, Oracle, MongoDB, Redis, Elasticsearch, CouchDB. */
const DATABASE_PORTS = [3306, 5432, 1433, 1521, 27017, 6379, 9200, 5984];

/** An IP protocol as CloudTrail writes it: a name (`tcp`), a number, or `-1` for all. */
const protocolOf = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

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
    permissions.push({
      protocol: protocolOf(request.ipProtocol),
      fromPort: port(request.fromPort),
      toPort: port(request.toPort),
      cidrs: [request.cidrIp],
    });
  }
  return permissions.flatMap(({ cidrs, ...rule }) =>
    cidrs
      .filter((cidr): cidr is string => typeof cidr === 'string' && INTERNET.has(cidr))
      .map((cidr) => ({ ...rule, cidr })),
  );
}

const admitsAdminPort = (rule: OpenIngress) =>
  ADMIN_PORTS.some(([port, protocols]) => admitsPort(rule, protocols, port));
const admitsDatabasePort = (rule: OpenIngress) => DATABASE_PORTS.some((port) => admitsPort(rule, ['tcp'], port));

function describeRule(rule: OpenIngress): string {
  if (rule.protocol === '-1') return `all traffic from ${rule.cidr}`;
  const ports = rule.fromPort === rule.toPort ? `port ${rule.fromPort}` : `ports ${rule.fromPort}-${rule.toPort}`;
  return `${rule.protocol} ${ports} from ${rule.cidr}`;
}

/**
 * The CIS controls the admin-port rules break, as the exposure.sg_* checks see them: SMB 6.1.2; SSH and RDP 6.3 from
 * 0.0.0.0/0 and 6.4 from ::/0.
 */
function adminPortControls(rules: readonly OpenIngress[]): ControlRefs {
  const controls = rules.flatMap((rule) => [
    ...(admitsPort(rule, ['tcp'], 445) ? ['6.1.2'] : []),
    ...(admitsPort(rule, ['tcp'], 22) || admitsPort(rule, ['tcp', 'udp'], 3389)
      ? [rule.cidr === '::/0' ? '6.4' : '6.3']
      : []),
  ]);
  return { 'cis-aws-7.0': [...new Set(controls)].sort() };
}

/**
 * One finding for the group when the request adds an internet-open rule that `matches`; `controlsOf` names the
 * compliance controls those rules break.
 */
function openedGroup(
  event: AccountEvent,
  matches: (rule: OpenIngress) => boolean,
  controlsOf?: (rules: readonly OpenIngress[]) => ControlRefs,
): EventFinding[] {
  const detail = successfulCall(event, EC2, ['AuthorizeSecurityGroupIngress']);
  if (!detail) return [];
  const request = params(detail);
  const rules = openRules(request).filter(matches);
  const group = str(request, 'groupId') ?? str(request, 'groupName');
  if (rules.length === 0 || !group) return [];
  return [
    {
      resource: group,
      region: event.region,
      detail: `Security group ${group} now allows ${rules.map(describeRule).join(', ')}.`,
      ...(controlsOf ? { controls: controlsOf(rules) } : {}),
    },
  ];
}

/**
 * Whether a ModifySecurityGroupRules request leaves a rule open to the internet, on any port. Its CloudTrail record
 * wraps the request: `ModifySecurityGroupRulesRequest.SecurityGroupRule` is one update or a list of them, each with
 * the rule as it now is under its own `SecurityGroupRule`.
 */
function opensModifiedRule(request: Detail): boolean {
  const updates = objects(asObject(request.ModifySecurityGroupRulesRequest)?.SecurityGroupRule);
  return updates
    .flatMap((update) => objects(update.SecurityGroupRule))
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

// The admin ports and the database ports are two detections because only the first have scan checks: a scan
// passing every exposure.sg_* check says nothing about a database port, so it must not close that signal.
const securityGroupAdminPortOpened = detection('event.security_group_admin_port_opened', (event) =>
  openedGroup(event, admitsAdminPort, adminPortControls),
);

const securityGroupDatabasePortOpened = detection('event.security_group_database_port_opened', (event) =>
  openedGroup(event, (rule) => admitsDatabasePort(rule) && !admitsAdminPort(rule)),
);

// ---- S3 ----

const S3 = 's3.amazonaws.com';
const PUBLIC_CANNED_ACLS = new Set(['public-read', 'public-read-write', 'authenticated-read']);
const PUBLIC_GROUPS = [
  'http://acs.amazonaws.com/groups/global/AllUsers',
  'http://acs.amazonaws.com/groups/global/AuthenticatedUsers',
];

const isPublicPrincipal = (principal: unknown) => principal === '*' || strings(asObject(principal)?.AWS).includes('*');
const hasCondition = (statement: Detail) => Object.keys(asObject(statement.Condition) ?? {}).length > 0;

const BLOCK_PUBLIC_ACCESS_SETTINGS = [
  'BlockPublicAcls',
  'IgnorePublicAcls',
  'BlockPublicPolicy',
  'RestrictPublicBuckets',
];

/** Whether a Put*PublicAccessBlock request turns every Block Public Access setting off (deleting it, in effect). */
function turnsBlockOff(request: Detail): boolean {
  const settings = asObject(request.PublicAccessBlockConfiguration);
  return (
    settings !== null && BLOCK_PUBLIC_ACCESS_SETTINGS.every((s) => settings[s] === false || settings[s] === 'false')
  );
}

/** Why a bucket request makes the bucket public, or null. */
function publicChange(eventName: string, request: Detail): string | null {
  if (eventName === 'PutBucketPolicy') {
    const open = statements(parsePolicy(request.bucketPolicy ?? request.policy)).some(
      (s) => s.Effect === 'Allow' && isPublicPrincipal(s.Principal) && !hasCondition(s),
    );
    return open ? 'its bucket policy now allows everyone ("Principal": "*", no condition)' : null;
  }
  if (eventName === 'PutBucketAcl') {
    const canned = strings(request['x-amz-acl']).find((acl) => PUBLIC_CANNED_ACLS.has(acl));
    if (canned) return `its ACL was set to ${canned}`;
    const grants = objects(pathOf(request, 'AccessControlPolicy', 'AccessControlList', 'Grant'));
    const headers = Object.entries(request)
      .filter(([key]) => key.startsWith('x-amz-grant-'))
      .map(([, value]) => JSON.stringify(value));
    const grantsPublic =
      grants.some((g) => PUBLIC_GROUPS.includes(str(g, 'Grantee', 'URI') ?? '')) ||
      headers.some((h) => PUBLIC_GROUPS.some((group) => h.includes(group)));
    return grantsPublic ? 'its ACL now grants access to AllUsers or AuthenticatedUsers' : null;
  }
  if (eventName === 'PutBucketPublicAccessBlock')
    return turnsBlockOff(request) ? 'its Block Public Access settings were all turned off' : null;
  return 'its Block Public Access configuration was deleted';
}

const s3BucketMadePublic = detection('event.s3_bucket_made_public', (event) => {
  // CloudTrail names the bucket-level call DeleteBucketPublicAccessBlock, not the API's DeletePublicAccessBlock.
  const detail = successfulCall(event, S3, [
    'PutBucketPolicy',
    'PutBucketAcl',
    'PutBucketPublicAccessBlock',
    'DeleteBucketPublicAccessBlock',
    'DeletePublicAccessBlock',
  ]);
  if (!detail || !event.eventName) return [];
  const request = params(detail);
  const bucket = str(request, 'bucketName');
  const why = publicChange(event.eventName, request);
  return bucket && why ? [{ resource: bucket, region: event.region, detail: `Bucket ${bucket}: ${why}.` }] : [];
});

const s3AccountBlockRemoved = detection('event.s3_account_public_access_block_removed', (event) => {
  const detail = successfulCall(event, S3, ['DeleteAccountPublicAccessBlock', 'PutAccountPublicAccessBlock']);
  if (!detail) return [];
  if (event.eventName === 'PutAccountPublicAccessBlock' && !turnsBlockOff(params(detail))) return [];
  const what = event.eventName === 'PutAccountPublicAccessBlock' ? 'turned off' : 'deleted';
  return [
    {
      resource: 's3-account-public-access-block',
      detail: `The account-level S3 Block Public Access configuration was ${what}.`,
    },
  ];
});

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
  const what =
    launch.instances.length > 0 ? `Instance(s) ${launch.instances.join(', ')}` : `Reservation ${launch.reservation}`;
  return `${what} (${launch.types.join(', ') || 'type unknown'}) launched in ${region}`;
};

const instanceInUnusedRegion = detection(
  'event.instance_launched_in_unused_region',
  (event, context: DetectionContext) => {
    // Unknown regions in use (no scan yet): a region cannot be called unused.
    if (context.usedRegions === null || context.usedRegions.includes(event.region)) return [];
    const launch = launched(event);
    return launch
      ? [
          {
            resource: launch.reservation,
            region: event.region,
            detail: `${describeLaunch(launch, event.region)}, a region the account does not use.`,
          },
        ]
      : [];
  },
);

const gpuInstanceLaunched = detection('event.gpu_instance_launched', (event) => {
  const launch = launched(event);
  return launch && launch.types.some(isHighEnd)
    ? [{ resource: launch.reservation, region: event.region, detail: `${describeLaunch(launch, event.region)}.` }]
    : [];
});

// ---- Account ----

const alternateContactDeleted = detection('event.alternate_contact_deleted', (event) => {
  const detail = successfulCall(event, 'account.amazonaws.com', ['DeleteAlternateContact']);
  // A management account may delete a member account's contact: that is the member's change, not this account's.
  const target = detail && str(params(detail), 'accountId');
  if (target && target !== event.account) return [];
  const kind = detail && str(params(detail), 'alternateContactType')?.toLowerCase();
  if (!kind) return [];
  // CIS 2.2 asks for current contact details, 2.3 for the security contact in particular.
  const controls = kind === 'security' ? ['2.2', '2.3'] : ['2.2'];
  return [
    {
      resource: `${kind}-contact`,
      detail: `The ${kind} alternate contact was deleted.`,
      controls: { 'cis-aws-7.0': controls },
    },
  ];
});

// ---- Sentinel's own forwarder and roles ----
//
// Whoever wants to act unseen first blinds what watches: the forwarder's rules, connection and API destination in
// each region, and the roles Sentinel scans with and EventBridge forwards with. A change that leaves them as
// Sentinel's templates define them (running the CLI script or `terraform apply` again) is no tampering and fires
// nothing; any other successful change does.

const EVENTS = 'events.amazonaws.com';

/** A resource name as a request gives it: its name, or an ARN whose last path segment is the name. */
const lastSegment = (value: unknown) => asString(value)?.split('/').at(-1) ?? null;

/** The forwarder's rules are on the default event bus: a rule of the same name on another bus is the customer's. */
function onDefaultBus(request: Detail): boolean {
  const bus = asString(request.eventBusName);
  return bus === null || bus === 'default' || bus.endsWith(':event-bus/default');
}

/** The same JSON value, whatever the order of its keys (a pattern re-applied by Terraform may be re-serialized). */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  const [x, y] = [asObject(a), asObject(b)];
  if (x && y) {
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && sameJson(x[k], y[k]));
  }
  return x === null && y === null && a === b;
}

/** A JSON document as CloudTrail logs it: a JSON string (within the depth budget), or already an object. */
const jsonOf = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const parsed = parseJsonWithin(value);
  return parsed.ok ? parsed.value : value;
};

/** Whether a PutRule request puts one of the forwarder's rules back as Sentinel defines it, enabled. */
function putsSentinelRule(name: string, request: Detail): boolean {
  // PutRule without a state leaves the rule ENABLED.
  const state = asString(request.state) ?? DEFAULT_RULE_STATE;
  if (name === HEARTBEAT_RULE_NAME) {
    return (
      state === DEFAULT_RULE_STATE &&
      request.scheduleExpression === HEARTBEAT_SCHEDULE &&
      request.eventPattern === undefined
    );
  }
  const rule = FORWARDING_RULES.find((r) => r.name === name);
  return (
    rule !== undefined &&
    state === ruleState(rule) &&
    request.scheduleExpression === undefined &&
    sameJson(jsonOf(request.eventPattern), rule.pattern)
  );
}

/** Whether a PutTargets request sets the rule's one target as Sentinel's templates do: the region's API destination. */
function putsSentinelTarget(request: Detail): boolean {
  const targets = objects(request.targets);
  return (
    targets.length > 0 &&
    targets.every(
      (t) =>
        t.id === TARGET_ID &&
        (asString(t.arn) ?? '').includes(`:api-destination/${API_DESTINATION_NAME}/`) &&
        asString(t.roleArn) !== null,
    )
  );
}

/** What a successful call did to the forwarder in its region, or null when it left the forwarder as it was. */
function forwarderChange(eventName: string, request: Detail): { resource: string; what: string } | null {
  if (['DeleteRule', 'DisableRule', 'PutRule', 'RemoveTargets', 'PutTargets'].includes(eventName)) {
    const rule = lastSegment(eventName.endsWith('Targets') ? request.rule : request.name);
    if (!rule?.startsWith(FORWARDER_RULE_PREFIX) || !onDefaultBus(request)) return null;
    const what =
      eventName === 'DeleteRule'
        ? 'was deleted'
        : eventName === 'DisableRule'
          ? 'was disabled'
          : eventName === 'RemoveTargets'
            ? 'had its targets removed'
            : eventName === 'PutRule'
              ? putsSentinelRule(rule, request)
                ? null
                : 'was changed: its pattern, schedule or state is not the one Sentinel gave'
              : putsSentinelTarget(request)
                ? null
                : "was given a target other than Sentinel's API destination";
    return what ? { resource: `rule/${rule}`, what: `Rule ${rule} ${what}` } : null;
  }
  if (['DeauthorizeConnection', 'DeleteConnection', 'UpdateConnection'].includes(eventName)) {
    if (lastSegment(request.name) !== CONNECTION_NAME) return null;
    const what =
      eventName === 'DeleteConnection'
        ? 'was deleted'
        : eventName === 'DeauthorizeConnection'
          ? 'was deauthorized (its key removed)'
          : 'was updated (its key or authorization changed)';
    return { resource: `connection/${CONNECTION_NAME}`, what: `Connection ${CONNECTION_NAME} ${what}` };
  }
  if (lastSegment(request.name) !== API_DESTINATION_NAME) return null;
  const what =
    eventName === 'DeleteApiDestination' ? 'was deleted' : 'was updated (its endpoint, method or connection)';
  return {
    resource: `api-destination/${API_DESTINATION_NAME}`,
    what: `API destination ${API_DESTINATION_NAME} ${what}`,
  };
}

const eventForwarderChanged = detection('event.event_forwarder_changed', (event, context) => {
  const detail = successfulCall(event, EVENTS, FORWARDER_CHANGE_CALLS);
  if (!detail || !event.eventName) return [];
  // Rotating the key updates the connection in every region (docs/event-forwarding.md, "Rotating the key"): for a day
  // after a new key replaced another (the old one still accepted, or revoked at once), an UpdateConnection is that
  // rotation. A wrong key would show as heartbeats that stop arriving.
  if (event.eventName === 'UpdateConnection' && context.eventKeyRotating) return [];
  const change = forwarderChange(event.eventName, params(detail));
  return change
    ? [
        {
          resource: change.resource,
          region: event.region,
          detail: `${change.what} in ${event.region}: events from ${event.region} may no longer reach Sentinel.`,
        },
      ]
    : [];
});

/** Which of Sentinel's roles a role name is, or null for any other role. */
function sentinelRole(name: string | null, context: DetectionContext): string | null {
  if (name === null) return null;
  if (context.roleName !== null && name === context.roleName) return 'scan role';
  return FORWARDER_ROLE.test(name) ? 'event forwarder role' : null;
}

/** The role calls that can take Sentinel's permissions or trust away (AttachRolePolicy: AWSDenyAll, for one). */
const ROLE_CALLS = [
  'AttachRolePolicy',
  'DetachRolePolicy',
  'PutRolePolicy',
  'DeleteRolePolicy',
  'UpdateAssumeRolePolicy',
  'DeleteRole',
  'PutRolePermissionsBoundary',
] as const;

/** Whether a call gives a Sentinel role what its templates give it (a re-run of the CLI script does). */
function restoresRole(eventName: string, request: Detail, kind: string): boolean {
  if (eventName === 'AttachRolePolicy') {
    return kind === 'scan role' && (MANAGED_POLICIES as readonly string[]).includes(str(request, 'policyArn') ?? '');
  }
  if (eventName !== 'PutRolePolicy') return false;
  const policies =
    kind === 'scan role'
      ? inlinePolicies().map((p): [string, unknown] => [p.name, p.document])
      : [[FORWARDER_POLICY_NAME, forwarderPolicy()]];
  return policies.some(
    ([policyName, expected]) =>
      request.policyName === policyName && sameJson(parsePolicy(request.policyDocument), expected),
  );
}

function describeRoleChange(eventName: string, request: Detail): string {
  const policy = str(request, 'policyArn') ?? str(request, 'policyName') ?? 'a policy';
  switch (eventName) {
    case 'AttachRolePolicy':
      return `had ${policy} attached`;
    case 'DetachRolePolicy':
      return `had ${policy} detached`;
    case 'PutRolePolicy':
      return `had inline policy ${policy} put on it`;
    case 'DeleteRolePolicy':
      return `had inline policy ${policy} deleted`;
    case 'UpdateAssumeRolePolicy':
      return 'had its trust policy replaced';
    case 'DeleteRole':
      return 'was deleted';
    default:
      return `was given the permissions boundary ${str(request, 'permissionsBoundary') ?? ''}`.trim();
  }
}

const sentinelRoleChanged = detection('event.sentinel_role_changed', (event, context) => {
  const detail = successfulCall(event, IAM, ROLE_CALLS);
  if (!detail || !event.eventName) return [];
  const request = params(detail);
  const name = str(request, 'roleName');
  const kind = sentinelRole(name, context);
  if (!name || !kind || restoresRole(event.eventName, request, kind)) return [];
  const consequence =
    kind === 'scan role'
      ? "Sentinel's scans may no longer read the account."
      : 'EventBridge may no longer forward events to Sentinel.';
  return [
    {
      resource: `role/${name}`,
      detail: `Sentinel's ${kind} ${name} ${describeRoleChange(event.eventName, request)}: ${consequence}`,
    },
  ];
});

const regionEnabled = detection('event.region_enabled', (event) => {
  const detail = successfulCall(event, 'account.amazonaws.com', ['EnableRegion']);
  if (!detail) return [];
  const request = params(detail);
  // A management account may enable a member account's region: that is the member's change, as for contacts.
  const target = str(request, 'AccountId') ?? str(request, 'accountId');
  if (target && target !== event.account) return [];
  const region = str(request, 'RegionName') ?? str(request, 'regionName');
  return region
    ? [
        {
          resource: region,
          region,
          detail: `Region ${region} was enabled: Sentinel's event forwarder does not cover it until it is set up there.`,
        },
      ]
    : [];
});
// ---- AWS Health ----

/** How much of AWS's own description a finding quotes: its first lines say what happened and to what. */
const HEALTH_DESCRIPTION_CHARS = 400;
/** How many affected entities (keys, instances) a finding names. */
const HEALTH_LISTED_ENTITIES = 5;

/**
 * An AWS Health event of the service category `category` (RISK, ABUSE) still to act on: its status open or upcoming.
 * By the category AWS gives the event, never by words in its type code: a new RISK type is a risk, and an EC2 event
 * whose code mentions abuse is not one. Null for any other event, for one AWS closed (nothing left to do), and for one
 * about another account (an organization's management account sees its members' events; each member forwards its
 * own).
 */
function openHealthEvent(event: AccountEvent, category: string): Detail | null {
  const { detail } = event;
  if (event.source !== HEALTH_SOURCE || !HEALTH_EVENT_TYPES.includes(event.detailType)) return null;
  if (str(detail, 'service')?.toUpperCase() !== category) return null;
  if (str(detail, 'statusCode')?.toLowerCase() === 'closed') return null;
  const affected = str(detail, 'affectedAccount');
  return affected && affected !== event.account ? null : detail;
}

/**
 * The finding of an open Health event: its ARN and region (the scan checks' resource and region for the same event),
 * its type, what AWS wrote and the entities it names. Every update AWS sends of one event is that event.
 */
function healthFinding(event: AccountEvent, category: string): EventFinding[] {
  const detail = openHealthEvent(event, category);
  if (!detail) return [];
  const code = str(detail, 'eventTypeCode') ?? 'unknown type';
  const description = asArray(detail.eventDescription)
    .map((d) => str(d, 'latestDescription'))
    .find((d) => d !== null);
  const entities = asArray(detail.affectedEntities).flatMap((e) => str(e, 'entityValue') ?? []);
  const more = entities.length > HEALTH_LISTED_ENTITIES ? ` and ${entities.length - HEALTH_LISTED_ENTITIES} more` : '';
  const named = entities.length > 0 ? ` Affected: ${entities.slice(0, HEALTH_LISTED_ENTITIES).join(', ')}${more}.` : '';
  const excerpt =
    description && description.length > HEALTH_DESCRIPTION_CHARS
      ? `${description.slice(0, HEALTH_DESCRIPTION_CHARS)}...`
      : description;
  const quoted = excerpt ? ` AWS: "${excerpt}"` : '';
  return [
    {
      resource: str(detail, 'eventArn') ?? event.eventId,
      region: str(detail, 'eventRegion') ?? event.region,
      detail: `AWS Health ${category} event ${code}, status ${str(detail, 'statusCode') ?? 'open'}.${named}${quoted}`,
    },
  ];
}

const healthRiskEvent = detection('event.health_risk_event', (event) => healthFinding(event, HEALTH_RISK_CATEGORY));
const healthAbuseEvent = detection('event.health_abuse_event', (event) => healthFinding(event, HEALTH_ABUSE_CATEGORY));

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
  guardDutyHighSeverityFinding,
  securityGroupAdminPortOpened,
  securityGroupDatabasePortOpened,
  s3BucketMadePublic,
  s3AccountBlockRemoved,
  instanceInUnusedRegion,
  gpuInstanceLaunched,
  alternateContactDeleted,
  eventForwarderChanged,
  sentinelRoleChanged,
  regionEnabled,
  healthRiskEvent,
  healthAbuseEvent,
  ...PLAYBOOK_DETECTIONS,
  guardDutyFinding,
]);

/**
 * Every detection's findings for one event. None for a call of Sentinel's own roles, whichever the detection: its
 * scans read what some detections watch, and nothing it does is news (domain/events/trusted-principals.ts).
 */
export function detectEvent(
  event: AccountEvent,
  context: DetectionContext,
): { detection: EventDetection; finding: EventFinding }[] {
  if (bySentinel(event, context)) return [];
  return EVENT_DETECTIONS.flatMap((detection) =>
    detection.detect(event, context).map((finding) => ({ detection, finding })),
  );
}
