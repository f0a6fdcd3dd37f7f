import { CATALOG } from '../../domain/checks/catalog';
import type { Severity } from '../../domain/checks/types';
import { computeSrs, SEVERITY_WEIGHTS } from '../../domain/srs';

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
    expect(computeSrs([{ checkId: 'x.y', severity: 'LOW' }, { checkId: 'x.y', severity: 'HIGH' }])).toBe(80);
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
    [[['CRITICAL', 1], ['HIGH', 2], ['LOW', 1]], 34], // 34.496
    [[['CRITICAL', 1], ['HIGH', 3], ['LOW', 3]], 27], // 26.504
    [[['CRITICAL', 3], ['HIGH', 3], ['MEDIUM', 3], ['LOW', 1]], 7], // 6.5005
    [[['CRITICAL', 1], ['HIGH', 1], ['MEDIUM', 2], ['LOW', 1]], 36], // 36.497
  ] as const)('rounds %j to %i', (mix, srs) => {
    expect(computeSrs(mix.flatMap(([severity, count]) => failing(severity, count)))).toBe(srs);
  });

  it('rejects an unknown severity instead of scoring it', () => {
    expect(() => computeSrs([{ checkId: 'x.y', severity: 'SEVERE' }])).toThrow(/Unknown severity/);
  });
});
