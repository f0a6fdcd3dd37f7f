import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG, checkById } from '../../domain/checks/catalog';
import { type Scenario, type Severity, SEVERITIES } from '../../domain/checks/types';
import { srsBandOf } from '../../domain/scoring/srs-bands';
import {
  computeSrs,
  RESOURCE_EXTENT,
  resourceExtent,
  SCORE_CAP_VALUES,
  scoreBreakdown,
  SEVERITY_WEIGHTS,
} from '../../domain/scoring/srs';
import { scoreOf } from '../../domain/signals/lifecycle';

/** One finding for each of `count` distinct checks of the given severity (of a scenario that caps nothing). */
const failing = (severity: Severity, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    checkId: `${severity.toLowerCase()}.check_${i}`,
    severity,
    scenario: 'iam',
  }));

/** `resources` failing resources of one check. */
const resources = (checkId: string, severity: Severity, scenario: Scenario, count = 1) =>
  Array.from({ length: count }, () => ({ checkId, severity, scenario }));

describe('computeSrs', () => {
  it('pins the weights', () => {
    expect(SEVERITY_WEIGHTS).toEqual({ CRITICAL: 0.45, HIGH: 0.2, MEDIUM: 0.08, LOW: 0.02 });
  });

  it('is 100 without findings', () => {
    expect(computeSrs([])).toBe(100);
  });

  it.each([
    ['CRITICAL', 55],
    ['HIGH', 80],
    ['MEDIUM', 92],
    ['LOW', 98],
  ] as const)('is %s -> %i for one failing check', (severity, srs) => {
    expect(computeSrs(failing(severity, 1))).toBe(srs);
  });

  it('counts a check as one factor, however many resources fail it, weighed by their number (see below)', () => {
    // Before the resource extent, 50 public buckets scored 55 like one: now 100 x 0.55^(1 + log10(50) / 2) = 32.9.
    expect(computeSrs(resources('exposure.s3_bucket_public', 'CRITICAL', 'exposure', 50))).toBe(33);
  });

  it('compounds distinct checks', () => {
    expect(computeSrs(failing('CRITICAL', 2))).toBe(30); // 100 x 0.55^2 = 30.25
    expect(computeSrs([...failing('CRITICAL', 1), ...failing('HIGH', 1), ...failing('LOW', 1)])).toBe(43); // 43.12
  });

  it('uses the worst severity when one check is reported with several', () => {
    // Two resources of one check: HIGH's factor with the extent of two, 100 x 0.8^(1 + log10(2) / 2) = 77.4 (80 when
    // resources did not count).
    expect(
      computeSrs([
        { checkId: 'x.y', severity: 'LOW', scenario: 'iam' },
        { checkId: 'x.y', severity: 'HIGH', scenario: 'iam' },
      ]),
    ).toBe(77);
  });

  it('stays a small integer, not below 0, when every check fails', () => {
    const srs = computeSrs(
      CATALOG.map((check) => ({ checkId: check.id, severity: check.severity, scenario: check.scenario })),
    );
    expect(Number.isInteger(srs)).toBe(true);
    expect(srs).toBeGreaterThanOrEqual(0);
    expect(srs).toBeLessThan(5);
  });

  // With these weights no set of failing checks lands exactly on .5 (every product of 0.55, 0.8, 0.92 and 0.98,
  // times 100, has a fractional part other than one half), so what is pinned is rounding to the nearest integer
  // on both sides of the closest cases.
  it.each([
    [
      [
        ['CRITICAL', 1],
        ['HIGH', 2],
        ['LOW', 1],
      ],
      34,
    ], // 34.496
    [
      [
        ['CRITICAL', 1],
        ['HIGH', 3],
        ['LOW', 3],
      ],
      27,
    ], // 26.504
    [
      [
        ['CRITICAL', 3],
        ['HIGH', 3],
        ['MEDIUM', 3],
        ['LOW', 1],
      ],
      7,
    ], // 6.5005
    [
      [
        ['CRITICAL', 1],
        ['HIGH', 1],
        ['MEDIUM', 2],
        ['LOW', 1],
      ],
      36,
    ], // 36.497
  ] as const)('rounds %j to %i', (mix, srs) => {
    expect(computeSrs(mix.flatMap(([severity, count]) => failing(severity, count)))).toBe(srs);
  });

  it('rejects an unknown severity instead of scoring it', () => {
    expect(() => computeSrs([{ checkId: 'x.y', severity: 'SEVERE', scenario: 'iam' }])).toThrow(/Unknown severity/);
  });
});

