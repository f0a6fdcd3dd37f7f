import { CATALOG, checkById } from '../../../domain/checks/catalog';
import { CONNECTIVITY_CHECK_ID } from '../../../domain/checks/connectivity';
import { connectivityFinding, evaluateInventory } from '../../../domain/checks/evaluate';
import { SEVERITIES } from '../../../domain/checks/types';
import type { Inventory } from '../../../domain/inventory';
import { ACCOUNT, cleanInventory, daysAgo, part, withoutPart } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';
const ctx = { now: NOW };

/** Several checks failing on several resources, in several severities. */
function troubled(): Inventory {
  const inventory = cleanInventory(NOW);
  const iam = part(inventory.iam);
  iam.rootMfaEnabled = false;
  iam.users[0]!.mfaEnabled = false;
  iam.users[0]!.accessKeys[0]!.createdAt = daysAgo(NOW, 200);
  iam.users[1]!.accessKeys[0]!.createdAt = daysAgo(NOW, 150);
  part(inventory.ec2).publicSnapshots.push({ id: 'snap-b', region: 'us-east-1' }, { id: 'snap-a', region: 'eu-west-1' });
  part(inventory.alternateContacts).operations = false;
  return inventory;
}

describe('evaluateInventory', () => {
  it('passes every check on a clean account', () => {
    expect(evaluateInventory(cleanInventory(NOW), ctx)).toEqual({
      findings: [], notEvaluated: [], passed: CATALOG.map((check) => check.id),
    });
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
      fingerprint: `iam.console_user_without_mfa|arn:aws:iam::${ACCOUNT}:user/alice|global`,
    });
    expect(findings.find((f) => f.resource === 'snap-a')).toMatchObject({
      region: 'eu-west-1', fingerprint: 'exposure.ebs_snapshot_public|snap-a|eu-west-1',
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
    part(reversed.ec2).publicSnapshots.reverse();
    part(reversed.iam).users.reverse();
    expect(evaluateInventory(reversed, ctx)).toEqual(evaluateInventory(troubled(), ctx));
  });

  it('reports the checks of an unreadable part as not evaluated, with the reason, and nothing else about them', () => {
    const inventory = withoutPart(troubled(), 'iam', 'AccessDenied: iam:GenerateCredentialReport');
    const { findings, notEvaluated, passed } = evaluateInventory(inventory, ctx);
    const iamReaders = ['iam.', 'threat.iam_user_created_recently', 'threat.access_key_created_recently'];
    const readsIam = (id: string) => iamReaders.some((prefix) => id.startsWith(prefix));
    expect(notEvaluated.map((n) => n.checkId)).toEqual(CATALOG.map((c) => c.id).filter(readsIam));
    expect(new Set(notEvaluated.map((n) => n.reason))).toEqual(new Set(['AccessDenied: iam:GenerateCredentialReport']));
    expect(findings.filter((f) => readsIam(f.checkId))).toEqual([]);
    expect(passed.filter(readsIam)).toEqual([]);
    expect(findings.map((f) => f.checkId)).toContain('exposure.ebs_snapshot_public');
  });

  it('records a resource a check reports twice as one finding', () => {
    const inventory = troubled();
    part(inventory.ec2).publicSnapshots.push({ id: 'snap-a', region: 'eu-west-1' });
    const snapshots = evaluateInventory(inventory, ctx).findings.filter((f) => f.checkId === 'exposure.ebs_snapshot_public');
    expect(snapshots.map((f) => f.resource)).toEqual(['snap-a', 'snap-b']);
  });
});

describe('connectivityFinding', () => {
  it('is the critical connectivity finding with the reason in its description', () => {
    const finding = connectivityFinding('AccessDenied: the trust policy does not allow sts:AssumeRole');
    expect(finding).toMatchObject({
      checkId: CONNECTIVITY_CHECK_ID,
      scenario: 'connectivity',
      severity: 'CRITICAL',
      region: 'global',
      fingerprint: `${CONNECTIVITY_CHECK_ID}|${finding.resource}|global`,
    });
    expect(finding.description).toContain('the trust policy does not allow sts:AssumeRole');
  });

  it('keeps one fingerprint whatever the reason, so a persisting outage stays one signal', () => {
    expect(connectivityFinding('role deleted').fingerprint).toBe(connectivityFinding('external id changed').fingerprint);
  });
});
