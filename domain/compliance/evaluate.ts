import { type CheckOutcome, resourceKey } from '../checks/evaluate';
import type { Check } from '../checks/types';
import type { Unread } from '../scans/inventory';
import type { Control, ControlRefs, ControlStatus, Framework } from './types';

// A framework's controls in one account, from the checks that support each control (their outcomes in the account's
// latest full scan and the targeted rescans since) and its open signals with their accepted risk, those of the event
// detections mapped to the control included (docs/decisions.md, "Compliance").

/** An open signal of the account: which check or event detection, which resource, and whether its risk is accepted now. */
export interface EvidenceSignal {
  signalId: string;
  /** A check's id, or an event detection's (`event.*`). */
  checkId: string;
  resource: string;
  region: string;
  accepted: boolean;
  /** For an event signal breaking fewer than all of its detection's controls: the ones it breaks. */
  controls?: ControlRefs | null;
}

/**
 * Open signals of an account that stand for the same controls, as the database groups them (db/repositories/
 * signals.ts `groupOpenEvidence`): of one check or detection, and alike in what else decides their controls (an event
 * signal's own `controls`; the resource, for a check whose resources each stand for a control; the controls the scan
 * recorded for the resource). The group holds its first few signals and counts the rest, so a control's evidence is
 * bounded however many signals an account holds open.
 */
export interface EvidenceGroup {
  /** The group's first open signals (by region, then resource), never none: the first decides the group's controls. */
  signals: EvidenceSignal[];
  /** How many open signals the group holds, and how many of them are not accepted. */
  open: number;
  unaccepted: number;
}

/** At most this many open signals are listed as a control's evidence; `failingTotal` counts them all. */
export const EVIDENCE_PER_CONTROL = 20;

/** What an event detection evidences (domain/events/catalog.ts): an open signal of it fails these controls. */
export interface EvidencingDetection {
  id: string;
  controls?: ControlRefs;
}

/** A region or resource a check behind the control could not read. */
export interface UnreadPart extends Unread {
  checkId: string;
}

export interface ControlResult {
  control: Control;
  status: ControlStatus;
  /** The checks that evaluate the control (none: the tenant attests it). */
  checkIds: string[];
  /**
   * The evidence: the open signals of those checks and of the event detections mapped to the control, the first
   * EVIDENCE_PER_CONTROL of them.
   */
  failingResources: EvidenceSignal[];
  /** How many open signals are evidence against the control, those not listed included. */
  failingTotal: number;
  /** What the checks behind the control could not read: a control that passed where they read is `partial`. */
  unread: UnreadPart[];
  /** Why a check could not be evaluated, or what the checks could not read (regions, resources); empty otherwise. */
  notes: string[];
}

export type ComplianceSummary = Record<ControlStatus, number>;

export interface ComplianceResult {
  summary: ComplianceSummary;
  controls: ControlResult[];
}

/** Which checks of the catalog support each control of the framework. */
export function checksByControl(framework: Framework, catalog: readonly Check[]): Map<string, Check[]> {
  const byControl = new Map<string, Check[]>(framework.controls.map((c) => [c.id, []]));
  for (const check of catalog) {
    for (const controlId of check.controls?.[framework.id] ?? []) byControl.get(controlId)?.push(check);
  }
  return byControl;
}

/** Which event detections evidence each control of the framework. */
function detectionsByControl(
  framework: Framework,
  detections: readonly EvidencingDetection[],
): Map<string, EvidencingDetection[]> {
  const byControl = new Map<string, EvidencingDetection[]>();
  for (const detection of detections) {
    for (const controlId of detection.controls?.[framework.id] ?? [])
      byControl.set(controlId, [...(byControl.get(controlId) ?? []), detection]);
  }
  return byControl;
}

/**
 * The outcomes that stand for the account now: its latest full scan's, each replaced by that of a later targeted
 * rescan (oldest first) that evaluated the check. A rescan leaves the checks it did not read as they were. Null
 * before the first full scan.
 */
export function currentOutcomes(
  fullScan: readonly CheckOutcome[] | null,
  rescans: readonly (readonly CheckOutcome[])[],
): CheckOutcome[] | null {
  if (!fullScan) return null;
  const byCheck = new Map(fullScan.map((o) => [o.checkId, o]));
  for (const rescan of rescans) {
    for (const outcome of rescan) if (outcome.status !== 'not_evaluated') byCheck.set(outcome.checkId, outcome);
  }
  return [...byCheck.values()];
}

/**
 * Whether an open signal of `check` is evidence against `controlId`: a check whose resources stand for different
 * controls (`controlOfResource`, or the scan's `failingControls`) counts a signal only against its own. A signal the
 * scan did not name (still open in a region it could not read, or opened since) counts against every control of its
 * check.
 */
function findingFails(
  framework: Framework,
  check: Check,
  outcome: CheckOutcome | undefined,
  finding: EvidenceSignal,
  controlId: string,
): boolean {
  if (check.controlOfResource) return check.controlOfResource(finding.resource) === controlId;
  const controls = outcome?.failingControls?.[resourceKey(finding.resource, finding.region)]?.[framework.id];
  return !controls || controls.includes(controlId);
}