// The worked examples of docs/decisions.md, "The score's model".
describe('the resource extent', () => {
  it("raises a check's factor to 1 + log10(n) / 2, bounded at 2 (100 resources)", () => {
    expect(RESOURCE_EXTENT).toEqual({ perTenfold: 0.5, max: 2 });
    expect(resourceExtent(0)).toBe(1);
    expect(resourceExtent(1)).toBe(1);
    expect(resourceExtent(10)).toBeCloseTo(1.5, 10);
    expect(resourceExtent(100)).toBe(2);
    expect(resourceExtent(100_000)).toBe(2);
  });

  it.each([
    [1, 55],
    [2, 50],
    [10, 41],
    [40, 34],
    [100, 30],
    [1000, 30],
  ])('scores %i public buckets %i', (buckets, srs) => {
    expect(computeSrs(resources('exposure.s3_bucket_public', 'CRITICAL', 'exposure', buckets))).toBe(srs);
  });

  it('never makes one check weigh as much as one check of the next severity up', () => {
    const many = (severity: Severity) => computeSrs(resources('x.y', severity, 'iam', 1000));
    expect([many('HIGH'), many('MEDIUM'), many('LOW')]).toEqual([64, 85, 96]);
    expect(many('HIGH')).toBeGreaterThan(computeSrs(failing('CRITICAL', 1))); // 55
    expect(many('MEDIUM')).toBeGreaterThan(computeSrs(failing('HIGH', 1))); // 80
    expect(many('LOW')).toBeGreaterThan(computeSrs(failing('MEDIUM', 1))); // 92
  });

  it('counts failing resources per check, not across checks', () => {
    // Two checks of one resource each compound as before: 100 x 0.8 x 0.8.
    expect(computeSrs([...failing('HIGH', 2)])).toBe(64);
    expect(computeSrs(resources('exposure.sg_ssh_open', 'HIGH', 'exposure', 2))).toBe(77);
  });
});

