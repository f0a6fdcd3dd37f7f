// The EventBridge rules of the event forwarder every onboarding template creates (Terraform, CLI script,
// CloudFormation): which events the customer's account sends to Sentinel. They are the events the detections
// (domain/events/detections.ts) read, and no more: each one forwarded costs the customer an API destination
// invocation.
//
// Global services (IAM, STS, Organizations, Account Management) deliver their events in
// us-east-1 only; the others deliver in the region where they happen, so their rules are needed in every region
// the account has enabled.

import { PLAYBOOK_CATALOG } from './playbook-catalog';
import { DENIED_ERROR_CODES, DISCOVERY_CALLS } from './windows-calls';

/** The path of the ingestion endpoint, under the service's public base URL. */
export const EVENT_INGEST_PATH = '/ingest/aws/events';
/** The header the EventBridge connection's API-key authorization sends. */
export const EVENT_API_KEY_HEADER = 'X-Sentinel-Event-Key';
/** The region where global services deliver their events. */
export const GLOBAL_EVENTS_REGION = 'us-east-1';

export const CLOUDTRAIL_API_CALL = 'AWS API Call via CloudTrail';
export const CONSOLE_SIGN_IN = 'AWS Console Sign In via CloudTrail';
export const GUARDDUTY_FINDING = 'GuardDuty Finding';
/** AWS Health's source, and the detail types of its events (an abuse report has its own). */
export const HEALTH_SOURCE = 'aws.health';
export const HEALTH_EVENT_TYPES: readonly string[] = Object.freeze(['AWS Health Event', 'AWS Health Abuse Event']);
/**
 * The AWS Health service categories Sentinel reads: RISK (credentials exposed, compromised or quarantined) and ABUSE
 * (abuse reports against the account's resources). Both are what an account is suspended for when left unanswered.
 */
export const HEALTH_RISK_CATEGORY = 'RISK';
export const HEALTH_ABUSE_CATEGORY = 'ABUSE';

/**
 * The heartbeat (docs/event-forwarding.md, "Heartbeat"): in every region of the forwarder a scheduled rule sends
 * EventBridge's own Scheduled Event through the same API destination, so Sentinel can tell a quiet region from a
 * region whose forwarder stopped delivering.
 */
export const HEARTBEAT_RULE_NAME = 'sentinel-heartbeat';
export const HEARTBEAT_INTERVAL_MINUTES = 5;
export const HEARTBEAT_SCHEDULE = `rate(${HEARTBEAT_INTERVAL_MINUTES} minutes)`;
/** The heartbeat rule's description in every form of the forwarder. */
export const HEARTBEAT_DESCRIPTION = `Heartbeat of the Sentinel event forwarder, every ${HEARTBEAT_INTERVAL_MINUTES} minutes`;
/**
 * A region whose last heartbeat is older than this is blind: three beats missed, plus the time EventBridge may spend
 * retrying a delivery to an API destination that failed once.
 */
export const HEARTBEAT_LATE_AFTER_MINUTES = 20;
/** The source and detail type of the events a scheduled rule sends. */
export const SCHEDULED_EVENT_SOURCE = 'aws.events';
export const SCHEDULED_EVENT = 'Scheduled Event';

/**
 * A heartbeat: only the forwarder's scheduled rule targets Sentinel's API destination with a Scheduled Event, so any
 * that arrives with the account's key is one.
 */
export const isHeartbeat = (event: { source: string; detailType: string }) =>
  event.source === SCHEDULED_EVENT_SOURCE && event.detailType === SCHEDULED_EVENT;

