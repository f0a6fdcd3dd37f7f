import { checkById } from '../../domain/checks/catalog';
import type { Severity } from '../../domain/checks/types';
import { eventDetection } from '../../domain/events/catalog';
import { recoveryChecklist } from '../../domain/signals/recovery';

const open = (checkId: string, count = 1) => {
  const severity: Severity = checkById(checkId)!.severity;
  return Array.from({ length: count }, () => ({ checkId, severity }));
};

describe('recoveryChecklist', () => {
  it('gives one step per failing check, numbered from 1, with the catalog remediation and docs', () => {
    const steps = recoveryChecklist([...open('exposure.s3_bucket_public', 3), ...open('iam.root_mfa_disabled')]);
    expect(steps.map((s) => s.step)).toEqual([1, 2]);
    const bucket = checkById('exposure.s3_bucket_public')!;
    expect(steps[1]).toEqual({
      step: 2,
      title: bucket.title,
      description: `${bucket.remediation} Affected resources: 3.`,
      docs_url: bucket.docsUrl,
    });
    expect(steps[0]!.description).toMatch(/Affected resources: 1\.$/);
  });

  it('puts the most severe first, then follows the scenario priority', () => {
    const steps = recoveryChecklist([
      ...open('billing.no_budget'), // MEDIUM billing
      ...open('detection.guardduty_disabled'), // HIGH detection
      ...open('billing.budget_exceeded'), // CRITICAL billing
      ...open('suspension.operations_contact_missing'), // LOW suspension
      ...open('exposure.sg_ssh_open', 2), // HIGH exposure
      ...open('threat.guardduty_high_severity_finding'), // CRITICAL threat
      ...open('iam.user_admin_access'), // HIGH iam
      ...open('connectivity.role_unassumable'), // CRITICAL connectivity
      ...open('suspension.security_contact_missing'), // HIGH suspension
      ...open('billing.cost_anomaly'), // HIGH billing
    ]);
    expect(steps.map((s) => s.title)).toEqual(
      [
        'connectivity.role_unassumable',
        'threat.guardduty_high_severity_finding',
        'billing.budget_exceeded',
        'iam.user_admin_access',
        'exposure.sg_ssh_open',
        'suspension.security_contact_missing',
        'detection.guardduty_disabled',
        'billing.cost_anomaly',
        'billing.no_budget',
        'suspension.operations_contact_missing',
      ].map((id) => checkById(id)!.title),
    );
  });

  it('orders by the severity the findings carry', () => {
    const steps = recoveryChecklist([
      { checkId: 'billing.no_budget', severity: 'LOW' },
      { checkId: 'iam.password_policy_weak', severity: 'HIGH' },
    ]);
    expect(steps.map((s) => s.title)).toEqual([
      checkById('iam.password_policy_weak')!.title,
      checkById('billing.no_budget')!.title,
    ]);
  });

  it("gives a step to what the account's events found, with the detection's remediation, ahead of hygiene", () => {
    const signIn = eventDetection('event.root_console_sign_in')!;
    const steps = recoveryChecklist([...open('billing.no_budget'), { checkId: signIn.id, severity: signIn.severity }]);
    expect(steps[0]).toEqual({
      step: 1,
      title: signIn.title,
      description: `${signIn.remediation} Affected resources: 1.`,
      docs_url: signIn.docsUrl,
    });
    expect(steps).toHaveLength(2);
  });

  it('skips findings of checks no longer in the catalog', () => {
    expect(
      recoveryChecklist([{ checkId: 'iam.retired_check', severity: 'HIGH' }, ...open('billing.no_budget')]),
    ).toHaveLength(1);
  });

  it('gives a healthy account a short hardening baseline built from the catalog', () => {
    const steps = recoveryChecklist([]);
    expect(steps.length).toBeGreaterThanOrEqual(4);
    expect(steps.length).toBeLessThanOrEqual(6);
    expect(steps.map((s) => s.step)).toEqual(steps.map((_, i) => i + 1));
    expect(steps[0]).toEqual({
      step: 1,
      title: expect.stringContaining('root'),
      description: checkById('iam.root_mfa_disabled')!.remediation,
      docs_url: checkById('iam.root_mfa_disabled')!.docsUrl,
    });
    for (const step of steps) expect(step.docs_url).toMatch(/^https:\/\/docs\.aws\.amazon\.com\//);
  });
});
