import type { Inventory } from '../inventory';

export const SCENARIOS = ['iam', 'exposure', 'detection', 'threat', 'billing', 'suspension', 'connectivity'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** 0 for CRITICAL up to 3 for LOW: sorting by it puts the most severe first. */
export const severityRank = (severity: Severity): number => SEVERITIES.indexOf(severity);

/** One failing resource of a check. Fingerprint = check id + resource + region. */
export interface FailingResource {
  resource: string;
  region?: string; // 'global' when omitted
  /** What exactly is wrong with this resource, for the signal's description. */
  detail?: string;
}

export type CheckResult =
  | { status: 'pass' }
  | { status: 'fail'; resources: FailingResource[] }
  | { status: 'not_evaluated'; reason: string };

export interface EvaluationContext {
  /** The scan's time (ISO 8601): ages ("older than 90 days") are measured from it, never from a clock. */
  now: string;
}

export interface Check {
  id: string; // e.g. 'iam.root_mfa_disabled'
  scenario: Scenario;
  severity: Severity;
  title: string;
  description: string;
  remediation: string;
  docsUrl: string;
  evaluate: (inventory: Inventory, context: EvaluationContext) => CheckResult;
}