describe('the caps', () => {
  it('are the top of the critical band and the top of the fair band', () => {
    expect(SCORE_CAP_VALUES).toEqual({ active_compromise: 39, high_threat: 79 });
    expect(srsBandOf(SCORE_CAP_VALUES.active_compromise)).toBe('critical');
    expect(srsBandOf(SCORE_CAP_VALUES.high_threat)).toBe('fair');
  });

  it.each([
    ['threat.guardduty_high_severity_finding', 'threat'],
    ['event.guardduty_high_severity_finding', 'threat'],
    ['event.probable_compromise', 'threat'],
    ['event.root_console_sign_in', 'threat'],
    ['event.cloudtrail_logging_stopped', 'detection'],
  ] as const)('an open CRITICAL %s (%s) keeps the score in the critical band: 55 -> 39', (checkId, scenario) => {
    const findings = resources(checkId, 'CRITICAL', scenario);
    expect(scoreBreakdown(findings)).toEqual({ srs: 39, product: 55, cap: 'active_compromise' });
    expect(srsBandOf(computeSrs(findings))).toBe('critical');
  });

  it.each([
    ['threat.gpu_instance_running', 'threat'],
    ['threat.instance_in_unused_region', 'threat'],
    ['event.gpu_instance_launched', 'threat'],
    ['event.security_group_admin_port_opened', 'exposure'],
  ] as const)('an open HIGH %s (%s) keeps the score out of the good band: 80 -> 79', (checkId, scenario) => {
    const findings = resources(checkId, 'HIGH', scenario);
    expect(scoreBreakdown(findings)).toEqual({ srs: 79, product: 80, cap: 'high_threat' });
    expect(srsBandOf(computeSrs(findings))).toBe('fair');
  });

  it('leaves weaknesses to the product: a CRITICAL misconfiguration 55, a HIGH one 80, a MEDIUM threat 92', () => {
    expect(scoreBreakdown(resources('iam.root_mfa_disabled', 'CRITICAL', 'iam'))).toEqual({
      srs: 55,
      product: 55,
      cap: null,
    });
    // SSH open to the world found by a scan, on one security group: a standing exposure, at the good band's floor.
    expect(computeSrs(resources('exposure.sg_ssh_open', 'HIGH', 'exposure'))).toBe(80);
    expect(computeSrs(resources('event.iam_user_created', 'MEDIUM', 'threat'))).toBe(92);
  });

  it('only lower the score: a product already below the cap stands', () => {
    // Root without MFA and a GPU miner: 100 x 0.55 x 0.8 = 44, under the HIGH threat's 79.
    expect(
      scoreBreakdown([
        ...resources('iam.root_mfa_disabled', 'CRITICAL', 'iam'),
        ...resources('threat.gpu_instance_running', 'HIGH', 'threat'),
      ]),
    ).toEqual({ srs: 44, product: 44, cap: 'high_threat' });
  });

  it('take the lowest cap when several apply', () => {
    const findings = [
      ...resources('threat.gpu_instance_running', 'HIGH', 'threat'),
      ...resources('event.guardduty_high_severity_finding', 'CRITICAL', 'threat'),
    ];
    expect(scoreBreakdown(findings)).toEqual({ srs: 39, product: 44, cap: 'active_compromise' });
  });

  it('do not apply to an accepted signal, which counts in no score', () => {
    const gpu = { checkId: 'threat.gpu_instance_running', severity: 'HIGH', scenario: 'threat' };
    expect(scoreOf([{ ...gpu, accepted: false }])).toBe(79);
    expect(scoreOf([{ ...gpu, accepted: true }])).toBe(100);
  });
});

describe("the README's Security Risk Score section", () => {
  const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## The Security Risk Score'),
    readme.indexOf('\n## ', readme.indexOf('## The Security Risk Score') + 1),
  );

  it("counts the catalogue's checks per severity, with their weights", () => {
    for (const severity of SEVERITIES) {
      const row = new RegExp(`^\\| ${severity} \\| ([0-9.]+) \\| (\\d+) \\|`, 'm').exec(section);
      expect([severity, Number(row?.[1]), Number(row?.[2])]).toEqual([
        severity,
        SEVERITY_WEIGHTS[severity],
        CATALOG.filter((c) => c.severity === severity).length,
      ]);
    }
    expect(readme).toContain(`${CATALOG.length} checks`);
  });

  it('works its examples out as the service does', () => {
    // Each example is a list item, wrapped over lines.
    const examples = section
      .split('\n- ')
      .filter((item) => item.startsWith('**Example'))
      .map((item) => (item.split('\n\n')[0] as string).replace(/\n\s+/g, ' '));
    expect(examples).toHaveLength(2);
    for (const example of examples) {
      const findings = [...example.matchAll(/`([a-z_]+\.[a-z0-9_]+)` \((CRITICAL|HIGH|MEDIUM|LOW)\)/g)].map(
        ([, checkId, severity]) => {
          const check = checkById(checkId as string);
          expect([checkId, check?.severity]).toEqual([checkId, severity]);
          return { checkId: checkId as string, severity: severity as string, scenario: check?.scenario ?? '' };
        },
      );
      expect(findings.length).toBeGreaterThan(1);
      expect(Number(/= \*\*(\d+)\*\*/.exec(example)?.[1])).toBe(computeSrs(findings));
    }
  });
});
