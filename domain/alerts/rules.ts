import type { Scenario } from '../checks/types';
import { eventDetection } from '../events/catalog';

// When an alert rule fires for an account, decided after every scored scan (docs/decisions.md, "Alert rules
// and alerts"):
// - threshold: the SRS crosses below min_srs. Edge, not level: the account's first scored scan below it, the
//   first scan after the rule was created or changed, or a scan below it after one at or above it.
// - scenario: the scan opened a finding of a listed scenario (an empty list means every scenario).
// While the SRS stays below, only new findings (the second trigger) fire again. An acknowledged alert silences
// the rule for the account until a scan sees open findings that differ from the ones it fired on (a finding
// opened or resolved; resolving and coming back counts). At most one alert per rule, account and scan.
// A scan's finding that confirms an event's signal the rule already alerted on is that alert's, not a new one
// (carryEventAlerts).

/** What alert rules are evaluated against: a finished scan, or a batch of the account's events that opened signals. */
export interface AlertSource {
  kind: 'scan' | 'events';
  /** The scan id, or the event batch id. */
  id: string;
}

export interface RuleToEvaluate {
  version: number;
  minSrs: number;
  /** Empty: every scenario. */
  scenarios: readonly string[];
}

export interface RuleMemory {
  ruleVersion: number;
  belowThreshold: boolean;
  /**
   * New findings the open alert fired on. The condition clears when none of them is open and the SRS is back
   * at or above the threshold (a threshold alert's condition is the score itself).
   */
  alertedFingerprints: readonly string[];
  /** A paging incident is open for this rule and account (it is resolved when the condition clears). */
  incidentOpen: boolean;
  /** Some scan since the rule's last alert saw open findings other than the alert's: its acknowledgement no longer silences. */
  findingsChangedSinceAlert: boolean;
}

export interface ScanFinding {
  fingerprint: string;
  scenario: Scenario;
}

export interface ScanFacts {
  srs: number;
  /** Every finding open after the scan. */
  open: readonly ScanFinding[];
  /** The findings this scan opened (a subset of `open`). */
  opened: readonly ScanFinding[];
  /** Identifies the set of open findings (an acknowledged alert stays quiet while it is unchanged). */
  findingsDigest: string;
}

export interface LastAlert {
  acknowledged: boolean;
  findingsDigest: string;
}

export interface Firing {
  /** Scenarios of the findings behind the alert: the new in-scope ones, or on a crossing every open one. */
  scenariosTriggered: Scenario[];
}

export interface RuleDecision {
  fire: Firing | null;
  /** The condition behind an open paging incident has cleared: resolve it. */
  resolve: boolean;
  memory: RuleMemory;
}

export function evaluateRule(
  rule: RuleToEvaluate,
  memory: RuleMemory | undefined,
  facts: ScanFacts,
  lastAlert: LastAlert | undefined,
): RuleDecision {
  const below = facts.srs < rule.minSrs;
  const crossed = below && (!memory || memory.ruleVersion !== rule.version || !memory.belowThreshold);
  const inScope = (f: ScanFinding) => rule.scenarios.length === 0 || rule.scenarios.includes(f.scenario);
  const newInScope = facts.opened.filter(inScope);
  const wouldFire = crossed || newInScope.length > 0;
  const findingsChanged =
    Boolean(memory?.findingsChangedSinceAlert) ||
    (lastAlert !== undefined && lastAlert.findingsDigest !== facts.findingsDigest);
  const silencedByAck = Boolean(lastAlert?.acknowledged) && !findingsChanged;

  const openNow = new Set(facts.open.map((f) => f.fingerprint));
  const stillAlerted = (memory?.alertedFingerprints ?? []).filter((fp) => openNow.has(fp));

  if (wouldFire && !silencedByAck) {
    // `opened` is part of `open`: on a crossing every open finding is behind the alert.
    const behind = crossed ? facts.open : newInScope;
    return {
      fire: { scenariosTriggered: [...new Set(behind.map((f) => f.scenario))].sort() },
      resolve: false,
      memory: {
        ruleVersion: rule.version,
        belowThreshold: below,
        alertedFingerprints: [...new Set([...stillAlerted, ...newInScope.map((f) => f.fingerprint)])].sort(),
        incidentOpen: true,
        findingsChangedSinceAlert: false,
      },
    };
  }

  const cleared = !below && stillAlerted.length === 0;
  const resolve = Boolean(memory?.incidentOpen) && cleared;
  return {
    fire: null,
    resolve,
    memory: {
      ruleVersion: rule.version,
      belowThreshold: below,
      alertedFingerprints: stillAlerted,
      incidentOpen: Boolean(memory?.incidentOpen) && !cleared,
      findingsChangedSinceAlert: findingsChanged,
    },
  };
}

/** A signal as confirmations match them. */
export interface SignalIdentity {
  fingerprint: string;
  checkId: string;
  resource: string;
}

/**
 * The findings a scan opened that confirm what an event's signal reported, by that signal's fingerprint: the event's
 * detection names the finding's check among those that see the state it changed (`confirmedBy`), on the same resource.
 */
export function eventConfirmations(
  eventSignals: readonly SignalIdentity[],
  opened: readonly SignalIdentity[],
): Map<string, string[]> {
  const confirmations = new Map<string, string[]>();
  for (const event of eventSignals) {
    const confirmedBy = eventDetection(event.checkId)?.confirmedBy ?? [];
    const confirming = opened
      .filter((f) => f.resource === event.resource && confirmedBy.includes(f.checkId))
      .map((f) => f.fingerprint);
    if (confirming.length > 0) confirmations.set(event.fingerprint, confirming);
  }
  return confirmations;
}

/**
 * A rule that alerted on an event's signal has told the tenant what the scan's confirming findings show: for that
 * rule they are the alert's findings from now on (behind its incident while they stay open), not new ones to fire on.
 * A rule that did not alert on the event (created since, or out of its scope then) sees them as new.
 */
export function carryEventAlerts(
  memory: RuleMemory | undefined,
  facts: ScanFacts,
  confirmations: ReadonlyMap<string, readonly string[]>,
): { memory: RuleMemory | undefined; facts: ScanFacts } {
  const carried = new Set(memory?.alertedFingerprints.flatMap((fp) => confirmations.get(fp) ?? []));
  if (!memory || carried.size === 0) return { memory, facts };
  return {
    memory: { ...memory, alertedFingerprints: [...new Set([...memory.alertedFingerprints, ...carried])].sort() },
    facts: { ...facts, opened: facts.opened.filter((f) => !carried.has(f.fingerprint)) },
  };
}
