import { type CheckOutcome, resourceKey } from '../checks/evaluate';
import type { Check } from '../checks/types';
import type { Control, ControlStatus, Framework } from './types';

// A framework's controls in one account, from the checks that support each control: their outcomes in the
// account's latest scan, and its open findings with their accepted risk (docs/decisions.md, "Compliance").

/** An open finding of the account: which check, which resource, and whether its risk is accepted now. */
export interface OpenFinding {
  signalId: string;
  checkId: string;
  resource: string;
  region: string;
  accepted: boolean;
}

export interface ControlResult {
  control: Control;
  status: ControlStatus;
  /** The checks that evaluate the control (none: the tenant attests it). */
  checkIds: string[];
  /** The evidence: each open finding of those checks. */
  failingResources: OpenFinding[];
  /** Why it could not be evaluated, or what its checks could not read (regions, resources); empty otherwise. */
  notes: string[];
}

export type ComplianceSummary = Record<ControlStatus, number>;

export interface ComplianceResult {
  summary: ComplianceSummary;
  controls: ControlResult[];
}

/** Which checks of the catalogue support each control of the framework. */
export function checksByControl(framework: Framework, catalog: readonly Check[]): Map<string, Check[]> {
  const byControl = new Map<string, Check[]>(framework.controls.map((c) => [c.id, []]));
  for (const check of catalog) {
    for (const controlId of check.controls?.[framework.id] ?? []) byControl.get(controlId)?.push(check);
  }
  return byControl;
}

/**
 * Whether an open finding of `check` is evidence against `controlId`: a check whose resources stand for different
 * controls (`controlOfResource`, or the scan's `failingControls`) counts a finding only against its own. A finding
 * the scan did not name (still open in a region it could not read) counts against every control of its check.
 */
function findingFails(
  framework: Framework,
  check: Check,
  outcome: CheckOutcome,
  finding: OpenFinding,
  controlId: string,
): boolean {
  if (check.controlOfResource) return check.controlOfResource(finding.resource) === controlId;
  const controls = outcome.failingControls?.[resourceKey(finding.resource, finding.region)]?.[framework.id];
  return !controls || controls.includes(controlId);
}

/** Whether the check's failing resources can stand for different controls of the framework. */
const splitsControls = (check: Check, outcome: CheckOutcome): boolean =>
  Boolean(check.controlOfResource || outcome.failingControls);

/**
 * A control with checks is `failed` when one of them failed on a finding whose risk is not accepted; else
 * `not_evaluated` when one of them was not evaluated (or never ran: added since the scan, or no scan yet); else
 * `accepted` when they failed only on accepted findings; else `passed`. A control without checks is `manual`.
 */
export function evaluateFramework(
  framework: Framework,
  catalog: readonly Check[],
  outcomes: readonly CheckOutcome[] | null,
  findings: readonly OpenFinding[],
): ComplianceResult {
  const outcomeOf = new Map((outcomes ?? []).map((o) => [o.checkId, o]));
  const byControl = checksByControl(framework, catalog);
  const controls = framework.controls.map((control): ControlResult => {
    const checks = byControl.get(control.id) ?? [];
    const checkIds = checks.map((c) => c.id);
    if (checks.length === 0) return { control, status: 'manual', checkIds, failingResources: [], notes: [] };
    const evidence: OpenFinding[] = [];
    const notes: string[] = [];
    let failed = false;
    let accepted = false;
    let unevaluated = false;
    for (const check of checks) {
      const outcome = outcomeOf.get(check.id);
      if (!outcome || outcome.status === 'not_evaluated') {
        unevaluated = true;
        notes.push(
          `${check.id}: ${outcome?.reason ?? (outcomes ? 'added to Sentinel after the latest scan' : 'the account has not been scanned yet')}`,
        );
        continue;
      }
      if (outcome.unread.length > 0)
        notes.push(`${check.id} could not read ${outcome.unread.map((u) => u.scope).join(', ')}`);
      // A resource that stands for this control and could not be seen leaves the control unknown, not passed.
      if (
        check.controlOfResource &&
        outcome.unread.some((u) => u.kind === 'resource' && check.controlOfResource?.(u.scope) === control.id)
      ) {
        unevaluated = true;
      }
      const own = findings.filter(
        (f) => f.checkId === check.id && findingFails(framework, check, outcome, f, control.id),
      );
      evidence.push(...own);
      // A check whose resources stand for different controls fails a control only through that control's findings.
      if (outcome.status !== 'failed' || (splitsControls(check, outcome) && own.length === 0)) continue;
      // A failure whose every open finding is accepted is the tenant's decision, shown as such, never as a pass.
      if (own.length > 0 && own.every((f) => f.accepted)) accepted = true;
      else failed = true;
    }
    const status: ControlStatus = failed ? 'failed' : unevaluated ? 'not_evaluated' : accepted ? 'accepted' : 'passed';
    return { control, status, checkIds, failingResources: evidence, notes };
  });
  const summary: ComplianceSummary = { passed: 0, failed: 0, accepted: 0, not_evaluated: 0, manual: 0 };
  for (const c of controls) summary[c.status] += 1;
  return { summary, controls };
}
