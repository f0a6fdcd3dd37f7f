import type { ControlRefs } from '../compliance/types';
import { type Inventory, OUTSIDE_TARGETED_SCAN, type Unread } from '../scans/inventory';
import { scoreCompleteness } from '../scoring/completeness';
import { boundSignalText } from '../signals/bounds';
import { CATALOG } from './catalog';
import { CONNECTIVITY_CHECK, CONNECTIVITY_CHECK_ID, COVERAGE_LOST_CHECK, COVERAGE_LOST_CHECK_ID } from './connectivity';
import {
  type Check,
  type CheckResult,
  type EvaluationContext,
  type FailingResource,
  type Scenario,
  type Severity,
  severityRank,
} from './types';

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
  /** The resource this one belongs to (an access key's IAM user), or null. */
  owner: string | null;
  /** `${checkId}|${resource}|${region}`: a signal's identity across scans. */
  fingerprint: string;
}

export const CHECK_STATUSES = ['passed', 'failed', 'not_evaluated'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** What one check concluded in one scan: the coverage a tenant sees per check. */
export interface CheckOutcome {
  checkId: string;
  status: CheckStatus;
  /** Distinct failing resources (0 unless failed). */
  failingResources: number;
  /** Why the check was not evaluated, or what of it could not be read; null when everything was read. */
  reason: string | null;
  /** The regions and resources the check could not see: its open findings there stay open. */
  unread: Unread[];
  /**
   * The controls each failing resource (`resource|region`) fails, for the resources that fail fewer than all of
   * the check's controls; absent when none does (and in scans recorded before it existed).
   */
  failingControls?: Record<string, ControlRefs>;
  /** Not evaluated because the account has nothing to read (its service is off everywhere; see `Unread.absent`). */
  absent?: true;
}

/** The key of a failing resource in `CheckOutcome.failingControls`. */
export const resourceKey = (resource: string, region: string): string => `${resource}|${region}`;

export interface Coverage {
  evaluated: number;
  total: number;
}

export interface Evaluation {
  findings: Finding[];
  /** One per check of the catalog, in catalog order. */
  outcomes: CheckOutcome[];
  coverage: Coverage;
  /** At least half of the checks were evaluated: only then does the scan record a score (docs/decisions.md, "Coverage"). */
  scored: boolean;
}

/** A failing resource as a finding, its text within the bounds signals keep (domain/signals/bounds.ts). */
export function toFinding(check: Check, { resource, region = 'global', detail, owner }: FailingResource): Finding {
  const text = boundSignalText({
    title: check.title,
    description: detail ? `${check.description} ${detail}` : check.description,
    resource,
    owner: owner ?? null,
  });
  return {
    checkId: check.id,
    scenario: check.scenario,
    severity: check.severity,
    ...text,
    region,
    fingerprint: `${check.id}|${text.resource}|${region}`,
  };
}

/** Most severe first, then by check id, resource and region: the same inventory always gives the same list. */
function compareFindings(a: Finding, b: Finding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    a.checkId.localeCompare(b.checkId) ||
    a.resource.localeCompare(b.resource) ||
    a.region.localeCompare(b.region)
  );
}

const SCOPES_NAMED = 5;

function listScopes(scopes: string[]): string {
  if (scopes.length <= SCOPES_NAMED) return scopes.join(', ');
  return `${scopes.slice(0, SCOPES_NAMED).join(', ')} and ${scopes.length - SCOPES_NAMED} more`;
}

/** "eu-west-3, ap-south-1: AWS denied ...": the unread scopes grouped by reason, for a person to read. */
export function describeUnread(unread: readonly Unread[]): string {
  const byReason = new Map<string, string[]>();
  for (const { scope, reason } of unread) byReason.set(reason, [...(byReason.get(reason) ?? []), scope]);
  return [...byReason].map(([reason, scopes]) => `${listScopes(scopes)}: ${reason}`).join(' ');
}

function distinctUnread(unread: readonly Unread[]): Unread[] {
  const seen = new Map<string, Unread>();
  for (const u of unread) seen.set(`${u.kind}|${u.scope}|${u.reason}`, u);
  return [...seen.values()];
}

function outcomeOf(checkId: string, result: CheckResult, failingResources: number): CheckOutcome {
  const unread = distinctUnread(result.unread ?? []);
  if (result.status === 'not_evaluated')
    return {
      checkId,
      status: 'not_evaluated',
      failingResources: 0,
      reason: result.reason,
      unread,
      ...(result.absent ? { absent: true as const } : {}),
    };
  return {
    checkId,
    status: result.status === 'pass' ? 'passed' : 'failed',
    failingResources,
    reason: unread.length > 0 ? `Not read: ${describeUnread(unread)}` : null,
    unread,
  };
}

/**
 * Whether a score is complete: every check reading a core source evaluated, on every region and resource
 * (domain/scoring/completeness.ts; optional sources such as AWS Health and Cost Explorer do not count).
 */
