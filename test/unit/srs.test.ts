import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG, checkById } from '../../domain/checks/catalog';
import { type Severity, SEVERITIES } from '../../domain/checks/types';
import { computeSrs, SEVERITY_WEIGHTS } from '../../domain/scoring/srs';

/** One finding for each of `count` distinct checks of the given severity. */
const failing = (severity: Severity, count: number) =>
  Array.from({ length: count }, (_, i) => ({ checkId: `${severity.toLowerCase()}.check_${i}`, severity }));

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

  it('counts a check once however many resources fail it', () => {
    const buckets = Array.from({ length: 50 }, () => ({ checkId: 'exposure.s3_bucket_public', severity: 'CRITICAL' }));
    expect(computeSrs(buckets)).toBe(55);
  });

  it('compounds distinct checks', () => {
    expect(computeSrs(failing('CRITICAL', 2))).toBe(30); // 100 x 0.55^2 = 30.25
    expect(computeSrs([...failing('CRITICAL', 1), ...failing('HIGH', 1), ...failing('LOW', 1)])).toBe(43); // 43.12
  });

  it('uses the worst severity when one check is reported with several', () => {
    expect(
      computeSrs([
        { checkId: 'x.y', severity: 'LOW' },
        { checkId: 'x.y', severity: 'HIGH' },
      ]),
    ).toBe(80);
  });

  it('stays a small integer, not below 0, when every check fails', () => {
    const srs = computeSrs(CATALOG.map((check) => ({ checkId: check.id, severity: check.severity })));
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
    expect(() => computeSrs([{ checkId: 'x.y', severity: 'SEVERE' }])).toThrow(/Unknown severity/);
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
          expect([checkId, checkById(checkId as string)?.severity]).toEqual([checkId, severity]);
          return { checkId: checkId as string, severity: severity as string };
        },
      );
      expect(findings.length).toBeGreaterThan(1);
      expect(Number(/= \*\*(\d+)\*\*/.exec(example)?.[1])).toBe(computeSrs(findings));
    }
  });
});
