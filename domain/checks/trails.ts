import type { Trail, TrailEvents, Unread } from '../scans/inventory';
import { failing, withUnread } from './helpers';
import type { CheckResult, FailingResource } from './types';

// Rules about the account's trails shared by the CloudTrail checks.

/**
 * Whether a multi-region trail that is logging records what `records` asks of its event selectors. Unknown (not
 * evaluated) rather than failed when no trail is known to, but one whose status or selectors could not be read
 * might: never a false fail.
 */
export function recordedEverywhere(
  trails: readonly Trail[],
  records: (events: TrailEvents) => boolean,
  failure: (multiRegionLogging: Trail[]) => FailingResource,
): CheckResult {
  const multiRegion = trails.filter((t) => t.multiRegion && t.logging !== false);
  if (multiRegion.some((t) => t.logging === true && t.events !== null && records(t.events))) return { status: 'pass' };
  const unknown = multiRegion.filter((t) => t.logging === null || t.events === null);
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
