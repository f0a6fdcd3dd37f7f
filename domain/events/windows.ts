import { FORWARDER_ROLE_NAME } from '../onboarding/forwarder-templates';
import { type Detail, failed, identityType, params, str, strings } from './cloudtrail-record';
import { CLOUDTRAIL_API_CALL, CONSOLE_SIGN_IN } from './forwarding-rules';
import { pathOf } from './normalize';
import { DENIED_ERROR_CODES, DISCOVERY_CALLS } from './windows-calls';
import type { AccountEvent, DetectionContext, EventFinding } from './types';

// The detections with memory (docs/decisions.md, "Detections with memory"): what one event adds to a window of the
// account's remembered state, and when a window or a first use opens a signal. Pure: the state itself is kept in
// PostgreSQL (db/repositories/detection-windows.ts) and updated in the transaction that stores the events.
//
// A window is fixed and aligned on the epoch (10:00-10:10, 10:10-10:20) by the events' own time, per detection and
// key (a source address, a principal, a role session). It opens at most one signal: when a request takes it to its
// threshold. Each row keeps a count and at most DISTINCT_VALUES_CAP distinct values, enough to tell every threshold.

/** At most this many distinct values are kept per window (every distinct threshold is at most this). */
export const DISTINCT_VALUES_CAP = 16;
/** A value longer than this is cut: a secret's ARN or a call's name is far shorter. */
export const VALUE_CHARS = 256;

/** A value cut at VALUE_CHARS, never between the two halves of a character outside the BMP (PostgreSQL refuses one). */
export function cut(value: string): string {
  if (value.length <= VALUE_CHARS) return value;
  const end = /[\uD800-\uDBFF]/.test(value.charAt(VALUE_CHARS - 1)) ? VALUE_CHARS - 1 : VALUE_CHARS;
  return value.slice(0, end);
}

export interface WindowedDetection {
  id: string;
  windowMinutes: number;
  /** The window opens a signal when it holds this many events (null: its count alone never does). */
  countThreshold: number | null;
  /** ... or this many distinct values (null: distinct values are not counted). */
  distinctThreshold: number | null;
  /**
   * What the event adds to a window of this detection: its key, the values it counts as distinct, and how many it
   * counts for (1 when not said).
   */
  counts: (event: AccountEvent, context: DetectionContext) => { key: string; values: string[]; weight?: number } | null;
  /** The signal's description of a window that reached its threshold. */
  describe: (window: { key: string; count: number; distinct: number; windowMinutes: number }) => string;
}

/** The CloudTrail record of an API call, if the event is one; console sign-ins are not. */
const apiCall = (event: AccountEvent): Detail | null =>
  event.detailType === CLOUDTRAIL_API_CALL && event.eventName !== null ? event.detail : null;

/**
 * Who made a call, as the windows and first uses count it: an assumed role's role (each of its sessions is the same
 * principal), else the actor (an IAM user's ARN, `root`).
 */
export function principalOf(event: AccountEvent): string | null {
  const issuer = str(event.detail, 'userIdentity', 'sessionContext', 'sessionIssuer', 'arn');
  return identityType(event.detail) === 'AssumedRole' && issuer ? issuer : event.actor;
}

/** Calls no window counts: Sentinel's own roles (its scans read a lot), and AWS services acting for someone. */
function ignored(event: AccountEvent, context: DetectionContext): boolean {
  const { detail } = event;
  const issuer = str(detail, 'userIdentity', 'sessionContext', 'sessionIssuer', 'userName');
  if (issuer && (issuer === context.roleName || issuer === FORWARDER_ROLE_NAME)) return true;
  return identityType(detail) === 'AWSService' || str(detail, 'userIdentity', 'invokedBy') !== null;
}

/** A failed console sign-in: CloudTrail's ConsoleLogin with `responseElements.ConsoleLogin` Failure. */
function failedSignIn(event: AccountEvent, root: boolean): { key: string; values: string[] } | null {
  const { detail } = event;
  if (event.detailType !== CONSOLE_SIGN_IN || event.eventName !== 'ConsoleLogin') return null;
  if (pathOf(detail, 'responseElements', 'ConsoleLogin') !== 'Failure' || !event.sourceIp) return null;
  if ((identityType(detail) === 'Root') !== root) return null;
  return { key: event.sourceIp, values: [] };
}

