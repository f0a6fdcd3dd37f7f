import { type Severity, SEVERITIES } from '../checks/types';

// The Security Risk Score: 100 for an account with nothing failing, lower as checks fail. Each failing check
// multiplies the score by (1 - its weight), once however many resources fail it, so one misconfiguration copied
// across fifty buckets is one problem, and several different problems compound.

export const SEVERITY_WEIGHTS: Readonly<Record<Severity, number>> = Object.freeze({
  CRITICAL: 0.45,
  HIGH: 0.2,
  MEDIUM: 0.08,
  LOW: 0.02,
});

const isSeverity = (value: string): value is Severity => (SEVERITIES as readonly string[]).includes(value);

/**
 * round(100 x product over failing checks of (1 - w(severity))), an integer from 0 to 100. Severities arrive as
 * stored strings; an unknown one is a data error and throws rather than silently scoring.
 */
export function computeSrs(findings: readonly { checkId: string; severity: string }[]): number {
  const weightByCheck = new Map<string, number>();
  for (const { checkId, severity } of findings) {
    if (!isSeverity(severity)) throw new Error(`Unknown severity "${severity}" for ${checkId}`);
    weightByCheck.set(checkId, Math.max(weightByCheck.get(checkId) ?? 0, SEVERITY_WEIGHTS[severity]));
  }
  let product = 1;
  for (const weight of weightByCheck.values()) product *= 1 - weight;
  return Math.round(100 * product);
}