/** Whether the check's failing resources can stand for different controls of the framework. */
const splitsControls = (check: Check, outcome: CheckOutcome): boolean =>
  Boolean(check.controlOfResource || outcome.failingControls);

/**
 * Whether a part the check could not read bears on the control: a region always does; a resource that stands for
 * another control of the check (another CIS 5.x alarm) does not.
 */
function bearsOn(check: Check, unread: Unread, controlId: string): boolean {
  if (unread.kind !== 'resource' || !check.controlOfResource) return true;
  const standsFor = check.controlOfResource(unread.scope);
  return standsFor === undefined || standsFor === controlId;
}

/**
 * A control is `failed` when an open signal against it is not accepted: one of its checks' (whatever the outcome the
 * latest scan recorded: a signal opened since by a targeted rescan, or kept open where the scan could not read), one
 * of an event detection mapped to it, or a failure the scan recorded without a signal to accept. Else `not_evaluated`
 * when one of its checks was not evaluated (or never ran: added since the scan, or no scan yet) or could not see the
 * resource standing for it; else `accepted` when its only failures are accepted risk; else `partial` when a check
 * behind it could not read part of what it needs (a region, a resource); else `passed`: every check behind it read
 * everything and passed. A control without checks is `manual`, unless an event signal fails it.
 */
export function evaluateFramework(
  framework: Framework,
  catalog: readonly Check[],
  outcomes: readonly CheckOutcome[] | null,
  groups: readonly EvidenceGroup[],
  detections: readonly EvidencingDetection[],
): ComplianceResult {
  // Every signal of a group stands for the same controls as its first.
  const findings = groups.flatMap((group) => (group.signals[0] ? [{ first: group.signals[0], group }] : []));
  const outcomeOf = new Map((outcomes ?? []).map((o) => [o.checkId, o]));
  const byControl = checksByControl(framework, catalog);
  const eventsByControl = detectionsByControl(framework, detections);
  const controls = framework.controls.map((control): ControlResult => {
    const checks = byControl.get(control.id) ?? [];
    const evidence: EvidenceSignal[] = [];
    let failingTotal = 0;
    const unread: UnreadPart[] = [];
    const notes: string[] = [];
    let failed = false;
    let accepted = false;
    let unevaluated = false;
    const weigh = (found: readonly EvidenceGroup[]) => {
      for (const group of found) {
        evidence.push(...group.signals);
        failingTotal += group.open;
      }
      // A failure whose every open signal is accepted is the tenant's decision, shown as such, never as a pass.
      if (found.some((g) => g.unaccepted > 0)) failed = true;
      else if (found.length > 0) accepted = true;
    };
    for (const check of checks) {
      const outcome = outcomeOf.get(check.id);
      weigh(
        findings
          .filter(
            ({ first }) => first.checkId === check.id && findingFails(framework, check, outcome, first, control.id),
          )
          .map(({ group }) => group),
      );
      if (!outcome || outcome.status === 'not_evaluated') {
        unevaluated = true;
        notes.push(
          `${check.id}: ${outcome?.reason ?? (outcomes ? 'added to Sentinel after the latest scan' : 'the account has not been scanned yet')}`,
        );
        continue;
      }
      const missed = outcome.unread.filter((u) => bearsOn(check, u, control.id));
      if (missed.length > 0) {
        notes.push(`${check.id} could not read ${missed.map((u) => u.scope).join(', ')}`);
        unread.push(...missed.map((u) => ({ checkId: check.id, ...u })));
      }
      // A resource that stands for this control and could not be seen leaves the control unknown, not partial.
      if (missed.some((u) => u.kind === 'resource' && check.controlOfResource?.(u.scope) === control.id))
        unevaluated = true;
      // A failure the scan recorded whose signals are gone (a targeted rescan had not read it) still fails the
      // control, unless the check's failures stand for different controls: then only through this one's signals.
      if (
        outcome.status === 'failed' &&
        !splitsControls(check, outcome) &&
        !findings.some(({ first }) => first.checkId === check.id)
      )
        failed = true;
    }
    for (const detection of eventsByControl.get(control.id) ?? []) {
      weigh(
        findings
          .filter(({ first }) => {
            const named = first.controls?.[framework.id];
            return first.checkId === detection.id && (!named || named.includes(control.id));
          })
          .map(({ group }) => group),
      );
    }
    const status: ControlStatus = failed
      ? 'failed'
      : unevaluated
        ? 'not_evaluated'
        : accepted
          ? 'accepted'
          : checks.length === 0
            ? 'manual'
            : unread.length > 0
              ? 'partial'
              : 'passed';
    return {
      control,
      status,
      checkIds: checks.map((c) => c.id),
      failingResources: evidence.slice(0, EVIDENCE_PER_CONTROL),
      failingTotal,
      unread,
      notes,
    };
  });
  const summary: ComplianceSummary = { passed: 0, partial: 0, failed: 0, accepted: 0, not_evaluated: 0, manual: 0 };
  for (const c of controls) summary[c.status] += 1;
  return { summary, controls };
}
