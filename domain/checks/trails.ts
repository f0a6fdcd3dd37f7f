import type { Trail, TrailEvents, Unread } from '../scans/inventory';
import { daysSince, failing, withUnread } from './helpers';
import type { CheckResult, FailingResource } from './types';

// Rules about the account's trails shared by the CloudTrail checks.

/**
 * How long a logging trail may go without delivering anything to its bucket. CloudTrail delivers log files about
 * every 5 minutes while there is activity (a scan's own calls are activity), and with log file validation a digest
 * file every hour even without any: a day without either is a trail whose logs no longer arrive.
 */
export const DELIVERY_MAX_AGE_HOURS = 24;

const latest = (...times: (string | null)[]): string | null =>
  times.reduce<string | null>((a, b) => (b !== null && (a === null || Date.parse(b) > Date.parse(a)) ? b : a), null);

/**
 * Why a trail that is logging does not deliver its logs, or null when it does (or when its status is unknown): its
 * latest delivery failed, its bucket does not exist, or nothing reached the bucket for DELIVERY_MAX_AGE_HOURS
 * (counted from when logging was last started when that is later).
 */
export function deliveryProblem(trail: Trail, now: string): string | null {
  const { delivery } = trail;
  if (trail.logging !== true || delivery === null) return null;
  if (delivery.bucketMissing) return `its bucket ${trail.bucket} does not exist (S3 answered NoSuchBucket)`;
  if (delivery.error !== null) return `its latest delivery of log files to ${trail.bucket} failed (${delivery.error})`;
  const last = latest(delivery.lastDeliveredAt, delivery.lastDigestDeliveredAt);
  const since = latest(last, delivery.loggingStartedAt);
  if (since !== null && daysSince(since, now) * 24 <= DELIVERY_MAX_AGE_HOURS) return null;
  return last === null
    ? `it has never delivered a log file to ${trail.bucket}`
    : `it has delivered nothing to ${trail.bucket} since ${last}, more than ${DELIVERY_MAX_AGE_HOURS} hours ago`;
}

/**
 * Whether a trail logs: its logging is on and its log files reach its bucket. null: unknown (its status could not
 * be read). Every check that relies on "a trail logs" asks this, never `logging` alone.
 */
export function trailLogs(trail: Trail, now: string): boolean | null {
  if (trail.logging === null || (trail.logging && trail.delivery === null)) return null;
  return trail.logging && deliveryProblem(trail, now) === null;
}

/**
 * Whether a multi-region trail that logs (and delivers) records what `records` asks of its event selectors. Unknown
 * (not evaluated) rather than failed when no trail is known to, but one whose status or selectors could not be read
 * might: never a false fail.
 */
export function recordedEverywhere(
  trails: readonly Trail[],
  now: string,
  records: (events: TrailEvents) => boolean,
  failure: (multiRegionLogging: Trail[]) => FailingResource,
): CheckResult {
  const multiRegion = trails.filter((t) => t.multiRegion && trailLogs(t, now) !== false);
  if (multiRegion.some((t) => trailLogs(t, now) === true && t.events !== null && records(t.events)))
    return { status: 'pass' };
  const unknown = multiRegion.filter((t) => trailLogs(t, now) === null || t.events === null);
  if (unknown.length > 0) {
    return {
      status: 'not_evaluated',
      reason: `What ${unknown.map((t) => `trail ${t.name}`).join(', ')} records is unknown: its status or event selectors could not be read.`,
    };
  }
  return failing([failure(multiRegion)]);
}

/** Fails on each trail the predicate picks, named with its home region. */
export function failingTrails(
  trails: readonly Trail[],
  fails: (trail: Trail) => boolean,
  detail: (trail: Trail) => string,
): CheckResult {
  return failing(trails.filter(fails).map((t) => ({ resource: t.name, region: t.homeRegion, detail: detail(t) })));
}

/** The buckets of trails whose server access logging is off; buckets of other accounts, or not read, are unread. */
export function bucketsWithoutAccessLogging(trails: readonly Trail[]): CheckResult {
  const off = new Map<string, Trail[]>();
  const unread = new Map<string, Unread>();
  for (const trail of trails) {
    const logging = trail.bucketLogging;
    if (logging?.read === false)
      unread.set(trail.bucket, { kind: 'resource', scope: trail.bucket, reason: logging.reason });
    else if (logging?.read === true && !logging.enabled)
      off.set(trail.bucket, [...(off.get(trail.bucket) ?? []), trail]);
  }
  const result = failing(
    [...off].map(([bucket, of]) => ({
      resource: bucket,
      detail:
        `Bucket ${bucket}, where ${of.map((t) => `trail ${t.name}`).join(' and ')} ${of.length === 1 ? 'delivers its' : 'deliver their'} logs, ` +
        'has server access logging off.',
    })),
  );
  return withUnread(result, [...unread.values()]);
}
