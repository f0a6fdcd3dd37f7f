import { boundNullableText } from '../bounded-text';
import { GUARDDUTY_FINDING, HEALTH_EVENT_TYPES, HEALTH_SOURCE } from './forwarding-rules';
import type { AccountEvent, AwsEventEnvelope } from './types';

// What the ingestion endpoint accepts, and what Sentinel keeps of it. The body comes from the internet (the
// customer's API destination, or anyone holding its key): nothing here may throw on it, whatever its shape.

/**
 * EventBridge event ids are UUIDs: printable ASCII is asked of any id (pages of events are keyed by it), and the
 * bound only keeps a hostile body from storing a megabyte of id.
 */
export const EVENT_ID = /^[\x21-\x7e]{1,128}$/;
const ACCOUNT_ID = /^\d{12}$/;
/** EventBridge's own bound on an event's `source` and `detail-type`: longer ones are no event it sent. */
const ENVELOPE_TEXT_MAX = 256;
/**
 * Bytes kept of what is read out of `detail` (the events list shows them, signals name them): the call's name, who
 * made it and from where. Far above what AWS writes (an ARN is at most 2,048 characters, nearly always under 200);
 * longer is cut, with a marker (domain/bounded-text.ts). The detail itself is stored as sent.
 */
export const EVENT_TEXT_BYTES = { eventName: 256, actor: 1_024, sourceIp: 256 } as const;
/**
 * An AWS region name (us-east-1, us-gov-west-1, cn-north-1, ap-southeast-5): EventBridge always names the region an
 * event comes from. A forged one would otherwise make forwarding rows (and blind-region signals) of regions that do
 * not exist.
 */
const REGION = /^[a-z]{2}(-[a-z]+){1,2}-\d{1,2}$/;
/** The envelope's `time`: EventBridge writes `2026-03-15T12:00:00Z`; fractions and offsets are accepted too. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export type ParsedEnvelope = { ok: true; envelope: AwsEventEnvelope } | { ok: false; reason: string };

/** A plain JSON object, or null for anything else (arrays and null included). */
export function asObject(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A non-empty string, or null. */
export function asString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** An array, or an empty one for anything else. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value at `path` under `value`, or undefined as soon as a step is not an object. */
export function pathOf(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    const object = asObject(current);
    if (!object) return undefined;
    current = object[key];
  }
  return current;
}

const fail = (reason: string): ParsedEnvelope => ({ ok: false, reason });

/** A real instant PostgreSQL stores as given: a calendar date (not 30 February, which Date.parse rolls over), 1970-9999. */
function isStorableTime(time: string): boolean {
  if (!ISO_TIMESTAMP.test(time) || Number.isNaN(Date.parse(time))) return false;
  const [year, month, day] = time.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && year <= 9999 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

// NUL, and a UTF-16 surrogate without its pair: JSON can carry them, PostgreSQL's text and jsonb cannot.
// eslint-disable-next-line no-control-regex -- NUL is what it looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first key or string anywhere in `value` that PostgreSQL could not store, if any (walked without recursion). */
function unstorableText(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (UNSTORABLE.test(next)) return next;
    } else if (Array.isArray(next)) {
      pending.push(...next);
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) {
        if (UNSTORABLE.test(key)) return key;
        pending.push(item);
      }
    }
  }
  return undefined;
}
const isNonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Validates an EventBridge envelope; the reason names the first field that is wrong. */
export function parseEnvelope(body: unknown): ParsedEnvelope {
  const raw = asObject(body);
  if (!raw) return fail('the body is not a JSON object');

  const { version = '0', id, source, account, time, region, resources = [], detail } = raw;
  const detailType = raw['detail-type'];
  if (typeof version !== 'string') return fail('`version` must be a string');
  if (typeof id !== 'string' || !EVENT_ID.test(id)) return fail('`id` must be 1 to 128 printable ASCII characters');
  if (!isNonEmpty(source) || source.length > ENVELOPE_TEXT_MAX)
    return fail(`\`source\` must be a string of 1 to ${ENVELOPE_TEXT_MAX} characters`);
  if (!isNonEmpty(detailType) || detailType.length > ENVELOPE_TEXT_MAX)
    return fail(`\`detail-type\` must be a string of 1 to ${ENVELOPE_TEXT_MAX} characters`);
  if (typeof account !== 'string' || !ACCOUNT_ID.test(account))
    return fail('`account` must be a 12-digit AWS account id');
  if (typeof time !== 'string' || !isStorableTime(time))
    return fail('`time` must be an ISO 8601 timestamp of a real date');
  if (typeof region !== 'string' || !REGION.test(region)) return fail('`region` must be an AWS region name');
  if (!Array.isArray(resources) || !resources.every((r) => typeof r === 'string')) {
    return fail('`resources` must be an array of strings');
  }
  const detailObject = asObject(detail);
  if (!detailObject) return fail('`detail` must be a JSON object');
  if (unstorableText(raw) !== undefined) return fail('the event holds a NUL character or an unpaired UTF-16 surrogate');

  return {
    ok: true,
    envelope: {
      version,
      id,
      'detail-type': detailType,
      source,
      account,
      time,
      region,
      resources,
      detail: detailObject,
    },
  };
}