/** The secrets a call read (each counted as a distinct value), or null when it is not a secret read. */
function secretsRead(detail: Detail, name: string): string[] | null {
  const request = params(detail);
  switch (`${detail.eventSource}:${name}`) {
    case 'secretsmanager.amazonaws.com:GetSecretValue':
      return strings(request.secretId);
    case 'secretsmanager.amazonaws.com:BatchGetSecretValue': {
      const listed = strings(request.secretIdList);
      // A batch by filters names no secret: the call stands for one read of whatever matched.
      return listed.length > 0 ? listed : [`filters:${JSON.stringify(request.filters ?? null)}`];
    }
    case 'ssm.amazonaws.com:GetParameter':
    case 'ssm.amazonaws.com:GetParameters':
    case 'ssm.amazonaws.com:GetParametersByPath':
      // A parameter read without decryption returns no secret (a SecureString stays encrypted).
      if (request.withDecryption !== true) return null;
      return name === 'GetParametersByPath'
        ? strings(request.path).map((p) => `${p}*`)
        : strings(request.names ?? request.name);
    case 'ec2.amazonaws.com:GetPasswordData':
      return strings(request.instanceId).map((id) => `password:${id}`);
    default:
      return null;
  }
}

/** Public IPv4 and IPv6 addresses: not a private, loopback, link-local or shared range, nor an AWS service's name. */
export function isPublicAddress(address: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(address);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return !(
      a === 10 ||
      a === 127 ||
      a === 0 ||
      a >= 224 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const v6 = address.toLowerCase();
  if (!v6.includes(':')) return false; // a service's name (ec2.amazonaws.com), "AWS Internal"
  return !(v6 === '::1' || v6.startsWith('fe80:') || v6.startsWith('fc') || v6.startsWith('fd'));
}

/**
 * Whether a call was made with an EC2 instance's role credentials: CloudTrail marks credentials the instance metadata
 * service delivered (`ec2RoleDelivery`), and their session is named after the instance.
 */
function instanceSession(detail: Detail): string | null {
  if (identityType(detail) !== 'AssumedRole') return null;
  const principalId = str(detail, 'userIdentity', 'principalId') ?? '';
  const session = principalId.slice(principalId.indexOf(':') + 1);
  const delivered = str(detail, 'userIdentity', 'sessionContext', 'ec2RoleDelivery') !== null;
  if (!delivered && !/^i-[0-9a-f]{8,17}$/.test(session)) return null;
  return str(detail, 'userIdentity', 'accessKeyId') ?? principalId;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * What one DeleteObjects call counts for among deletions: it deletes up to 1,000 objects, and CloudTrail says neither
 * which nor how many, so one batch counts as a bulk deletion by itself.
 */
export const BATCH_DELETE_WEIGHT = 50;

/** The bucket an S3 object deletion by a principal emptied something of, or null when the event is none. */
function objectDeletion(event: AccountEvent, context: DetectionContext): { key: string; weight: number } | null {
  const detail = apiCall(event);
  const principal = principalOf(event);
  if (!detail || !principal || failed(detail) || ignored(event, context)) return null;
  if (detail.eventSource !== 's3.amazonaws.com') return null;
  if (event.eventName !== 'DeleteObject' && event.eventName !== 'DeleteObjects') return null;
  const bucket = str(detail, 'requestParameters', 'bucketName');
  if (!bucket) return null;
  return { key: `${bucket} by ${principal}`, weight: event.eventName === 'DeleteObjects' ? BATCH_DELETE_WEIGHT : 1 };
}

export const WINDOWED_DETECTIONS: readonly WindowedDetection[] = Object.freeze([
  {
    id: 'event.console_sign_in_failures',
    windowMinutes: 10,
    countThreshold: 5,
    distinctThreshold: null,
    counts: (event) => failedSignIn(event, false),
    describe: (w) => `${plural(w.count, 'failed console sign-in')} from ${w.key} within ${w.windowMinutes} minutes.`,
  },
  {
    id: 'event.root_sign_in_failures',
    windowMinutes: 10,
    countThreshold: 3,
    distinctThreshold: null,
    counts: (event) => failedSignIn(event, true),
    describe: (w) => `${plural(w.count, 'failed root sign-in')} from ${w.key} within ${w.windowMinutes} minutes.`,
  },
  {
    id: 'event.access_denied_burst',
    windowMinutes: 10,
    countThreshold: 20,
    distinctThreshold: null,
    // Failed calls are what this counts: the one place a refusal is the news.
    counts: (event, context) => {
      const detail = apiCall(event);
      const principal = principalOf(event);
      if (!detail || !principal || ignored(event, context)) return null;
      if (!DENIED_ERROR_CODES.includes(String(detail.errorCode))) return null;
      return { key: principal, values: [`${detail.eventSource}:${event.eventName}`] };
    },
    describe: (w) =>
      `${w.key} made ${plural(w.count, 'denied call')} (${plural(w.distinct, 'different API')}${w.distinct >= DISTINCT_VALUES_CAP ? ' or more' : ''}) within ${w.windowMinutes} minutes.`,
  },
  {
    id: 'event.discovery_burst',
    windowMinutes: 10,
    countThreshold: null,
    distinctThreshold: 8,
    // Refused calls count as much as answered ones: an intruder probing learns from both.
    counts: (event, context) => {
      const detail = apiCall(event);
      const principal = principalOf(event);
      if (!detail || !principal || ignored(event, context)) return null;
      const source = String(detail.eventSource);
      if (!DISCOVERY_CALLS[source]?.includes(event.eventName ?? '')) return null;
      return { key: principal, values: [`${source}:${event.eventName}`] };
    },
    describe: (w) =>
      `${w.key} called ${plural(w.distinct, 'different discovery API')} within ${w.windowMinutes} minutes.`,
  },
  {
    id: 'event.secret_retrieval_burst',
    windowMinutes: 10,
    countThreshold: 20,
    distinctThreshold: 10,
    // A refused read returned nothing; the denied-call window counts it.
    counts: (event, context) => {
      const detail = apiCall(event);
      const principal = principalOf(event);
      if (!detail || !principal || failed(detail) || ignored(event, context)) return null;
      const secrets = secretsRead(detail, event.eventName ?? '');
      return secrets ? { key: principal, values: secrets } : null;
    },
    describe: (w) =>
      `${w.key} made ${plural(w.count, 'secret read')} of ${w.distinct >= DISTINCT_VALUES_CAP ? `${DISTINCT_VALUES_CAP} or more` : w.distinct} different secrets within ${w.windowMinutes} minutes.`,
  },
  {
    id: 'event.s3_objects_mass_deleted',
    windowMinutes: 10,
    countThreshold: 50,
    distinctThreshold: null,
    // S3 data events: they arrive only when a trail of the account logs them (docs/event-forwarding.md).
    counts: (event, context) => {
      const deletion = objectDeletion(event, context);
      return deletion ? { key: deletion.key, values: [], weight: deletion.weight } : null;
    },
    describe: (w) =>
      `Objects were deleted in bulk from the bucket ${w.key}: ${plural(w.count, 'deletion')} within ${w.windowMinutes} minutes (a DeleteObjects call counts for ${BATCH_DELETE_WEIGHT}).`,
  },
  {
    id: 'event.instance_credentials_outside_aws',
    windowMinutes: 6 * 60,
    countThreshold: null,
    distinctThreshold: 2,
    // Only public addresses count: calls through a VPC endpoint come from the VPC's private ones, and an AWS service
    // calling for the role names itself. Two public addresses for one session within its lifetime (6 hours at most
    // for instance credentials) is the instance's and someone else's.
    counts: (event) => {
      const detail = apiCall(event);
      const session = detail && instanceSession(detail);
      if (!session || !event.sourceIp || !isPublicAddress(event.sourceIp)) return null;
      return { key: session, values: [event.sourceIp] };
    },
    describe: (w) =>
      `The instance credentials ${w.key} were used from ${plural(w.distinct, 'public address')} within ${w.windowMinutes / 60} hours.`,
  },
]);

const BY_ID: ReadonlyMap<string, WindowedDetection> = new Map(WINDOWED_DETECTIONS.map((d) => [d.id, d]));
export const windowedDetection = (id: string): WindowedDetection | undefined => BY_ID.get(id);

/** The longest window: older windows are deleted, they can no longer open anything. */
export const LONGEST_WINDOW_MINUTES = Math.max(...WINDOWED_DETECTIONS.map((d) => d.windowMinutes));
/** At most this many windows are kept per account: beyond, the least recently updated are evicted. */
export const WINDOWS_PER_ACCOUNT = 2_000;

/** The start of the window of `minutes` an instant falls in, aligned on the epoch. */
export function windowStart(time: Date, minutes: number): Date {
  const ms = minutes * 60_000;
  return new Date(Math.floor(time.getTime() / ms) * ms);
}

/** What a request adds to one window: the events and distinct values of its events that fall in it. */
export interface WindowTally {
  detectionId: string;
  key: string;
  windowStart: Date;
  count: number;
  /** Distinct values, in the order first seen, at most DISTINCT_VALUES_CAP. */
  values: string[];
  /** The latest event that counted in it, which a signal names. */
  event: AccountEvent;
}

/** A window before the earliest one still kept (an event late by more than the longest window) counts nothing. */
const tooOld = (start: Date, minutes: number, at: Date) =>
  start.getTime() + minutes * 60_000 < at.getTime() - LONGEST_WINDOW_MINUTES * 60_000;

/** The tallies of a request's new events, per detection, key and window, in the order first seen. */
export function tallyWindows(events: readonly AccountEvent[], context: DetectionContext, at: Date): WindowTally[] {
  const tallies = new Map<string, WindowTally>();
  const seen = new Set<string>();
  for (const event of events) {
    // One event delivered twice in a request counts once.
    if (seen.has(event.eventId)) continue;
    seen.add(event.eventId);
    for (const detection of WINDOWED_DETECTIONS) {
      const counted = detection.counts(event, context);
      if (!counted) continue;
      const start = windowStart(new Date(event.time), detection.windowMinutes);
      if (tooOld(start, detection.windowMinutes, at)) continue;
      const key = cut(counted.key);
      const id = `${detection.id}|${key}|${start.getTime()}`;
      const tally = tallies.get(id) ?? {
        detectionId: detection.id,
        key,
        windowStart: start,
        count: 0,
        values: [],
        event,
      };
      tallies.set(id, tally);
      tally.count += counted.weight ?? 1;
      for (const value of counted.values.map(cut))
        if (tally.values.length < DISTINCT_VALUES_CAP && !tally.values.includes(value)) tally.values.push(value);
      if (Date.parse(event.time) >= Date.parse(tally.event.time)) tally.event = event;
    }
  }
  return [...tallies.values()];
}

/** A window's state after a request was counted in it. */
export interface WindowState {
  detectionId: string;
  key: string;
  windowStart: Date;
  count: number;
  distinct: number;
  /** The window opened its signal already (in an earlier request). */
  signalled: boolean;
}

/** Whether a window holds enough to open its detection's signal. */
export function reachesThreshold(
  detection: WindowedDetection,
  state: Pick<WindowState, 'count' | 'distinct'>,
): boolean {
  return (
    (detection.countThreshold !== null && state.count >= detection.countThreshold) ||
    (detection.distinctThreshold !== null && state.distinct >= detection.distinctThreshold)
  );
}

/** The windows this request takes to their threshold: those that reach it now and did not open a signal before. */
export function crossedWindows(states: readonly WindowState[]): WindowState[] {
  return states.filter((state) => {
    const detection = windowedDetection(state.detectionId);
    return detection !== undefined && !state.signalled && reachesThreshold(detection, state);
  });
}

/** The finding of a window that reached its threshold: one per detection, key and window. */
export function windowFinding(state: WindowState, event: AccountEvent): EventFinding {
  const detection = windowedDetection(state.detectionId);
  if (!detection) throw new Error(`No windowed detection ${state.detectionId}`);
  return {
    resource: state.key,
    region: event.region,
    detail: detection.describe({ ...state, windowMinutes: detection.windowMinutes }),
  };
}

// ---- First use of a sensitive API ----

export const FIRST_USE_ID = 'event.sensitive_api_first_use';
/** A call its principal made within this many days is not a first use. */
export const FIRST_USE_MEMORY_DAYS = 90;
/** No first use is news until the account has sent events for this long: at first, every call is a first. */
export const FIRST_USE_LEARNING_DAYS = 14;
/** At most this many (principal, API) pairs are remembered per account: beyond, the least recently used go. */
export const FIRST_USES_PER_ACCOUNT = 10_000;

/**
 * The sensitive calls, per CloudTrail event source. Each is forwarded by a rule of its own detection already, so
 * remembering them costs no event more.
 */
export const SENSITIVE_CALLS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'iam.amazonaws.com': [
    'CreateAccessKey',
    'CreateUser',
    'CreateLoginProfile',
    'AttachUserPolicy',
    'PutUserPolicy',
    'UpdateAssumeRolePolicy',
  ],
  'secretsmanager.amazonaws.com': ['GetSecretValue', 'BatchGetSecretValue'],
  'cloudtrail.amazonaws.com': ['StopLogging', 'DeleteTrail'],
});

