import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG } from '../../domain/checks/catalog';
import { type CheckOutcome, evaluateInventory } from '../../domain/checks/evaluate';
import type { Check } from '../../domain/checks/types';
import { AWS_FSBP_CONTROLS } from '../../domain/compliance/aws-fsbp';
import {
  checksByControl,
  currentOutcomes,
  EVIDENCE_PER_CONTROL,
  evaluateFramework,
  type EvidenceGroup,
  type EvidencingDetection,
  type EvidenceSignal,
} from '../../domain/compliance/evaluate';
import { frameworkById, FRAMEWORKS } from '../../domain/compliance/frameworks';
import type { Framework } from '../../domain/compliance/types';
import { DETECTION_CATALOG } from '../../domain/events/catalog';
import type { BlockPublicAccess, Inventory, PartName } from '../../domain/scans/inventory';
import { cleanInventory, daysAgo, part, reportRow, withoutPart } from '../helpers/inventory';

const CIS = frameworkById('cis-aws-7.0');

/** Each signal a group of its own, as the database groups signals that differ in what decides their controls. */
const grouped = (signals: readonly EvidenceSignal[]): EvidenceGroup[] =>
  signals.map((s) => ({ signals: [s], open: 1, unaccepted: s.accepted ? 0 : 1 }));

