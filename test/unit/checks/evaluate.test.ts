import { CATALOG, checkById } from '../../../domain/checks/catalog';
import { CONNECTIVITY_CHECK_ID, COVERAGE_LOST_CHECK_ID } from '../../../domain/checks/connectivity';
import { evaluateInventory, isScoreComplete, roleUnavailableEvaluation } from '../../../domain/checks/evaluate';
import { SEVERITIES } from '../../../domain/checks/types';
import { type Inventory, PART_NAMES } from '../../../domain/scans/inventory';
import {
  ACCOUNT,
  cleanInventory,
  daysAgo,
  part,
  reportRow,
  setKeyCreated,
  withoutPart,
  withUnread,
} from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';
const ctx = { now: NOW };

/** Several checks failing on several resources, in several severities. */
function troubled(): Inventory {
  const inventory = cleanInventory(NOW);
  part(inventory.iamSummary).rootMfaEnabled = false;
  reportRow(inventory, 'alice').mfaActive = false;
  setKeyCreated(inventory, 'AKIAALICE0000000001', daysAgo(NOW, 200));
  setKeyCreated(inventory, 'AKIACIDEPLOY00000001', daysAgo(NOW, 150));
  part(inventory.publicSnapshots).snapshots.push(
    { id: 'snap-b', region: 'us-east-1' },
    { id: 'snap-a', region: 'eu-west-1' },
  );
  part(inventory.alternateContacts).operations = false;
  return inventory;
}

describe('evaluateInventory', () => {
  it('passes every check on a clean account, with full coverage and a score', () => {
    const evaluation = evaluateInventory(cleanInventory(NOW), ctx);
    expect(evaluation).toEqual({
      findings: [],
      outcomes: CATALOG.map((check) => ({
        checkId: check.id,
        status: 'passed',
        failingResources: 0,
        reason: null,
        unread: [],
      })),
      coverage: { evaluated: CATALOG.length, total: CATALOG.length },
      scored: true,
    });
    expect(isScoreComplete(evaluation.outcomes)).toBe(true);
  });

  it('builds findings from the check and the failing resource', () => {
    const { findings } = evaluateInventory(troubled(), ctx);
    const check = checkById('iam.console_user_without_mfa')!;
    expect(findings.find((f) => f.checkId === check.id)).toEqual({
      checkId: check.id,
      scenario: 'iam',
      severity: 'HIGH',
      title: check.title,
      description: `${check.description} IAM user alice has a console password and no MFA device.`,
      resource: `arn:aws:iam::${ACCOUNT}:user/alice`,
      region: 'global',
      owner: null,
      fingerprint: `iam.console_user_without_mfa|arn:aws:iam::${ACCOUNT}:user/alice|global`,
    });
    expect(findings.find((f) => f.resource === 'snap-a')).toMatchObject({
      region: 'eu-west-1',
      fingerprint: 'exposure.ebs_snapshot_public|snap-a|eu-west-1',
    });
  });

  it('orders findings by severity, then check id, then resource', () => {
    const { findings } = evaluateInventory(troubled(), ctx);
    expect(findings.map((f) => `${f.severity} ${f.checkId} ${f.resource}`)).toEqual([
      'CRITICAL exposure.ebs_snapshot_public snap-a',
      'CRITICAL exposure.ebs_snapshot_public snap-b',
      'CRITICAL iam.root_mfa_disabled root',
      `HIGH iam.console_user_without_mfa arn:aws:iam::${ACCOUNT}:user/alice`,
      'MEDIUM iam.access_key_not_rotated AKIAALICE0000000001',
      'MEDIUM iam.access_key_not_rotated AKIACIDEPLOY00000001',
      'LOW suspension.operations_contact_missing operations-contact',
    ]);
    const ranks = findings.map((f) => SEVERITIES.indexOf(f.severity));
    expect(ranks).toEqual([...ranks].sort());
  });

  it('gives the same result whatever order the inventory lists things in', () => {
    const reversed = troubled();
    part(reversed.publicSnapshots).snapshots.reverse();
    part(reversed.iamPrincipals).users.reverse();
    part(reversed.credentialReport).users.reverse();
    expect(evaluateInventory(reversed, ctx)).toEqual(evaluateInventory(troubled(), ctx));
  });

  it('reports the checks of an unreadable part as not evaluated, with the reason, and nothing else about them', () => {
    const inventory = withoutPart(troubled(), 'credentialReport', 'AccessDenied: iam:GenerateCredentialReport');
    const { findings, outcomes, coverage } = evaluateInventory(inventory, ctx);
    const reportReaders = [
      'iam.root_recently_used',
      'iam.console_user_without_mfa',
      'iam.access_key_unused',
      'iam.console_password_unused',
      // Administrators' MFA and the kind of users' MFA devices are read from the report too.
      'iam.admin_without_mfa',
      'iam.user_virtual_mfa',
    ];
    expect(outcomes.filter((o) => o.status === 'not_evaluated').map((o) => o.checkId)).toEqual(reportReaders);
    expect(new Set(outcomes.filter((o) => o.status === 'not_evaluated').map((o) => o.reason))).toEqual(
      new Set(['AccessDenied: iam:GenerateCredentialReport']),
    );
    expect(findings.filter((f) => reportReaders.includes(f.checkId))).toEqual([]);
    expect(findings.map((f) => f.checkId)).toContain('exposure.ebs_snapshot_public');
    expect(coverage).toEqual({ evaluated: CATALOG.length - reportReaders.length, total: CATALOG.length });
  });

  it("counts each check's failing resources, and keeps the unread ones with their reason", () => {
    const inventory = withUnread(troubled(), 'publicSnapshots', [
      { kind: 'region', scope: 'ap-south-1', reason: 'AWS denied it.' },
    ]);
    const { outcomes } = evaluateInventory(inventory, ctx);
    const snapshots = outcomes.find((o) => o.checkId === 'exposure.ebs_snapshot_public');
    expect(snapshots).toEqual({
      checkId: 'exposure.ebs_snapshot_public',
      status: 'failed',
      failingResources: 2,
      reason: 'Not read: ap-south-1: AWS denied it.',
      unread: [{ kind: 'region', scope: 'ap-south-1', reason: 'AWS denied it.' }],
    });
    expect(isScoreComplete(outcomes)).toBe(false);
  });

  it('records a resource a check reports twice as one finding', () => {
    const inventory = troubled();
    part(inventory.publicSnapshots).snapshots.push({ id: 'snap-a', region: 'eu-west-1' });
    const snapshots = evaluateInventory(inventory, ctx).findings.filter(
      (f) => f.checkId === 'exposure.ebs_snapshot_public',
    );
    expect(snapshots.map((f) => f.resource)).toEqual(['snap-a', 'snap-b']);
  });
});