/** The rule that forwards changes to the forwarder itself (domain/events/detections.ts, event.event_forwarder_changed). */
export const FORWARDER_CHANGES_RULE_NAME = 'sentinel-forwarder-changes';
/** The EventBridge calls that can stop, redirect or disable the forwarder. */
export const FORWARDER_CHANGE_CALLS = [
  'DeleteRule',
  'DisableRule',
  'RemoveTargets',
  'PutRule',
  'PutTargets',
  'DeauthorizeConnection',
  'DeleteConnection',
  'UpdateConnection',
  'DeleteApiDestination',
  'UpdateApiDestination',
] as const;
/** The prefix of every rule the forwarder creates (and of nothing else Sentinel asks for). */
export const FORWARDER_RULE_PREFIX = 'sentinel-';
/**
 * An EventBridge rule's state. ENABLED matches every event except CloudTrail's read-only management events, which only
 * a rule in ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS receives.
 */
export type RuleState = 'ENABLED' | 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS';
export const DEFAULT_RULE_STATE: RuleState = 'ENABLED';

export interface ForwardingRule {
  /** The rule's name in the customer's account (64 characters at most, [.-_A-Za-z0-9]). */
  name: string;
  description: string;
  /** `global`: created in us-east-1 only; `regional`: in every enabled region. */
  scope: 'global' | 'regional';
  /** The EventBridge event pattern. */
  pattern: Record<string, unknown>;
  /** DEFAULT_RULE_STATE when omitted. */
  state?: RuleState;
}

/** The state every form gives the rule. */
export const ruleState = (rule: ForwardingRule): RuleState => rule.state ?? DEFAULT_RULE_STATE;

const apiCalls = (source: string, eventSource: string, eventNames: string[]) => ({
  source: [source],
  'detail-type': [CLOUDTRAIL_API_CALL],
  detail: { eventSource: [eventSource], eventName: eventNames },
});

/** The longest event pattern EventBridge accepts without a quota increase (characters of its JSON). */
export const MAX_PATTERN_CHARS = 2048;

/**
 * The rules that forward the calls the attacker's playbook detections read (domain/events/playbook-catalog.ts),
 * generated from their `calls` so the two never drift: calls of the same kind (global or regional, write or
 * read-only) packed into as few rules as fit EventBridge's pattern size, and a rule of its own for each narrowed call.
 * Fewer rules cost the forwarder check fewer reads per region. Read-only calls need the state that receives read-only
 * management events; a data event arrives only when a trail of the account logs data events.
 */
