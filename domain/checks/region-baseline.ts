import type { Instance, Inventory } from '../scans/inventory';
import { daysSince } from './helpers';

// The regions an account uses, as a baseline (docs/decisions.md, "No clock-based all-clear"): learned once, from the
// first scan that read every region's instances and trails, and changed after that only by a tenant accepting an
// instance in a region outside it. An instance never makes its region "in use" by running long enough: an attacker's
// miner left alone for a week is still in a region the account does not use.

/** An instance launched this recently before the scan that learns the baseline may be an intruder's: not history. */
export const NEW_INSTANCE_DAYS = 7;

/** The checks whose signals name a region outside the baseline: accepting one adds its region. */
export const UNUSED_REGION_CHECK_IDS: readonly string[] = [
  'threat.instance_in_unused_region',
  'event.instance_launched_in_unused_region',
];

export interface RegionBaseline {
  /** The regions the account uses, sorted. */
  regions: readonly string[];
  /**
   * When a scan learned it (ISO 8601); null until one has. Regions accepted before that are kept in `regions` and
   * joined to what the first complete scan learns.
   */
  learnedAt: string | null;
}

/** No scan has learned anything, and nothing was accepted. */
export const UNKNOWN_BASELINE: RegionBaseline = { regions: [], learnedAt: null };

const isNew = (instance: Instance, now: string) => daysSince(instance.launchedAt, now) <= NEW_INSTANCE_DAYS;

/**
 * What one inventory says the account uses: regions with an instance (not terminated) launched more than
 * NEW_INSTANCE_DAYS before the scan, its trails' home regions, and regions holding its databases (RDS) or file
 * systems (EFS), which are the account's own long-lived infrastructure, not what a miner starts. Null unless the
 * instances and the trails were read in every region: a region left unread could be one the account uses.
 * The databases and file systems only add regions: where they could not be read, the baseline is narrower, which
 * flags more, never less.
 */
export function learnRegions(inventory: Inventory): string[] | null {
  const { instances, cloudtrail, rdsInstances, efsFileSystems, collectedAt } = inventory;
  if (instances.status !== 'ok' || cloudtrail.status !== 'ok' || instances.unread?.length || cloudtrail.unread?.length)
    return null;
  return [
    ...new Set([
      ...instances.value.instances
        .filter((instance) => instance.state !== 'terminated' && !isNew(instance, collectedAt))
        .map((instance) => instance.region),
      ...cloudtrail.value.trails.map((trail) => trail.homeRegion),
      ...(rdsInstances.status === 'ok' ? rdsInstances.value.instances.map((db) => db.region) : []),
      ...(efsFileSystems.status === 'ok' ? efsFileSystems.value.fileSystems.map((fs) => fs.region) : []),
    ]),
  ].sort();
}

/**
 * The regions a scan judges instances against: the baseline once learned; before that, what this inventory shows
 * (the rule the first complete scan will learn by) with the regions already accepted.
 */
export function regionsInUse(baseline: RegionBaseline, inventory: Inventory): Set<string> {
  if (baseline.learnedAt !== null) return new Set(baseline.regions);
  return new Set([...baseline.regions, ...(learnRegions(inventory) ?? [])]);
}

/**
 * The baseline a full scan learns from the regions its inventory showed (`learnRegions`), with the regions accepted
 * before joined to them; null when the account's baseline is learned already (it never changes by a scan).
 */
export function learnedBaseline(baseline: RegionBaseline, learned: readonly string[], at: Date): RegionBaseline | null {
  if (baseline.learnedAt !== null) return null;
  return { regions: [...new Set([...learned, ...baseline.regions])].sort(), learnedAt: at.toISOString() };
}

/**
 * The regions the event detections may call used (DetectionContext.usedRegions): the learned baseline, or null
 * before it is learned (a launch is then not judged by its region; the first complete scan judges it).
 */
export function detectionRegions(baseline: RegionBaseline): readonly string[] | null {
  return baseline.learnedAt === null ? null : baseline.regions;
}

/**
 * Whether a signal of an instance outside the baseline has been reviewed by its region's acceptance: a tenant accepted
 * that region (on this signal or on another instance there), so the launch was looked at.
 */
export function regionAccepted(signal: { checkId: string; region: string }, baseline: RegionBaseline): boolean {
  return (
    UNUSED_REGION_CHECK_IDS.includes(signal.checkId) &&
    baseline.learnedAt !== null &&
    baseline.regions.includes(signal.region)
  );
}
