import { describedDetection, PROBABLE_COMPROMISE_ID } from './catalog';
import type { DetectionDescription, EventFinding } from './types';

// The compound detection: alone, a new access key or a GPU instance is often routine; together within a day they
// are the usual shape of a stolen-credentials compromise (get access, then spend the account's money on compute).
// It reads indicators from both the event detections and the scan checks, and is evaluated whenever either brings
// a new one (core/events/ingestion.ts, core/scans/save-scan.ts), so either can complete the pair.

/** The window within which an access indicator and a compute or spend one make a probable compromise. */
const WINDOW_MS = 24 * 60 * 60 * 1000;
/** Indicators the finding's description lists (the newest); the rest are counted. */
const LISTED_INDICATORS = 10;

export interface Indicator {
  kind: 'access' | 'compute' | 'spend';
  /** The detection or check id that raised it. */
  id: string;
  resource: string;
  region: string;
  /** When it happened (ISO 8601). */
  at: string;
  summary: string;
}

const KINDS: ReadonlyMap<string, Indicator['kind']> = new Map([
  ['event.iam_user_created', 'access'],
  ['event.access_key_created', 'access'],
  ['event.login_profile_created', 'access'],
  ['event.root_console_sign_in', 'access'],
  ['event.root_api_call', 'access'],
  ['threat.access_key_created_recently', 'access'],
  ['threat.iam_user_created_recently', 'access'],
  ['event.instance_launched_in_unused_region', 'compute'],
  ['event.gpu_instance_launched', 'compute'],
  ['threat.gpu_instance_running', 'compute'],
  ['threat.instance_in_unused_region', 'compute'],
  ['billing.daily_spend_spike', 'spend'],
  ['billing.cost_anomaly', 'spend'],
]);

/** What a detection's or check's finding indicates, or null when it is no part of the compound detection. */
export function indicatorKind(detectionOrCheckId: string): Indicator['kind'] | null {
  return KINDS.get(detectionOrCheckId) ?? null;
}

/** The event detections and the scan checks whose findings are indicators. */
export const EVENT_INDICATORS: readonly string[] = [...KINDS.keys()].filter((id) => id.startsWith('event.'));
export const SCAN_INDICATORS: readonly string[] = [...KINDS.keys()].filter((id) => !id.startsWith('event.'));

export const PROBABLE_COMPROMISE: DetectionDescription = describedDetection(PROBABLE_COMPROMISE_ID);

/**
 * The compound finding for the indicators of the 24 hours up to `now`, or null when they do not hold both an
 * access indicator and a compute or spend one. The finding is the account's (resource 'account'): while its signal of
 * the last day is open and not accepted, later indicators are counted on it rather than opening new ones
 * (domain/events/occurrences.ts).
 */
export function probableCompromise(
  indicators: readonly Indicator[],
  now: string,
): { finding: EventFinding; indicators: Indicator[] } | null {
  const end = Date.parse(now);
  // Newest first, each (indicator, resource) once: a root user's hundred calls are one indicator.
  const unique = new Map<string, Indicator>();
  for (const { indicator } of indicators
    .map((i) => ({ indicator: i, at: Date.parse(i.at) }))
    // A minute ahead is clock skew between AWS and us, not the future.
    .filter(({ at }) => end - WINDOW_MS <= at && at <= end + 60_000)
    .sort((a, b) => b.at - a.at)) {
    const key = `${indicator.id}|${indicator.resource}|${indicator.region}`;
    if (!unique.has(key)) unique.set(key, indicator);
  }
  const recent = [...unique.values()];
  const access = recent.some((i) => i.kind === 'access');
  const usage = recent.some((i) => i.kind === 'compute' || i.kind === 'spend');
  if (!access || !usage) return null;
  const listed = recent
    .slice(0, LISTED_INDICATORS)
    .map((i) => `${i.at} ${i.summary}`)
    .join('; ');
  const more = recent.length > LISTED_INDICATORS ? ` (and ${recent.length - LISTED_INDICATORS} more)` : '';
  return {
    finding: { resource: 'account', detail: `Indicators in the last 24 hours, newest first: ${listed}${more}.` },
    indicators: recent,
  };
}
