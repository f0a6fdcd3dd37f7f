import type { Inventory } from '../inventory';
import { CATALOG } from './catalog';
import { CONNECTIVITY_CHECK } from './connectivity';
import { type Check, type EvaluationContext, type FailingResource, type Scenario, type Severity, severityRank } from './types';

/** One failing resource of one check, as a scan records it. */
export interface Finding {
  checkId: string;
  scenario: Scenario;
  severity: Severity;
  title: string;
  /** The check's description followed by what is wrong with this resource. */
  description: string;
  resource: string;
  region: string;
  /** `${checkId}|${resource}|${region}`: a signal's identity across scans. */
  fingerprint: string;
}

export interface Evaluation {
  findings: Finding[];
  /** Checks whose inventory part could not be read: their open signals must stay as they are. */
  notEvaluated: { checkId: string; reason: string }[];
  /** Ids of the checks that passed. */
  passed: string[];
}

function toFinding(check: Check, { resource, region = 'global', detail }: FailingResource): Finding {
  return {
    checkId: check.id,
    scenario: check.scenario,
    severity: check.severity,
    title: check.title,
    description: detail ? `${check.description} ${detail}` : check.description,
    resource,
    region,
    fingerprint: `${check.id}|${resource}|${region}`,
  };
}


/** Most severe first, then by check id, resource and region: the same inventory always gives the same list. */
function compareFindings(a: Finding, b: Finding): number {
  return severityRank(a.severity) - severityRank(b.severity)
    || a.checkId.localeCompare(b.checkId)
    || a.resource.localeCompare(b.resource)
    || a.region.localeCompare(b.region);
}

/** Runs the whole catalog on an inventory. Pure: the time comes from the context. */
export function evaluateInventory(inventory: Inventory, ctx: EvaluationContext): Evaluation {
  const findings = new Map<string, Finding>();
  const notEvaluated: Evaluation['notEvaluated'] = [];
  const passed: string[] = [];
  for (const check of CATALOG) {
    const result = check.evaluate(inventory, ctx);
    if (result.status === 'pass') passed.push(check.id);
    else if (result.status === 'not_evaluated') notEvaluated.push({ checkId: check.id, reason: result.reason });
    else {
      // A resource reported twice by one check is one finding.
      for (const resource of result.resources) {
        const finding = toFinding(check, resource);
        if (!findings.has(finding.fingerprint)) findings.set(finding.fingerprint, finding);
      }
    }
  }
  return { findings: [...findings.values()].sort(compareFindings), notEvaluated, passed };
}

/** The finding a scan records, instead of evaluating anything, when the account's role cannot be assumed. */
export function connectivityFinding(reason: string): Finding {
  return toFinding(CONNECTIVITY_CHECK, { resource: 'cross-account-role', detail: `Reason: ${reason}` });
}
