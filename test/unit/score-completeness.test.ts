import { CATALOG } from '../../domain/checks/catalog';
import { evaluateInventory, isScoreComplete, roleUnavailableEvaluation } from '../../domain/checks/evaluate';
import { type PartName, PART_NAMES } from '../../domain/scans/inventory';
import {
  CORE_SOURCES,
  isCoreSource,
  OPTIONAL_SOURCE_CHECKS,
  OPTIONAL_SOURCES,
  scoreCompleteness,
  SOURCE_OF_PART,
} from '../../domain/scoring/completeness';
import { cleanInventory, part, withoutPart, withUnread } from '../helpers/inventory';

// Completeness is about core sources only (docs/decisions.md, "The score's model"): the worked examples, and the list
// of checks that read optional sources only held to what each check reads.

const NOW = '2026-03-15T12:00:00.000Z';
const ctx = { now: NOW };

/** The parts each check reads: those whose absence leaves it not evaluated on an otherwise clean account. */
function partsReadByCheck(): Map<string, PartName[]> {
  const read = new Map<string, PartName[]>(CATALOG.map((c) => [c.id, []]));
  for (const part of PART_NAMES) {
    for (const o of evaluateInventory(withoutPart(cleanInventory(NOW), part), ctx).outcomes)
      if (o.status === 'not_evaluated') read.get(o.checkId)?.push(part);
  }
  return read;
}

describe('core and optional sources', () => {
  it('name every part of the inventory once, each from one source', () => {
    expect(Object.keys(SOURCE_OF_PART).sort()).toEqual([...PART_NAMES].sort());
    expect(new Set(Object.values(SOURCE_OF_PART))).toEqual(new Set([...CORE_SOURCES, ...OPTIONAL_SOURCES]));
    expect(OPTIONAL_SOURCES.filter((s) => isCoreSource(s))).toEqual([]);
  });

  it('list exactly the checks that read optional sources only, with their source', () => {
    const optionalOnly: Record<string, string> = {};
    for (const [checkId, parts] of partsReadByCheck()) {
      const sources = [...new Set(parts.map((p) => SOURCE_OF_PART[p]))];
      if (sources.length > 0 && sources.every((s) => !isCoreSource(s))) optionalOnly[checkId] = sources.join(', ');
    }
    expect(optionalOnly).toEqual(OPTIONAL_SOURCE_CHECKS);
  });
});

describe('scoreCompleteness', () => {
  it('is complete when everything was read', () => {
    const { outcomes } = evaluateInventory(cleanInventory(NOW), ctx);
    expect(scoreCompleteness(outcomes)).toEqual({ complete: true, coreChecksNotRead: [], optionalSourcesNotRead: [] });
    expect(isScoreComplete(outcomes)).toBe(true);
  });

  it('stays complete without AWS Health (no Business support), Cost Explorer (never opened) or Budgets', () => {
    let inventory = withoutPart(cleanInventory(NOW), 'health', 'SubscriptionRequiredException: no Business support');
    inventory = withoutPart(inventory, 'costs', 'DataUnavailableException: Cost Explorer was never opened');
    inventory = withoutPart(inventory, 'anomalies', 'DataUnavailableException: Cost Explorer was never opened');
    inventory = withoutPart(inventory, 'budgets', 'AccessDenied: budgets:ViewBudget');
    const { outcomes, coverage } = evaluateInventory(inventory, ctx);
    // Seven checks are not evaluated, and say so in the coverage; the score is complete all the same.
    expect(coverage).toEqual({ evaluated: CATALOG.length - 7, total: CATALOG.length });
    expect(scoreCompleteness(outcomes)).toEqual({
      complete: true,
      coreChecksNotRead: [],
      optionalSourcesNotRead: ['AWS Health', 'Cost Explorer', 'AWS Budgets'],
    });
    expect(isScoreComplete(outcomes)).toBe(true);
  });

  it('is incomplete when a core source was refused, even once an optional one is missing too', () => {
    const inventory = withoutPart(
      withoutPart(cleanInventory(NOW), 'health', 'SubscriptionRequiredException'),
      'credentialReport',
      'AccessDenied: iam:GenerateCredentialReport',
    );
    expect(scoreCompleteness(evaluateInventory(inventory, ctx).outcomes)).toEqual({
      complete: false,
      coreChecksNotRead: [
        'iam.root_recently_used',
        'iam.console_user_without_mfa',
        'iam.access_key_unused',
        'iam.console_password_unused',
        // Administrators' MFA and the kind of users' MFA devices are read from the report too.
        'iam.admin_without_mfa',
        'iam.user_virtual_mfa',
        // A leaked key is the account only without MFA: that combination cannot be ruled out either.
        'attack_path.user_key_without_mfa_admin',
      ],
      optionalSourcesNotRead: ['AWS Health'],
    });
  });

  it('is incomplete when one region of a core source could not be read (an SCP)', () => {
    const inventory = withUnread(cleanInventory(NOW), 'securityGroups', [
      { kind: 'region', scope: 'ap-south-1', reason: 'AccessDenied: a service control policy' },
    ]);
    const completeness = scoreCompleteness(evaluateInventory(inventory, ctx).outcomes);
    expect(completeness.complete).toBe(false);
    expect(completeness.coreChecksNotRead).toContain('exposure.sg_ssh_open');
  });

  it('is incomplete when the role could not be assumed', () => {
    expect(scoreCompleteness(roleUnavailableEvaluation('AccessDenied').outcomes).complete).toBe(false);
  });

  it('counts a check it does not know (added since) as reading a core source', () => {
    const outcome = { checkId: 'iam.new_check', status: 'not_evaluated' as const, failingResources: 0, reason: 'x' };
    expect(scoreCompleteness([{ ...outcome, unread: [] }]).complete).toBe(false);
  });
});

describe('what the account does not have to read', () => {
  it("leaves the score complete when GuardDuty is off (its own finding), and not when a region's read failed", () => {
    const off = cleanInventory(NOW);
    for (const region of part(off.guardduty).regions) region.detectorEnabled = false;
    const offEverywhere = evaluateInventory(off, ctx).outcomes;
    expect(offEverywhere.find((o) => o.checkId === 'threat.guardduty_high_severity_finding')?.status).toBe(
      'not_evaluated',
    );
    expect(offEverywhere.find((o) => o.checkId === 'detection.guardduty_disabled')?.status).toBe('failed');
    expect(scoreCompleteness(offEverywhere).complete).toBe(true);

    const oneOff = cleanInventory(NOW);
    part(oneOff.guardduty).regions[0]!.detectorEnabled = false;
    expect(scoreCompleteness(evaluateInventory(oneOff, ctx).outcomes).complete).toBe(true);

    const denied = withUnread(cleanInventory(NOW), 'guardduty', [
      { kind: 'region', scope: 'eu-west-3', reason: 'AWS denied the read (an SCP)' },
    ]);
    expect(scoreCompleteness(evaluateInventory(denied, ctx).outcomes)).toMatchObject({
      complete: false,
      coreChecksNotRead: expect.arrayContaining(['threat.guardduty_high_severity_finding']),
    });
  });
});