export function isScoreComplete(outcomes: readonly CheckOutcome[]): boolean {
  return scoreCompleteness(outcomes).complete;
}

/**
 * Runs the whole catalog on an inventory. Pure: the time comes from the context. The role was assumed (there is
 * an inventory), so its check passes; whether too little was read to score is decided from the other outcomes.
 */
export function evaluateInventory(inventory: Inventory, ctx: EvaluationContext): Evaluation {
  const findings = new Map<string, Finding>();
  const results = new Map<string, CheckOutcome>();
  for (const check of CATALOG) {
    if (check.id === COVERAGE_LOST_CHECK_ID) continue;
    const result = check.evaluate(inventory, ctx);
    let failingResources = 0;
    const failingControls: Record<string, ControlRefs> = {};
    if (result.status === 'fail') {
      // A resource reported twice by one check is one finding.
      for (const resource of result.resources) {
        const finding = toFinding(check, resource);
        if (!findings.has(finding.fingerprint)) {
          findings.set(finding.fingerprint, finding);
          failingResources += 1;
        }
        if (resource.controls) failingControls[resourceKey(finding.resource, finding.region)] = resource.controls;
      }
    }
    const outcome = outcomeOf(check.id, result, failingResources);
    results.set(check.id, Object.keys(failingControls).length > 0 ? { ...outcome, failingControls } : outcome);
  }

  const total = CATALOG.length;
  const evaluated = [...results.values()].filter((o) => o.status !== 'not_evaluated').length + 1; // + this coverage check
  const scored = evaluated * 2 >= total;
  if (!scored) {
    const notEvaluated = [...results.values()].filter((o) => o.status === 'not_evaluated');
    const finding = toFinding(COVERAGE_LOST_CHECK, {
      resource: 'scan-coverage',
      detail:
        `Only ${evaluated} of ${total} checks could be evaluated. ` +
        `Not evaluated: ${listScopes([...new Set(notEvaluated.map((o) => o.reason ?? ''))])}`,
    });
    findings.set(finding.fingerprint, finding);
  }
  results.set(
    COVERAGE_LOST_CHECK_ID,
    outcomeOf(COVERAGE_LOST_CHECK_ID, scored ? { status: 'pass' } : { status: 'fail', resources: [] }, scored ? 0 : 1),
  );

  return {
    findings: [...findings.values()].sort(compareFindings),
    outcomes: CATALOG.map((check) => results.get(check.id) as CheckOutcome),
    coverage: { evaluated, total },
    scored,
  };
}

/**
 * A targeted rescan's evaluation: the inventory holds only the parts an event touched, the others are
 * `OUTSIDE_TARGETED_SCAN` (domain/scans/inventory.ts `onlyParts`). Checks on those parts are not evaluated, so their signals
 * stay open, and coverage counts only the checks the rescan was for. It is always scored: the score is the account's
 * open signals, which the rescan leaves whole where it did not look.
 */
export function evaluateTargeted(inventory: Inventory, ctx: EvaluationContext): Evaluation {
  const full = evaluateInventory(inventory, ctx);
  const outside = (o: CheckOutcome) => o.reason === OUTSIDE_TARGETED_SCAN || o.checkId === COVERAGE_LOST_CHECK_ID;
  const inScope = full.outcomes.filter((o) => !outside(o));
  return {
    findings: full.findings.filter((f) => f.checkId !== COVERAGE_LOST_CHECK_ID),
    outcomes: full.outcomes.map(
      (o): CheckOutcome =>
        o.checkId === COVERAGE_LOST_CHECK_ID
          ? {
              checkId: o.checkId,
              status: 'not_evaluated',
              failingResources: 0,
              reason: OUTSIDE_TARGETED_SCAN,
              unread: [],
            }
          : o,
    ),
    coverage: { evaluated: inScope.filter((o) => o.status !== 'not_evaluated').length, total: inScope.length },
    scored: true,
  };
}

const ROLE_UNAVAILABLE = "Not read: Sentinel could not assume the account's role.";

/**
 * What a scan records, instead of evaluating anything, when the account's role cannot be assumed: the
 * connectivity finding, and every other check not evaluated.
 */
export function roleUnavailableEvaluation(reason: string): Evaluation {
  const finding = toFinding(CONNECTIVITY_CHECK, { resource: 'cross-account-role', detail: `Reason: ${reason}` });
  return {
    findings: [finding],
    outcomes: CATALOG.map(
      (check): CheckOutcome =>
        check.id === CONNECTIVITY_CHECK_ID
          ? { checkId: check.id, status: 'failed', failingResources: 1, reason: null, unread: [] }
          : { checkId: check.id, status: 'not_evaluated', failingResources: 0, reason: ROLE_UNAVAILABLE, unread: [] },
    ),
    coverage: { evaluated: 1, total: CATALOG.length },
    scored: true,
  };
}