/** A principal's use of a sensitive API, as first uses are remembered. */
export interface SensitiveUse {
  principal: string;
  /** `eventSource:eventName`. */
  api: string;
  usedAt: Date;
  event: AccountEvent;
}

/** The sensitive calls of a request's new events that worked, once per principal and API (the latest). */
export function sensitiveUses(events: readonly AccountEvent[], context: DetectionContext): SensitiveUse[] {
  const uses = new Map<string, SensitiveUse>();
  for (const event of events) {
    const detail = apiCall(event);
    const principal = principalOf(event);
    if (!detail || !principal || failed(detail) || ignored(event, context)) continue;
    const source = String(detail.eventSource);
    if (!SENSITIVE_CALLS[source]?.includes(event.eventName ?? '')) continue;
    const use = {
      principal: cut(principal),
      api: `${source}:${event.eventName}`,
      usedAt: new Date(event.time),
      event,
    };
    const id = `${use.principal}|${use.api}`;
    const before = uses.get(id);
    if (!before || before.usedAt <= use.usedAt) uses.set(id, use);
  }
  return [...uses.values()];
}

/** What the account remembered of a use before this request: when its principal last made it, and since when it learns. */
export interface RememberedUse {
  principal: string;
  api: string;
  lastUsedAt: Date | null;
  /** The account's first event still stored (its learning started then); null when it has none. */
  learningSince: Date | null;
}

/**
 * Whether a use is a first: the account learned for FIRST_USE_LEARNING_DAYS, and its principal had not made the call
 * within FIRST_USE_MEMORY_DAYS before.
 */
export function isFirstUse(use: Pick<SensitiveUse, 'usedAt'>, remembered: RememberedUse, at: Date): boolean {
  const day = 86_400_000;
  if (!remembered.learningSince || at.getTime() - remembered.learningSince.getTime() < FIRST_USE_LEARNING_DAYS * day)
    return false;
  return (
    remembered.lastUsedAt === null ||
    use.usedAt.getTime() - remembered.lastUsedAt.getTime() >= FIRST_USE_MEMORY_DAYS * day
  );
}

export function firstUseFinding(use: SensitiveUse): EventFinding {
  return {
    resource: use.principal,
    region: use.event.region,
    detail: `${use.principal} called ${use.api.replace(':', ' ')} for the first time in ${FIRST_USE_MEMORY_DAYS} days.`,
  };
}