describe('coverage', () => {
  it('records no score and opens the coverage finding when fewer than half of the checks could be evaluated', () => {
    const bare = PART_NAMES.reduce(
      (inventory: Inventory, name) => withoutPart(inventory, name, `denied ${name}`),
      cleanInventory(NOW),
    );
    const evaluation = evaluateInventory(bare, ctx);
    expect(evaluation.scored).toBe(false);
    expect(evaluation.coverage).toEqual({ evaluated: 2, total: CATALOG.length });
    expect(evaluation.findings.map((f) => f.checkId)).toEqual([COVERAGE_LOST_CHECK_ID]);
    expect(evaluation.findings[0]).toMatchObject({
      severity: 'HIGH',
      scenario: 'connectivity',
      resource: 'scan-coverage',
    });
    expect(evaluation.findings[0]!.description).toContain(`Only 2 of ${CATALOG.length} checks could be evaluated`);
    expect(evaluation.outcomes.find((o) => o.checkId === CONNECTIVITY_CHECK_ID)?.status).toBe('passed');
    expect(evaluation.outcomes.find((o) => o.checkId === COVERAGE_LOST_CHECK_ID)).toMatchObject({
      status: 'failed',
      failingResources: 1,
    });
  });

  it('scores at exactly half, and not one check below', () => {
    const total = CATALOG.length;
    // Unreadable parts in an order that takes checks away a few at a time.
    const order = PART_NAMES;
    let inventory = cleanInventory(NOW);
    let last = evaluateInventory(inventory, ctx);
    for (const name of order) {
      const next = withoutPart(inventory, name);
      const evaluation = evaluateInventory(next, ctx);
      expect(evaluation.scored).toBe(evaluation.coverage.evaluated * 2 >= total);
      if (last.scored && !evaluation.scored) break;
      inventory = next;
      last = evaluation;
    }
    expect(last.scored).toBe(true);
  });
});

describe('roleUnavailableEvaluation', () => {
  it('is the critical connectivity finding with the reason, and every other check not evaluated', () => {
    const evaluation = roleUnavailableEvaluation('AccessDenied: the trust policy does not allow sts:AssumeRole');
    const [finding] = evaluation.findings;
    expect(finding).toMatchObject({
      checkId: CONNECTIVITY_CHECK_ID,
      scenario: 'connectivity',
      severity: 'CRITICAL',
      region: 'global',
      fingerprint: `${CONNECTIVITY_CHECK_ID}|${finding!.resource}|global`,
    });
    expect(finding!.description).toContain('the trust policy does not allow sts:AssumeRole');
    expect(evaluation.coverage).toEqual({ evaluated: 1, total: CATALOG.length });
    expect(evaluation.outcomes.filter((o) => o.status === 'not_evaluated')).toHaveLength(CATALOG.length - 1);
    expect(checkById(CONNECTIVITY_CHECK_ID)).toBeDefined();
  });

  it('keeps one fingerprint whatever the reason, so a persisting outage stays one signal', () => {
    expect(roleUnavailableEvaluation('role deleted').findings[0]!.fingerprint).toBe(
      roleUnavailableEvaluation('external id changed').findings[0]!.fingerprint,
    );
  });
});
