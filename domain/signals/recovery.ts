import { checkById } from '../checks/catalog';
import { eventDetection } from '../events/catalog';
import { type CheckDescription, type Scenario, type Severity, severityRank } from '../checks/types';

// The recovery checklist: what to do, in order, about an account's open findings. One step per failing check or
// event detection (its remediation covers every affected resource), the most urgent first. A healthy account gets a short
// hardening baseline instead of an empty list.

export interface RecoveryStep {
  step: number;
  title: string;
  description: string;
  docs_url: string;
}

/** Among equally severe problems: regain access first, stop an attacker, then close the doors, then the rest. */
const SCENARIO_PRIORITY: readonly Scenario[] = [
  'connectivity',
  'threat',
  'attack_path',
  'iam',
  'exposure',
  'suspension',
  'detection',
  'billing',
];

/** Baseline steps reuse catalog remediation so the advice stays in one place. Resolved at load: a renamed check fails fast. */
const BASELINE: readonly Omit<RecoveryStep, 'step'>[] = (
  [
    ['iam.root_mfa_disabled', 'Keep MFA on the root user and use it only when required'],
    ['detection.guardduty_disabled', 'Run GuardDuty in every region you use'],
    ['billing.no_budget', 'Keep a budget with spend alerts'],
    ['suspension.security_contact_missing', 'Keep the alternate contacts current'],
    ['iam.access_key_not_rotated', 'Review and rotate IAM access keys'],
  ] as const
).map(([id, title]) => {
  const check = checkById(id);
  if (!check) throw new Error(`Baseline step refers to unknown check ${id}`);
  return { title, description: check.remediation, docs_url: check.docsUrl };
});

interface FailingCheck {
  check: CheckDescription;
  severity: Severity;
  resources: number;
}

function compareUrgency(a: FailingCheck, b: FailingCheck): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    SCENARIO_PRIORITY.indexOf(a.check.scenario) - SCENARIO_PRIORITY.indexOf(b.check.scenario) ||
    a.check.id.localeCompare(b.check.id)
  );
}

export function recoveryChecklist(openFindings: readonly { checkId: string; severity: Severity }[]): RecoveryStep[] {
  const failing = new Map<string, FailingCheck>();
  for (const { checkId, severity } of openFindings) {
    // A signal of a check since removed from the catalog has no remediation left to show.
    const check: CheckDescription | undefined = checkById(checkId) ?? eventDetection(checkId);
    if (!check) continue;
    const entry = failing.get(checkId);
    if (!entry) failing.set(checkId, { check, severity, resources: 1 });
    else {
      entry.resources += 1;
      if (severityRank(severity) < severityRank(entry.severity)) entry.severity = severity;
    }
  }
  const steps =
    failing.size === 0
      ? BASELINE
      : [...failing.values()].sort(compareUrgency).map(({ check, resources }) => ({
          title: check.title,
          description: `${check.remediation} Affected resources: ${resources}.`,
          docs_url: check.docsUrl,
        }));
  return steps.map((step, index) => ({ step: index + 1, ...step }));
}
