import { checkById } from '../checks/catalog';
import type { CheckOutcome, Evaluation, Finding } from '../checks/evaluate';
import { EVENT_REVIEW_DAYS } from '../events/types';
import { eventDetection, FORWARDING_BLIND_ID, isEventSignal } from '../events/catalog';
import { forwardingState } from '../events/forwarding-health';
import { computeSrs, type ScoredFinding } from '../scoring/srs';

// What a scan does to an account's signals (docs/decisions.md, "Findings and the Security Risk Score"): a
// finding seen again keeps its open signal; an open signal not seen is resolved, unless the scan could not see
// it (its check was not evaluated, or its region, its resource or the resource it belongs to was unread); a
// finding that returns after being resolved opens a new signal. Accepted signals stay open and listed, and
// count in no score. A signal an event opened (domain/events/) is not a scan's: a scan that evaluated every check
// able to see what the event changed resolves it (the scan's own finding stands for that state from then on),
// and one no check can see stays open for EVENT_REVIEW_DAYS. A region's blind forwarder (event.forwarding_blind) is
// the forwarding watch's alone: it opens while the region's heartbeat is late and resolves once it is back, whatever
// a scan sees (no scan reads whether the forwarder delivers).
//
// A check marked `review` (domain/checks/types.ts) reports something that happened, a user or a key created, an
// instance launched outside the account's regions: that the next scan no longer sees it is no all-clear (the
// intruder may have deleted what they made). Its signal resolves once it is not seen and has been reviewed (accepted,
// or an alert about it acknowledged), or REVIEW_DAYS after it opened (docs/decisions.md, "No clock-based all-clear").
// An event signal such a check confirms waits for the same review, unless the scan's own finding stands for it.

/** How long an unreviewed signal of a `review` check stays open once no scan sees it: as long as an event's. */
export const REVIEW_DAYS = EVENT_REVIEW_DAYS;

export interface OpenSignal {
  id: string;
  fingerprint: string;
  checkId: string;
  severity: string;
  region: string;
  resource: string;
  owner: string | null;
  /** An acceptance is in force at the scan's time. */
  accepted: boolean;
  /**
   * A member has looked at it: accepted it (an acceptance not undone, in force or expired), or acknowledged an alert
   * it was behind. Only `review` checks' signals wait for it.
   */
  reviewed?: boolean;
  detectedAt?: Date;
}

export interface SignalChanges<S extends OpenSignal> {
  fresh: Finding[];
  stillOpen: S[];
  resolved: S[];
}

/** Whether a scan with this outcome for the signal's check could see the signal's resource at all. */
function couldSee(
  signal: Pick<OpenSignal, 'region' | 'resource' | 'owner'>,
  outcome: CheckOutcome | undefined,
): boolean {
  // A check no longer in the catalog sees nothing again: its signals resolve.
  if (!outcome) return true;
  if (outcome.status === 'not_evaluated') return false;
  return !outcome.unread.some((u) =>
    u.kind === 'region' ? u.scope === signal.region : u.scope === signal.resource || u.scope === signal.owner,
  );
}

const DAY_MS = 86_400_000;

const isReviewed = (signal: Pick<OpenSignal, 'accepted' | 'reviewed'>) => signal.accepted || signal.reviewed === true;

/** Opened less than REVIEW_DAYS before `at` (a signal without its time is not held). */
const withinReviewTime = (signal: Pick<OpenSignal, 'detectedAt'>, at: Date) =>
  signal.detectedAt !== undefined && at.getTime() - signal.detectedAt.getTime() < REVIEW_DAYS * DAY_MS;

/** A scan's signal of a `review` check that no scan may resolve yet: not reviewed, and opened less than REVIEW_DAYS ago. */
function awaitsReview(signal: Pick<OpenSignal, 'checkId' | 'accepted' | 'reviewed' | 'detectedAt'>, at: Date): boolean {
  return checkById(signal.checkId)?.review === true && !isReviewed(signal) && withinReviewTime(signal, at);
}

/**
 * Whether a scan that began reading at `at`, with these outcomes, settles an event's signal (see the top of this
 * file): it began after the event was taken (a scan that read before the change says nothing of it), and every
 * check able to see the change read the signal's resource and region.
 */