describe('the CIS AWS Foundations v7.0 definition', () => {
  it('holds every control of the benchmark as published, and nothing else', () => {
    const reference = readFileSync(path.resolve(__dirname, '../fixtures/cis-aws-foundations-7.0.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { id: string; title: string; automated: boolean; profile: string; section: string },
      );
    expect(reference).toHaveLength(70);
    expect(
      CIS.controls.map((c) => ({
        id: c.id,
        title: c.title,
        automated: c.automated,
        profile: c.profile,
        section: c.section,
      })),
    ).toEqual(
      reference.map(({ id, title, automated, profile, section }) => ({ id, title, automated, profile, section })),
    );
  });

  it("names only real controls in the checks' mappings", () => {
    for (const framework of FRAMEWORKS) {
      const ids = new Set(framework.controls.map((c) => c.id));
      for (const check of CATALOG) {
        for (const id of check.controls?.[framework.id] ?? [])
          expect(`${check.id} → ${id}`).toBe(ids.has(id) ? `${check.id} → ${id}` : 'a real control');
      }
    }
    for (const check of CATALOG) {
      for (const id of check.controls?.['aws-fsbp'] ?? []) expect(AWS_FSBP_CONTROLS[id]).toEqual(expect.any(String));
    }
  });

  it("names only real controls in the event detections' mappings, each evaluated by a check too", () => {
    const ids = new Set(CIS.controls.map((c) => c.id));
    const checked = new Set(CATALOG.flatMap((c) => c.controls?.['cis-aws-7.0'] ?? []));
    const mapped = DETECTION_CATALOG.flatMap((d) => (d.controls?.['cis-aws-7.0'] ?? []).map((id) => `${d.id} → ${id}`));
    expect(mapped.filter((m) => !ids.has(m.split(' → ')[1] as string))).toEqual([]);
    // An event breaks what a scan would see broken: the control has a check that confirms or clears it later.
    expect(mapped.filter((m) => !checked.has(m.split(' → ')[1] as string))).toEqual([]);
    for (const d of DETECTION_CATALOG) {
      for (const id of d.controls?.['aws-fsbp'] ?? []) expect(AWS_FSBP_CONTROLS[id]).toEqual(expect.any(String));
    }
  });

  it('maps the events that break logging, exposure and root use to their controls', () => {
    const controlsOf = (id: string) => DETECTION_CATALOG.find((d) => d.id === id)?.controls?.['cis-aws-7.0'];
    expect(controlsOf('event.cloudtrail_logging_stopped')).toEqual(['4.1']);
    expect(controlsOf('event.cloudtrail_trail_deleted')).toEqual(['4.1']);
    expect(controlsOf('event.security_group_admin_port_opened')).toEqual(['6.1.2', '6.3', '6.4']);
    expect(controlsOf('event.root_console_sign_in')).toEqual(['2.7']);
    expect(controlsOf('event.root_api_call')).toEqual(['2.7']);
    // What no control forbids breaks none.
    expect(controlsOf('event.iam_user_created')).toBeUndefined();
    expect(controlsOf('event.gpu_instance_launched')).toBeUndefined();
  });

  it('evaluates every automated control with one or more checks', () => {
    const checked = new Set(CATALOG.flatMap((c) => c.controls?.['cis-aws-7.0'] ?? []));
    expect(CIS.controls.filter((c) => c.automated && !checked.has(c.id)).map((c) => `${c.id} ${c.title}`)).toEqual([]);
  });

  it('gives a control no check evaluates what the tenant must attest, and none to a control a check evaluates', () => {
    const checked = new Set(CATALOG.flatMap((c) => c.controls?.['cis-aws-7.0'] ?? []));
    for (const control of CIS.controls) {
      expect([control.id, checked.has(control.id) || control.attestation !== undefined]).toEqual([control.id, true]);
      if (checked.has(control.id)) expect([control.id, control.attestation]).toEqual([control.id, undefined]);
    }
  });
});

describe("a control's status", () => {
  const framework: Framework = {
    ...CIS,
    controls: [
      { id: 'A', section: 'S', profile: 'Level 1', automated: true, title: 'two checks' },
      { id: 'B', section: 'S', profile: 'Level 1', automated: false, title: 'attested', attestation: 'We do it.' },
    ],
  };
  const check = (id: string, controls: string[]): Check => ({
    id,
    service: 'iam',
    scenario: 'iam',
    severity: 'HIGH',
    title: id,
    description: '',
    remediation: '',
    docsUrl: '',
    controls: { 'cis-aws-7.0': controls },
    evaluate: () => ({ status: 'pass' }),
  });
  const catalog = [check('x.one', ['A']), check('x.two', ['A'])];
  const outcome = (
    checkId: string,
    status: CheckOutcome['status'],
    extra: Partial<CheckOutcome> = {},
  ): CheckOutcome => ({
    checkId,
    status,
    failingResources: status === 'failed' ? 1 : 0,
    reason: status === 'not_evaluated' ? 'AccessDenied' : null,
    unread: [],
    ...extra,
  });
  const finding = (checkId: string, accepted: boolean, extra: Partial<EvidenceSignal> = {}): EvidenceSignal => ({
    signalId: `sig-${checkId}`,
    checkId,
    resource: `r-${checkId}`,
    region: 'global',
    accepted,
    ...extra,
  });
  const denied = { kind: 'region' as const, scope: 'eu-west-3', reason: 'Explicit deny in an SCP.' };
  const statusOf = (
    outcomes: CheckOutcome[] | null,
    findings: EvidenceSignal[] = [],
    detections: EvidencingDetection[] = [],
  ) => evaluateFramework(framework, catalog, outcomes, grouped(findings), detections).controls[0]!;

  it('passes only when every check behind it read everything and passed', () => {
    expect(statusOf([outcome('x.one', 'passed'), outcome('x.two', 'passed')])).toMatchObject({
      status: 'passed',
      checkIds: ['x.one', 'x.two'],
      unread: [],
      notes: [],
    });
  });

  it('is partial, not passed, when everything read passed but a check could not read a region, and says what', () => {
    const result = statusOf([outcome('x.one', 'passed'), outcome('x.two', 'passed', { unread: [denied] })]);
    expect(result).toMatchObject({
      status: 'partial',
      unread: [{ checkId: 'x.two', ...denied }],
      notes: ['x.two could not read eu-west-3'],
      failingResources: [],
    });
  });

  it('fails when one check failed on a finding not accepted, with the findings as evidence', () => {
    const findings = [finding('x.one', false), finding('x.two', true)];
    const result = statusOf([outcome('x.one', 'failed'), outcome('x.two', 'failed')], findings);
    expect(result).toMatchObject({ status: 'failed', failingResources: findings });
  });

  it('fails on a failure the scan recorded whose signal is gone, when the check does not split its controls', () => {
    expect(statusOf([outcome('x.one', 'failed'), outcome('x.two', 'passed')]).status).toBe('failed');
  });

  it('fails on a signal opened since the scan that passed its check, or kept open where the scan could not read', () => {
    // A targeted rescan opened it: the latest full scan had passed the check.
    expect(statusOf([outcome('x.one', 'passed'), outcome('x.two', 'passed')], [finding('x.one', false)])).toMatchObject(
      { status: 'failed', failingResources: [finding('x.one', false)] },
    );
    // Open in the region the scan could not read: never a pass it has not shown, nor a partial.
    const stillOpen = finding('x.two', false, { region: 'eu-west-3' });
    expect(
      statusOf([outcome('x.one', 'passed'), outcome('x.two', 'passed', { unread: [denied] })], [stillOpen]).status,
    ).toBe('failed');
    // A check not evaluated this time keeps its open signal, which still fails the control.
    expect(
      statusOf([outcome('x.one', 'not_evaluated'), outcome('x.two', 'passed')], [finding('x.one', false)]).status,
    ).toBe('failed');
  });

  it('is accepted, not passed nor partial, when every failure is accepted risk', () => {
    expect(statusOf([outcome('x.one', 'failed'), outcome('x.two', 'passed')], [finding('x.one', true)]).status).toBe(
      'accepted',
    );
    expect(
      statusOf([outcome('x.one', 'failed'), outcome('x.two', 'passed', { unread: [denied] })], [finding('x.one', true)])
        .status,
    ).toBe('accepted');
  });

  it('is not evaluated when a check was not, or never ran, unless another check failed', () => {
    expect(statusOf([outcome('x.one', 'passed'), outcome('x.two', 'not_evaluated')])).toMatchObject({
      status: 'not_evaluated',
      notes: ['x.two: AccessDenied'],
    });
    // Not evaluated outweighs partial: a whole check is missing.
    expect(statusOf([outcome('x.one', 'passed', { unread: [denied] }), outcome('x.two', 'not_evaluated')]).status).toBe(
      'not_evaluated',
    );
    expect(statusOf([outcome('x.one', 'passed')]).notes).toEqual(['x.two: added to Sentinel after the latest scan']);
    expect(statusOf(null).notes).toEqual([
      'x.one: the account has not been scanned yet',
      'x.two: the account has not been scanned yet',
    ]);
    expect(
      statusOf([outcome('x.one', 'failed'), outcome('x.two', 'not_evaluated')], [finding('x.one', false)]).status,
    ).toBe('failed');
    expect(
      statusOf([outcome('x.one', 'failed'), outcome('x.two', 'not_evaluated')], [finding('x.one', true)]).status,
    ).toBe('not_evaluated');
  });

  it("follows only its own findings when a check's resources stand for different controls", () => {
    const perControl: Check = {
      ...check('x.alarms', ['A', 'B']),
      controlOfResource: (resource) => (resource === 'alarm-a' ? 'A' : 'B'),
    };
    const result = evaluateFramework(
      framework,
      [perControl],
      [outcome('x.alarms', 'failed')],
      grouped([{ signalId: 'sig-b', checkId: 'x.alarms', resource: 'alarm-b', region: 'global', accepted: false }]),
      [],
    );
    expect(result.controls.map((c) => [c.control.id, c.status, c.failingResources.length])).toEqual([
      ['A', 'passed', 0],
      ['B', 'failed', 1],
    ]);
  });

  it('follows the controls the scan recorded for each failing resource, and every control for one it did not name', () => {
    const both = check('x.groups', ['A', 'B']);
    const onlyB = { 'sg-v6|us-east-1': { 'cis-aws-7.0': ['B'] } };
    const open = (resource: string, accepted = false): EvidenceSignal => ({
      signalId: `sig-${resource}`,
      checkId: 'x.groups',
      resource,
      region: 'us-east-1',
      accepted,
    });
    const statuses = (findings: EvidenceSignal[], failingControls?: CheckOutcome['failingControls']) =>
      evaluateFramework(
        framework,
        [both],
        [outcome('x.groups', 'failed', { failingControls })],
        grouped(findings),
        [],
      ).controls.map((c) => [c.control.id, c.status]);
    expect(statuses([open('sg-v6')], onlyB)).toEqual([
      ['A', 'passed'],
      ['B', 'failed'],
    ]);
    expect(statuses([open('sg-v6', true)], onlyB)).toEqual([
      ['A', 'passed'],
      ['B', 'accepted'],
    ]);
    // Still open in a region the scan could not read: the scan did not say which control it fails.
    expect(statuses([open('sg-v6'), open('sg-old')], onlyB)).toEqual([
      ['A', 'failed'],
      ['B', 'failed'],
    ]);
    // A scan recorded before failing resources named their controls fails them all.
    expect(statuses([open('sg-v6')])).toEqual([
      ['A', 'failed'],
      ['B', 'failed'],
    ]);
  });

  it("is not evaluated when the resource standing for it could not be seen; the check's other controls are partial at most", () => {
    const perControl: Check = {
      ...check('x.alarms', ['A', 'B']),
      controlOfResource: (resource) => (resource === 'alarm-a' ? 'A' : 'B'),
    };
    const unread = [{ kind: 'resource' as const, scope: 'alarm-b', reason: 'Its region could not be read.' }];
    const result = evaluateFramework(framework, [perControl], [outcome('x.alarms', 'passed', { unread })], [], []);
    expect(result.controls.map((c) => [c.control.id, c.status, c.unread.length])).toEqual([
      ['A', 'passed', 0],
      ['B', 'not_evaluated', 1],
    ]);
    const region = [denied];
    expect(
      evaluateFramework(
        framework,
        [perControl],
        [outcome('x.alarms', 'passed', { unread: region })],
        [],
        [],
      ).controls.map((c) => [c.control.id, c.status]),
    ).toEqual([
      ['A', 'partial'],
      ['B', 'partial'],
    ]);
  });

  describe('with event signals', () => {
    const stopped: EvidencingDetection = { id: 'event.trail_stopped', controls: { 'cis-aws-7.0': ['A'] } };
    const opened: EvidencingDetection = { id: 'event.port_opened', controls: { 'cis-aws-7.0': ['A', 'B'] } };
    const unmapped: EvidencingDetection = { id: 'event.user_created' };
    const passing = [outcome('x.one', 'passed'), outcome('x.two', 'passed')];
    const statuses = (findings: EvidenceSignal[]) =>
      evaluateFramework(framework, catalog, passing, grouped(findings), [stopped, opened, unmapped]).controls.map(
        (c) => [c.control.id, c.status],
      );

    it('fails the control an open event signal is mapped to at once, over the scan that passed it, with the signal as evidence', () => {
      const signal = finding('event.trail_stopped', false);
      const result = evaluateFramework(framework, catalog, passing, grouped([signal]), [stopped]);
      expect(result.controls[0]).toMatchObject({
        status: 'failed',
        failingResources: [signal],
        checkIds: ['x.one', 'x.two'],
      });
      expect(result.summary).toMatchObject({ passed: 0, failed: 1, manual: 1 });
    });

    it('is accepted when the event signal is accepted risk, and nothing when the detection maps to no control', () => {
      expect(statuses([finding('event.trail_stopped', true)])).toEqual([
        ['A', 'accepted'],
        ['B', 'manual'],
      ]);
      expect(statuses([finding('event.user_created', false)])).toEqual([
        ['A', 'passed'],
        ['B', 'manual'],
      ]);
    });

    it('fails only the controls the signal names when it breaks fewer than all of its detection', () => {
      expect(statuses([finding('event.port_opened', false, { controls: { 'cis-aws-7.0': ['B'] } })])).toEqual([
        ['A', 'passed'],
        ['B', 'failed'],
      ]);
      // A signal naming none (opened before signals named them) stands for all of its detection's controls.
      expect(statuses([finding('event.port_opened', false)])).toEqual([
        ['A', 'failed'],
        ['B', 'failed'],
      ]);
    });

    it('fails a control before the first scan, when an event already broke it', () => {
      expect(statusOf(null, [finding('event.trail_stopped', false)], [stopped]).status).toBe('failed');
    });
  });

  it('takes each check from the latest targeted rescan that evaluated it, else from the full scan', () => {
    const full = [outcome('x.one', 'failed'), outcome('x.two', 'passed', { unread: [denied] })];
    const rescans = [
      [outcome('x.one', 'passed'), outcome('x.two', 'not_evaluated', { reason: 'outside this targeted rescan' })],
      [outcome('x.one', 'not_evaluated')],
    ];
    expect(currentOutcomes(full, rescans)).toEqual([outcome('x.one', 'passed'), full[1]]);
    expect(currentOutcomes(full, [])).toEqual(full);
    expect(currentOutcomes(null, rescans)).toBeNull();
    // The failure the full scan recorded is gone once a rescan passed the check: the control is partial (x.two).
    expect(statusOf(currentOutcomes(full, rescans)).status).toBe('partial');
  });

  it('lists the first evidence of many open signals and counts them all; one not accepted among them fails it', () => {
    const many = (checkId: string, n: number): EvidenceSignal[] =>
      Array.from({ length: n }, (_, i) =>
        finding(checkId, true, { signalId: `sig-${checkId}-${i}`, resource: `r-${i}` }),
      );
    const one = { signals: many('x.one', EVIDENCE_PER_CONTROL), open: 4_000, unaccepted: 1 };
    const two = { signals: many('x.two', 3), open: 3, unaccepted: 0 };
    const result = evaluateFramework(
      framework,
      catalog,
      [outcome('x.one', 'failed'), outcome('x.two', 'failed')],
      [one, two],
      [],
    );
    expect(result.controls[0]).toMatchObject({ status: 'failed', failingTotal: 4_003 });
    expect(result.controls[0]?.failingResources).toEqual(one.signals);
    // Every one of them accepted: accepted, and still counted.
    const accepted = evaluateFramework(
      framework,
      catalog,
      [outcome('x.one', 'failed'), outcome('x.two', 'passed')],
      [{ ...one, unaccepted: 0 }],
      [],
    );
    expect(accepted.controls[0]).toMatchObject({ status: 'accepted', failingTotal: 4_000 });
  });

  it('is manual for a control no check evaluates, and the summary counts every status, partial included', () => {
    const result = evaluateFramework(
      framework,
      catalog,
      [outcome('x.one', 'passed'), outcome('x.two', 'passed', { unread: [denied] })],
      [],
      [],
    );
    expect(result.controls[1]).toMatchObject({ status: 'manual', checkIds: [] });
    expect(result.summary).toEqual({ passed: 0, partial: 1, failed: 0, accepted: 0, not_evaluated: 0, manual: 1 });
  });
});

describe('the CIS controls whose audit procedure the checks follow', () => {
  const NOW = '2026-03-15T12:00:00.000Z';
  const ALL_ON: BlockPublicAccess = {
    blockPublicAcls: true,
    ignorePublicAcls: true,
    blockPublicPolicy: true,
    restrictPublicBuckets: true,
  };

  /** A control's status in an account whose latest scan collected `inventory`, every finding open and not accepted. */
  function controlIn(inventory: Inventory, controlId: string) {
    const { outcomes, findings } = evaluateInventory(inventory, { now: inventory.collectedAt });
    const open: EvidenceSignal[] = findings.map((f) => ({
      signalId: `sig-${f.fingerprint}`,
      checkId: f.checkId,
      resource: f.resource,
      region: f.region,
      accepted: false,
    }));
    return evaluateFramework(CIS, CATALOG, outcomes, grouped(open), DETECTION_CATALOG).controls.find(
      (c) => c.control.id === controlId,
    )!;
  }
  const changed = (change: (inventory: Inventory) => void): Inventory => {
    const inventory = cleanInventory(NOW);
    change(inventory);
    return inventory;
  };

  const CONTROLS: {
    id: string;
    checks: string[];
    /** What fails the control, as CIS's audit finds it. */
    fails: (inventory: Inventory) => void;
    /** A part whose refusal leaves the control unknown. */
    refused: PartName;
  }[] = [
    {
      id: '2.11',
      checks: ['iam.access_key_unused', 'iam.console_password_unused'],
      fails: (inv) => {
        reportRow(inv, 'alice').passwordLastUsedAt = daysAgo(NOW, 60);
      },
      refused: 'credentialReport',
    },
    {
      id: '2.14',
      checks: ['iam.full_admin_policy_attached'],
      fails: (inv) => {
        // AWS managed, judged by its document; attached to a group that has no member.
        part(inv.awsManagedPolicies).policies.push({
          name: 'AdministratorAccess',
          arn: 'arn:aws:iam::aws:policy/AdministratorAccess',
          fullAdmin: true,
        });
        part(inv.iamPrincipals).groups[0]!.managedPolicies.push('AdministratorAccess');
      },
      refused: 'iamPrincipals',
    },
    {
      id: '2.15',
      checks: ['iam.no_support_role'],
      fails: (inv) => {
        // AWSSupportAccess on a group, not a role.
        part(inv.iamPrincipals).roles[1]!.managedPolicies = [];
        part(inv.iamPrincipals).groups[0]!.managedPolicies.push('AWSSupportAccess');
      },
      refused: 'iamPrincipals',
    },
    {
      id: '2.16',
      checks: ['iam.instance_without_role'],
      fails: (inv) => {
        part(inv.instanceProfiles).profiles[0]!.roles = [];
      },
      refused: 'instances',
    },
    {
      id: '3.1.1',
      checks: ['exposure.s3_bucket_allows_http'],
      fails: (inv) => {
        part(inv.s3Buckets).buckets[1]!.deniesInsecureTransport = false;
      },
      refused: 's3Buckets',
    },
    {
      id: '3.1.4',
      checks: ['exposure.s3_bucket_public_access_block_off'],
      fails: (inv) => {
        part(inv.s3AccountBlockPublicAccess).settings = null;
      },
      // The account's settings cover every bucket; unread, the bucket without its own settings is unknown.
      refused: 's3AccountBlockPublicAccess',
    },
    {
      id: '4.3',
      checks: ['detection.config_off', 'detection.config_global_resources_off'],
      fails: (inv) => {
        part(inv.configRecorders).regions[2]!.recorders[0]!.allSupported = false;
      },
      refused: 'configRecorders',
    },
    {
      id: '6.2',
      checks: ['exposure.nacl_admin_ports_open'],
      fails: (inv) => {
        part(inv.networkAcls).acls[0]!.internetIngress.unshift({
          ruleNumber: 5,
          action: 'allow',
          protocol: '17',
          fromPort: 22,
          toPort: 22,
          cidr: '0.0.0.0/0',
        });
      },
      refused: 'networkAcls',
    },
    {
      id: '6.3',
      checks: ['exposure.sg_ssh_open', 'exposure.sg_rdp_open', 'exposure.sg_all_ports_open'],
      fails: (inv) => {
        part(inv.securityGroups).groups[0]!.openIngress.push({
          protocol: 'udp',
          fromPort: 22,
          toPort: 22,
          cidr: '0.0.0.0/0',
        });
      },
      refused: 'securityGroups',
    },
    {
      id: '6.4',
      checks: ['exposure.sg_ssh_open', 'exposure.sg_rdp_open', 'exposure.sg_all_ports_open'],
      fails: (inv) => {
        part(inv.securityGroups).groups[0]!.openIngress.push({
          protocol: '17',
          fromPort: 3389,
          toPort: 3389,
          cidr: '::/0',
        });
      },
      refused: 'securityGroups',
    },
  ];

  it.each(CONTROLS)('$id is decided by $checks', ({ id, checks }) => {
    expect(
      checksByControl(CIS, CATALOG)
        .get(id)
        ?.map((c) => c.id),
    ).toEqual(checks);
  });

  it.each(CONTROLS)('$id passes on an account that meets it', ({ id }) => {
    expect(controlIn(cleanInventory(NOW), id)).toMatchObject({ status: 'passed', notes: [] });
  });

  it.each(CONTROLS)('$id fails on what its audit procedure finds', ({ id, fails }) => {
    const result = controlIn(changed(fails), id);
    expect(result.status).toBe('failed');
    expect(result.failingResources.length).toBeGreaterThan(0);
  });

  it.each(CONTROLS)('$id is not evaluated, never passed, when AWS refuses $refused', ({ id, refused }) => {
    expect(controlIn(withoutPart(cleanInventory(NOW), refused), id).status).toBe('not_evaluated');
  });

  it('fails 6.4 and not 6.3 for UDP 3389 open to ::/0 only', () => {
    const inventory = changed(CONTROLS.find((c) => c.id === '6.4')!.fails);
    expect([controlIn(inventory, '6.3').status, controlIn(inventory, '6.4').status]).toEqual(['passed', 'failed']);
  });

  it("passes 3.1.4 on every bucket's own Block Public Access, the account's off", () => {
    const inventory = changed((inv) => {
      part(inv.s3AccountBlockPublicAccess).settings = null;
      for (const bucket of part(inv.s3Buckets).buckets) bucket.blockPublicAccess = { ...ALL_ON };
    });
    expect(controlIn(inventory, '3.1.4').status).toBe('passed');
    // The account-level check still reports the account's settings off, for what it is: no longer CIS 3.1.4's.
    expect(controlIn(inventory, '3.1.4').checkIds).not.toContain('exposure.s3_account_public_access_block_off');
  });

  it.each([
    ['2.14', 'awsManagedPolicies'],
    ['2.16', 'instanceProfiles'],
  ] as const)('%s is not evaluated, never passed, when AWS refuses %s and nothing fails without it', (id, refused) => {
    expect(controlIn(withoutPart(cleanInventory(NOW), refused), id).status).toBe('not_evaluated');
  });

  it("passes 3.1.4 on the account's settings even when the buckets could not be read", () => {
    expect(controlIn(withoutPart(cleanInventory(NOW), 's3Buckets'), '3.1.4').status).toBe('passed');
  });

  it('is not evaluated, never passed, for 4.3 when the global resource types may be recorded in a region it could not read', () => {
    const inventory = changed((inv) => {
      const recorders = part(inv.configRecorders);
      recorders.regions = recorders.regions.slice(1);
      inv.configRecorders = {
        ...inv.configRecorders,
        unread: [{ kind: 'region', scope: 'us-east-1', reason: "AWS denied Sentinel's role (AccessDenied)." }],
      };
    });
    expect(controlIn(inventory, '4.3').status).toBe('not_evaluated');
  });
});
