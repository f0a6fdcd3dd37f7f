import { type Severity, SEVERITIES } from '../checks/types';
import { isEventSignal } from '../events/catalog';
import { SRS_BAND_FLOORS } from './srs-bands';

// The Security Risk Score (docs/decisions.md, "The score's model"): 100 for an account with nothing failing, lower
// as checks fail. Each failing check multiplies the score by (1 - its weight), so several different problems
// compound and passing checks never dilute a failure. Three rules on top of that product:
// - extent: a check failing on more resources weighs more, boundedly: (1 - w) is raised to 1 + log10(n) / 2, at most
//   2 (reached at 100 resources), so forty public buckets score below one, and no number of resources makes a check
//   weigh as much as one check of the next severity up;
// - an open active compromise (a CRITICAL signal of the threat scenario, or a CRITICAL event detection) caps the score
//   in the critical band;
// - an open HIGH threat (the threat scenario, or an event detection, at HIGH) caps it below the good band.

export const SEVERITY_WEIGHTS: Readonly<Record<Severity, number>> = Object.freeze({
  CRITICAL: 0.45,
  HIGH: 0.2,
  MEDIUM: 0.08,
  LOW: 0.02,
});

/** How much a check's failing resources add to its weight: its factor (1 - w) is raised to `resourceExtent(n)`. */
export const RESOURCE_EXTENT = Object.freeze({
  /** Added to the exponent per tenfold of failing resources. */
  perTenfold: 0.5,
  /** The exponent's bound: a check counts at most as two failing checks of its severity. */
  max: 2,
});

/** 1 for one failing resource, 1 + log10(n) / 2 for more, at most 2 (100 resources and more). */
export function resourceExtent(failingResources: number): number {
  if (failingResources <= 1) return 1;
  return Math.min(RESOURCE_EXTENT.max, 1 + RESOURCE_EXTENT.perTenfold * Math.log10(failingResources));
}

export const SCORE_CAPS = ['active_compromise', 'high_threat'] as const;
export type ScoreCap = (typeof SCORE_CAPS)[number];

/** The highest score each cap allows: the top of the critical band, and the top of the fair band. */
export const SCORE_CAP_VALUES: Readonly<Record<ScoreCap, number>> = Object.freeze({
  active_compromise: SRS_BAND_FLOORS.poor - 1,
  high_threat: SRS_BAND_FLOORS.good - 1,
});

/** A failing resource as the score counts it: one open signal whose risk is not accepted. */
export interface ScoredFinding {
  checkId: string;
  /** A stored string: an unknown one is a data error and throws rather than silently scoring. */
  severity: string;
  scenario: string;
}

const isSeverity = (value: string): value is Severity => (SEVERITIES as readonly string[]).includes(value);

/** A threat in progress rather than a weakness: a signal of the threat scenario, or any event detection's. */
const isThreat = (f: ScoredFinding): boolean => f.scenario === 'threat' || isEventSignal(f.checkId);

/** The cap a finding puts on the score, if any. */
export function capOf(finding: ScoredFinding): ScoreCap | null {
  if (!isThreat(finding)) return null;
  if (finding.severity === 'CRITICAL') return 'active_compromise';
  if (finding.severity === 'HIGH') return 'high_threat';
  return null;
}

export interface ScoreBreakdown {
  /** The score: the product, capped. */
  srs: number;
  /** round(100 x product over failing checks of (1 - w)^extent), before any cap. */
  product: number;
  /** The lowest cap an open finding puts on the score, or null when none does. */
  cap: ScoreCap | null;
}

/** The score and how it came about. `findings` holds one entry per failing resource. */
export function scoreBreakdown(findings: readonly ScoredFinding[]): ScoreBreakdown {
  const byCheck = new Map<string, { weight: number; resources: number }>();
  let cap: ScoreCap | null = null;
  for (const finding of findings) {
    const { checkId, severity } = finding;
    if (!isSeverity(severity)) throw new Error(`Unknown severity "${severity}" for ${checkId}`);
    const check = byCheck.get(checkId) ?? { weight: 0, resources: 0 };
    byCheck.set(checkId, {
      weight: Math.max(check.weight, SEVERITY_WEIGHTS[severity]),
      resources: check.resources + 1,
    });
    const capped = capOf(finding);
    if (capped && (cap === null || SCORE_CAP_VALUES[capped] < SCORE_CAP_VALUES[cap])) cap = capped;
  }
  let product = 1;
  for (const { weight, resources } of byCheck.values()) product *= (1 - weight) ** resourceExtent(resources);
  const uncapped = Math.round(100 * product);
  return { srs: cap === null ? uncapped : Math.min(uncapped, SCORE_CAP_VALUES[cap]), product: uncapped, cap };
}

/** The Security Risk Score of these failing resources, an integer from 0 to 100 (see the top of this file). */
export function computeSrs(findings: readonly ScoredFinding[]): number {
  return scoreBreakdown(findings).srs;
}