/** Who made a CloudTrail call: `root`, else the identity's ARN, else its principal id (some AWS services). */
function cloudTrailActor(detail: Record<string, unknown>): string | null {
  const identity = asObject(detail.userIdentity);
  if (!identity) return null;
  if (identity.type === 'Root') return 'root';
  return asString(identity.arn) ?? asString(identity.principalId);
}

/**
 * The remote IP of a GuardDuty finding: each action type keeps it under its own key
 * (`awsApiCallAction`, `networkConnectionAction`, `portProbeAction.portProbeDetails[]`, ...).
 */
function guardDutyRemoteIp(detail: Record<string, unknown>): string | null {
  const action = asObject(pathOf(detail, 'service', 'action'));
  if (!action) return null;
  for (const value of Object.values(action)) {
    const ip =
      asString(pathOf(value, 'remoteIpDetails', 'ipAddressV4')) ??
      asArray(pathOf(value, 'portProbeDetails'))
        .map((d) => asString(pathOf(d, 'remoteIpDetails', 'ipAddressV4')))
        .find((d) => d !== null);
    if (ip) return ip;
  }
  return null;
}

/** What Sentinel keeps of a valid envelope, and what detections read. */
export function toAccountEvent(envelope: AwsEventEnvelope): AccountEvent {
  const { detail } = envelope;
  const isFinding = envelope['detail-type'] === GUARDDUTY_FINDING;
  // An AWS Health event names no actor: AWS itself tells. Its type code is what the events list filters by. (A call
  // to the Health API, delivered through CloudTrail with the same source, is a CloudTrail call like any other.)
  const isHealth = envelope.source === HEALTH_SOURCE && HEALTH_EVENT_TYPES.includes(envelope['detail-type']);
  return {
    eventId: envelope.id,
    account: envelope.account,
    source: envelope.source,
    detailType: envelope['detail-type'],
    region: envelope.region,
    // To the millisecond, in UTC: what PostgreSQL gives back and pages of events are keyed by.
    time: new Date(envelope.time).toISOString(),
    eventName: boundNullableText(
      isFinding ? asString(detail.type) : isHealth ? asString(detail.eventTypeCode) : asString(detail.eventName),
      EVENT_TEXT_BYTES.eventName,
    ),
    actor: boundNullableText(
      isFinding
        ? asString(pathOf(detail, 'resource', 'accessKeyDetails', 'userName'))
        : isHealth
          ? null
          : cloudTrailActor(detail),
      EVENT_TEXT_BYTES.actor,
    ),
    sourceIp: boundNullableText(
      isFinding ? guardDutyRemoteIp(detail) : isHealth ? null : asString(detail.sourceIPAddress),
      EVENT_TEXT_BYTES.sourceIp,
    ),
    detail,
  };
}

/**
 * When an event is taken to have happened: its own time, unless that is later than its arrival (a wrong clock, or a
 * forged body), then its arrival. An event cannot arrive before it happens, and a future time would keep it first in
 * the account's timeline and in every read of recent events (the probable compromise's indicators) for years. The
 * event's detail keeps the time it claimed.
 */
export function arrivedEventTime(time: string, receivedAt: Date): string {
  return Date.parse(time) > receivedAt.getTime() ? receivedAt.toISOString() : time;
}