function playbookRules(base: readonly ForwardingRule[]): ForwardingRule[] {
  type Group = {
    scope: 'global' | 'regional';
    readOnly: boolean;
    calls: Map<string, { source: string; names: Set<string> }>;
  };
  const groups = new Map<string, Group>();
  const rules: ForwardingRule[] = [];
  for (const { id, calls } of PLAYBOOK_CATALOG) {
    if (calls.narrow) {
      const base = apiCalls(calls.source, calls.eventSource, [...calls.names]);
      rules.push({
        name: `sentinel-playbook-${id.replace(/^event\./, '').replaceAll('_', '-')}`.slice(0, 64),
        description: `${calls.dataEvent ? 'Data events' : 'Calls'} read by ${id}, to Sentinel`,
        scope: calls.scope,
        ...(calls.readOnly ? { state: 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS' as const } : {}),
        pattern: { ...base, detail: { ...base.detail, ...calls.narrow } },
      });
      continue;
    }
    // A call a hand-written rule already forwards (RunInstances, PutBucketPolicy) is not sent twice.
    const forwarded = (name: string) =>
      base.some((rule) => {
        const detail = rule.pattern.detail as { eventSource?: string[]; eventName?: string[] } | undefined;
        return !calls.readOnly && detail?.eventSource?.includes(calls.eventSource) && detail.eventName?.includes(name);
      });
    const names = calls.names.filter((name) => !forwarded(name));
    if (names.length === 0) continue;
    const key = `${calls.scope}:${calls.readOnly ? 'read' : 'write'}`;
    const group = groups.get(key) ?? { scope: calls.scope, readOnly: !!calls.readOnly, calls: new Map() };
    groups.set(key, group);
    const service = group.calls.get(calls.eventSource) ?? { source: calls.source, names: new Set<string>() };
    group.calls.set(calls.eventSource, service);
    for (const name of names) service.names.add(name);
  }
  for (const [key, group] of groups) {
    const pattern = (services: [string, { source: string; names: Set<string> }][]) => ({
      source: [...new Set(services.map(([, s]) => s.source))],
      'detail-type': [CLOUDTRAIL_API_CALL],
      detail: {
        eventSource: services.map(([eventSource]) => eventSource),
        eventName: [...new Set(services.flatMap(([, s]) => [...s.names]))],
      },
    });
    const packs: [string, { source: string; names: Set<string> }][][] = [];
    for (const service of group.calls) {
      const last = packs.at(-1);
      if (last && JSON.stringify(pattern([...last, service])).length <= MAX_PATTERN_CHARS) last.push(service);
      else packs.push([service]);
    }
    packs.forEach((services, i) =>
      rules.push({
        name: `sentinel-playbook-${key.replace(':', '-')}-${i + 1}`,
        description:
          `${group.readOnly ? 'Read-only calls' : 'Changes'} the attacker's playbook detections read (${services.map(([e]) => e.split('.')[0]).join(', ')}), to Sentinel`.slice(
            0,
            512,
          ),
        scope: group.scope,
        ...(group.readOnly ? { state: 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS' as const } : {}),
        pattern: pattern(services),
      }),
    );
  }
  return rules;
}

/** The rules written by hand: each for the detections of domain/events/detections.ts. */
const BASE_RULES: readonly ForwardingRule[] = [
  {
    name: 'sentinel-console-sign-in',
    description: 'Console sign-ins (root, and without MFA) to Sentinel',
    // Logged in the region of the sign-in endpoint the user reached: us-east-1 for the global one, others for
    // regional endpoints.
    scope: 'regional',
    pattern: { source: ['aws.signin'], 'detail-type': [CONSOLE_SIGN_IN] },
  },
  {
    name: 'sentinel-iam-changes',
    description:
      "New IAM users, access keys and login profiles, admin policies, and changes to roles' policies, to Sentinel",
    scope: 'global',
    // The role calls after PutGroupPolicy are read only on Sentinel's own roles (its scan role, the forwarder's role):
    // taking their permissions or their trust away blinds Sentinel. Not DeleteRolePermissionsBoundary: Sentinel's
    // templates set no boundary, so removing one gives back only what Sentinel asked for.
    pattern: apiCalls('aws.iam', 'iam.amazonaws.com', [
      'CreateUser',
      'CreateAccessKey',
      'CreateLoginProfile',
      'AttachUserPolicy',
      'AttachRolePolicy',
      'AttachGroupPolicy',
      'PutUserPolicy',
      'PutRolePolicy',
      'PutGroupPolicy',
      'DetachRolePolicy',
      'DeleteRolePolicy',
      'UpdateAssumeRolePolicy',
      'DeleteRole',
      'PutRolePermissionsBoundary',
    ]),
  },
  {
    name: 'sentinel-account-contacts',
    // The name predates EnableRegion; it stays, as renaming a deployed rule would leave the old one behind.
    description: 'Alternate contacts deleted and regions enabled, to Sentinel',
    scope: 'global',
    pattern: apiCalls('aws.account', 'account.amazonaws.com', ['DeleteAlternateContact', 'EnableRegion']),
  },
  {
    name: 'sentinel-root-activity',
    description: 'API calls made with the root user, to Sentinel',
    scope: 'regional',
    pattern: { 'detail-type': [CLOUDTRAIL_API_CALL], detail: { userIdentity: { type: ['Root'] } } },
  },
  {
    name: 'sentinel-root-read-activity',
    description: 'Read-only API calls made with the root user, to Sentinel',
    scope: 'regional',
    // The rule above, in state ENABLED, never sees a read-only call: a root session that only looks (ListBuckets,
    // GetCallerIdentity) would go unseen. This state makes EventBridge match read-only management events too; the
    // pattern keeps to the root user's read-only calls, so the account's everyday reads cost nothing and root's
    // writes are not sent twice.
    state: 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS',
    pattern: {
      'detail-type': [CLOUDTRAIL_API_CALL],
      detail: { userIdentity: { type: ['Root'] }, readOnly: [true] },
    },
  },
  {
    name: 'sentinel-cloudtrail-changes',
    description: 'CloudTrail stopped, deleted or weakened, to Sentinel',
    scope: 'regional',
    pattern: apiCalls('aws.cloudtrail', 'cloudtrail.amazonaws.com', [
      'StopLogging',
      'DeleteTrail',
      'UpdateTrail',
      'PutEventSelectors',
    ]),
  },
  {
    name: 'sentinel-guardduty-changes',
    description: 'GuardDuty detectors deleted, suspended or disassociated, to Sentinel',
    scope: 'regional',
    pattern: apiCalls('aws.guardduty', 'guardduty.amazonaws.com', [
      'DeleteDetector',
      'UpdateDetector',
      'DisassociateFromMasterAccount',
      'DisassociateFromAdministratorAccount',
    ]),
  },
  {
    name: 'sentinel-guardduty-findings',
    description: 'GuardDuty findings of every severity, to Sentinel',
    scope: 'regional',
    // Every severity: a finding's type can make it serious whatever GuardDuty's score (domain/events/guardduty-types.ts),
    // and the low ones are counted too. GuardDuty sends a new finding once and its updates at the detector's
    // publishing frequency (six hours by default), so even an account probed all day sends a few events a finding.
    pattern: { source: ['aws.guardduty'], 'detail-type': [GUARDDUTY_FINDING] },
  },
  {
    name: 'sentinel-ec2-changes',
    description: 'Security groups opened or changed and instances launched, to Sentinel',
    scope: 'regional',
    pattern: apiCalls('aws.ec2', 'ec2.amazonaws.com', [
      'AuthorizeSecurityGroupIngress',
      'ModifySecurityGroupRules',
      'RunInstances',
    ]),
  },
  {
    name: 'sentinel-s3-changes',
    description: 'Buckets made public, to Sentinel',
    scope: 'regional',
    // CloudTrail names the bucket-level DeletePublicAccessBlock call DeleteBucketPublicAccessBlock.
    pattern: apiCalls('aws.s3', 's3.amazonaws.com', [
      'PutBucketPolicy',
      'PutBucketAcl',
      'PutBucketPublicAccessBlock',
      'DeleteBucketPublicAccessBlock',
      'DeletePublicAccessBlock',
      'PutAccountPublicAccessBlock',
      'DeleteAccountPublicAccessBlock',
    ]),
  },
  {
    name: FORWARDER_CHANGES_RULE_NAME,
    description: "Changes to Sentinel's own rules, connection and API destination, to Sentinel",
    scope: 'regional',
    // Every call of these names, not only those on Sentinel's resources: a pattern cannot tell the rule a
    // RemoveTargets names (its `rule`) from the one a DeleteRule names (its `name`) without $or, and the customer's
    // own EventBridge changes are few. The detection reads the name.
    pattern: apiCalls('aws.events', 'events.amazonaws.com', [...FORWARDER_CHANGE_CALLS]),
  },
  {
    name: 'sentinel-health',
    description: 'AWS Health risk and abuse events, to Sentinel',
    // AWS Health delivers an event to the region it concerns; risk and abuse events concern the account rather than a
    // region, so the rule is in every region of the forwarder and none is missed wherever it lands. Unlike the Health
    // API, these events come on every support plan. Only the RISK and ABUSE service categories: operational events
    // (maintenance, outages) are many, and none is a detection's.
    scope: 'regional',
    pattern: {
      source: [HEALTH_SOURCE],
      'detail-type': [...HEALTH_EVENT_TYPES],
      detail: { service: [HEALTH_RISK_CATEGORY, HEALTH_ABUSE_CATEGORY] },
    },
  },
];

/** The rule that forwards refused calls (domain/events/windows.ts, event.access_denied_burst). */
export const DENIED_CALLS_RULE_NAME = 'sentinel-denied-calls';

/**
 * The rules of the detections with memory (domain/events/windows.ts): what they count that no other rule forwards.
 * Their cost is written in docs/event-forwarding.md ("Detections with memory").
 */
const MEMORY_RULES: readonly ForwardingRule[] = [
  {
    name: DENIED_CALLS_RULE_NAME,
    description: 'Calls refused for want of permission, read or write, to Sentinel',
    // Every service, reads included: a principal probing what it may do is refused on reads as much as on writes. A
    // refused call of a name another rule forwards arrives twice; ingestion keeps it once, by its event id.
    scope: 'regional',
    state: 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS',
    pattern: { 'detail-type': [CLOUDTRAIL_API_CALL], detail: { errorCode: [...DENIED_ERROR_CODES] } },
  },
  {
    name: 'sentinel-discovery-calls',
    description: 'The discovery calls enumeration starts with (who am I, users, roles, buckets, trails), to Sentinel',
    scope: 'regional',
    state: 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS',
    pattern: {
      'detail-type': [CLOUDTRAIL_API_CALL],
      detail: {
        eventSource: Object.keys(DISCOVERY_CALLS),
        eventName: Object.values(DISCOVERY_CALLS).flat(),
      },
    },
  },
  {
    name: 'sentinel-s3-object-deletions',
    description: 'S3 objects deleted (data events, when a trail logs them), to Sentinel',
    // Data events: nothing arrives unless a trail logs S3 data events (docs/event-forwarding.md says what they cost).
    scope: 'regional',
    pattern: apiCalls('aws.s3', 's3.amazonaws.com', ['DeleteObject', 'DeleteObjects']),
  },
  {
    name: 'sentinel-secret-reads',
    description: 'Secrets Manager secret values read, to Sentinel',
    scope: 'regional',
    state: 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS',
    pattern: apiCalls('aws.secretsmanager', 'secretsmanager.amazonaws.com', ['GetSecretValue']),
  },
  {
    name: 'sentinel-ssm-decrypted-reads',
    description: 'SSM parameters read with decryption, to Sentinel',
    scope: 'regional',
    state: 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS',
    // Not the reads without decryption, which every application's configuration makes and which return no secret.
    pattern: {
      source: ['aws.ssm'],
      'detail-type': [CLOUDTRAIL_API_CALL],
      detail: {
        eventSource: ['ssm.amazonaws.com'],
        eventName: ['GetParameter', 'GetParameters', 'GetParametersByPath'],
        requestParameters: { withDecryption: [true] },
      },
    },
  },
  {
    name: 'sentinel-instance-credentials',
    description: "Changes made with EC2 instances' role credentials, to Sentinel",
    // Credentials the instance metadata service delivered carry `ec2RoleDelivery`. Writes only (the rule's default
    // state): every read an instance makes would cost far more; the reads other rules forward count too.
    scope: 'regional',
    pattern: {
      'detail-type': [CLOUDTRAIL_API_CALL],
      detail: { userIdentity: { type: ['AssumedRole'], sessionContext: { ec2RoleDelivery: [{ exists: true }] } } },
    },
  },
];

export const FORWARDING_RULES: readonly ForwardingRule[] = Object.freeze([
  ...BASE_RULES,
  ...playbookRules(BASE_RULES),
  ...MEMORY_RULES,
]);

/** The rules to create in a region. */
export function rulesForRegion(region: string): ForwardingRule[] {
  return FORWARDING_RULES.filter((r) => r.scope === 'regional' || region === GLOBAL_EVENTS_REGION);
}
