import { HEARTBEAT_LATE_AFTER_MINUTES, HEARTBEAT_RULE_NAME, isHeartbeat } from './forwarding-rules';

// Whether each region of an account's event forwarder delivers (docs/event-forwarding.md, "Heartbeat"). A region
// that sent a heartbeat is watched from then on: silence from it past HEARTBEAT_LATE_AFTER_MINUTES means its
// forwarder stopped delivering (a rule deleted, a connection's key refused, an API destination failing), not that
// nothing happened.

/**
 * A region's state as GET /accounts/{account_id}/event-forwarding answers it:
 * - `receiving`: its last heartbeat is within the bound;
 * - `late`: its last heartbeat is older than the bound (the watch opens its blind signal);
 * - `no_heartbeat`: it delivered events but never a heartbeat (a forwarder set up before the heartbeat rule):
 *   Sentinel cannot tell its silence from quiet, so it is not watched.
 */
export const FORWARDING_STATES = ['receiving', 'late', 'no_heartbeat'] as const;
export type ForwardingState = (typeof FORWARDING_STATES)[number];

const MINUTE_MS = 60_000;

/**
 * When a heartbeat counts as sent: the event's own time (EventBridge's, when the scheduled rule fired), never later
 * than its arrival. A retried delivery keeps its original time, so a beat delivered hours late says the region was
 * behind, not alive now; and a time in the future (a clock or a forged body) cannot keep a region alive past its
 * arrival.
 */
export function heartbeatTime(eventTime: string, receivedAt: Date): Date {
  const sent = Date.parse(eventTime);
  return Number.isNaN(sent) || sent > receivedAt.getTime() ? receivedAt : new Date(sent);
}

/** The oldest last heartbeat still within the bound at `at`: older ones are late. */
export const lateBefore = (at: Date): Date => new Date(at.getTime() - HEARTBEAT_LATE_AFTER_MINUTES * MINUTE_MS);

export function forwardingState(lastHeartbeatAt: Date | null, at: Date): ForwardingState {
  if (lastHeartbeatAt === null) return 'no_heartbeat';
  return lastHeartbeatAt < lateBefore(at) ? 'late' : 'receiving';
}

/** What one request tells of one region: its newest heartbeat, and whether other events arrived. */
export interface RegionTouch {
  region: string;
  heartbeatAt: Date | null;
  eventAt: Date | null;
}

/**
 * One touch per region of the request's events (ingestion writes them in one statement): the newest heartbeat of the
 * region, and the arrival time when any other event came from it.
 */
export function regionTouches(
  events: readonly { source: string; detailType: string; region: string; time: string }[],
  receivedAt: Date,
): RegionTouch[] {
  const byRegion = new Map<string, RegionTouch>();
  for (const event of events) {
    const touch = byRegion.get(event.region) ?? { region: event.region, heartbeatAt: null, eventAt: null };
    if (isHeartbeat(event)) {
      const sent = heartbeatTime(event.time, receivedAt);
      if (touch.heartbeatAt === null || sent > touch.heartbeatAt) touch.heartbeatAt = sent;
    } else {
      touch.eventAt = receivedAt;
    }
    byRegion.set(event.region, touch);
  }
  return [...byRegion.values()].sort((a, b) => a.region.localeCompare(b.region));
}

/** What a blind region's signal names: the heartbeat rule that stopped reaching Sentinel. */
export const heartbeatRuleArn = (region: string, awsAccountId: string): string =>
  `arn:aws:events:${region}:${awsAccountId}:rule/${HEARTBEAT_RULE_NAME}`;