function settlesEventSignal(
  signal: Pick<OpenSignal, 'checkId' | 'detectedAt' | 'region' | 'resource' | 'owner' | 'accepted' | 'reviewed'>,
  outcomes: Map<string, CheckOutcome>,
  failingInRegion: ReadonlySet<string>,
  at: Date,
): boolean {
  const detectedAt = signal.detectedAt?.getTime();
  if (detectedAt === undefined || detectedAt >= at.getTime()) return false;
  const confirmedBy = eventDetection(signal.checkId)?.confirmedBy ?? [];
  const confirmed =
    confirmedBy.length > 0 && confirmedBy.every((id) => outcomes.has(id) && couldSee(signal, outcomes.get(id)));
  // A `review` check that no longer fails says the launch is gone, not that it was harmless: the event's signal then
  // waits for its review, unless the scan's own finding in its region carries it on.
  const needsReview = confirmedBy.some((id) => checkById(id)?.review === true);
  const carriedOn = confirmedBy.some((id) => failingInRegion.has(`${id}|${signal.region}`));
  if (confirmed && (!needsReview || carriedOn || isReviewed(signal))) return true;
  return at.getTime() - detectedAt >= EVENT_REVIEW_DAYS * DAY_MS;
}

/** A scan that failed (the role could not be assumed) opens its finding and resolves nothing. */
export function signalChanges<S extends OpenSignal>(
  open: readonly S[],
  evaluation: Pick<Evaluation, 'findings' | 'outcomes'>,
  { failed, at }: { failed: boolean; at: Date },
): SignalChanges<S> {
  const openByFingerprint = new Map(open.map((s) => [s.fingerprint, s]));
  const findings = [...new Map(evaluation.findings.map((f) => [f.fingerprint, f])).values()];
  const seen = new Set(findings.map((f) => f.fingerprint));
  const outcomes = new Map(evaluation.outcomes.map((o) => [o.checkId, o]));
  const failingInRegion = new Set(findings.map((f) => `${f.checkId}|${f.region}`));
  return {
    fresh: findings.filter((f) => !openByFingerprint.has(f.fingerprint)),
    stillOpen: open.filter((s) => seen.has(s.fingerprint)),
    resolved: failed
      ? []
      : open.filter((s) =>
          s.checkId === FORWARDING_BLIND_ID
            ? false
            : isEventSignal(s.checkId)
              ? settlesEventSignal(s, outcomes, failingInRegion, at)
              : !seen.has(s.fingerprint) && couldSee(s, outcomes.get(s.checkId)) && !awaitsReview(s, at),
        ),
  };
}

/**
 * What the forwarding watch does at `at` to an account's blind-forwarder signals, given its regions: a watched region
 * (one that sent a heartbeat at least once) whose heartbeat is late opens one, unless its signal is open already; an
 * open one resolves once its region's heartbeat is within the bound again (accepted or not: the blindness is over).
 * A region that never sent a heartbeat is not watched, and a signal whose region has no heartbeat to judge by stays.
 */
export function forwardingBlindChanges<S extends { region: string }>(
  open: readonly S[],
  regions: readonly { region: string; lastHeartbeatAt: Date | null }[],
  at: Date,
): { blind: string[]; resolved: S[] } {
  const stateOf = new Map(regions.map((r) => [r.region, forwardingState(r.lastHeartbeatAt, at)]));
  const openRegions = new Set(open.map((s) => s.region));
  return {
    blind: regions.filter((r) => stateOf.get(r.region) === 'late' && !openRegions.has(r.region)).map((r) => r.region),
    resolved: open.filter((s) => stateOf.get(s.region) === 'receiving'),
  };
}

/** An acceptance counts until it expires; an expired one reads as none. */
export function acceptanceInForce(acceptance: { expiresAt: Date | null } | null, at: Date): boolean {
  return acceptance !== null && (acceptance.expiresAt === null || acceptance.expiresAt > at);
}

/**
 * Open signals as a scan at `at` sees them: accepted while an acceptance is in force; reviewed once accepted at all
 * (an expired acceptance was a review too; one undone or replaced is not listed) or once an alert it was behind was
 * acknowledged.
 */
export function asOpenSignals<
  S extends Omit<OpenSignal, 'accepted' | 'reviewed'> & {
    acceptance: { expiresAt: Date | null } | null;
    alertAcknowledged?: boolean;
  },
>(signals: readonly S[], at: Date): (S & OpenSignal)[] {
  return signals.map((s) => ({
    ...s,
    accepted: acceptanceInForce(s.acceptance, at),
    reviewed: s.acceptance !== null || s.alertAcknowledged === true,
  }));
}

/** The score of the signals open after a scan, one per failing resource: accepted ones do not count. */
export function scoreOf(open: readonly (ScoredFinding & { accepted: boolean })[]): number {
  return computeSrs(open.filter((s) => !s.accepted));
}
