import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG } from '../../../domain/checks/catalog';
import { PROWLER_LEFT_OUT } from '../../../domain/checks/prowler-coverage';
import { PROJECT_ROOT } from '../../../scripts/tools';

// The breadth of the scan, measured against Prowler's CRITICAL and HIGH AWS checks (test/fixtures/
// prowler-aws-critical-high.tsv, from /work/shared/reference): every CRITICAL one is matched by a check of
// Sentinel's, every HIGH one is matched or left out with a reason (domain/checks/prowler-coverage.ts).

interface ProwlerCheck {
  service: string;
  id: string;
  severity: 'critical' | 'high';
}

const PROWLER: ProwlerCheck[] = readFileSync(
  path.join(PROJECT_ROOT, 'test/fixtures/prowler-aws-critical-high.tsv'),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  .map((line) => {
    const [service = '', id = '', severity = ''] = line.split('\t');
    if (severity !== 'critical' && severity !== 'high') throw new Error(`unexpected severity in: ${line}`);
    return { service, id, severity };
  });

/** Every Prowler id a check names, with the checks naming it. */
const named = new Map<string, string[]>();
for (const check of CATALOG) for (const id of check.prowler ?? []) named.set(id, [...(named.get(id) ?? []), check.id]);
const leftOut = new Map(PROWLER_LEFT_OUT.map((entry) => [entry.prowler, entry.reason]));

describe('Prowler coverage', () => {
  it('reads the whole fixture', () => {
    expect(PROWLER.filter((c) => c.severity === 'critical').length).toBeGreaterThan(50);
    expect(PROWLER.filter((c) => c.severity === 'high').length).toBeGreaterThan(150);
    expect(new Set(PROWLER.map((c) => c.id)).size).toBe(PROWLER.length);
  });

  it("names every CRITICAL Prowler check in a check's prowler list", () => {
    const critical = PROWLER.filter((c) => c.severity === 'critical');
    expect(critical.filter((c) => !named.has(c.id)).map((c) => c.id)).toEqual([]);
    expect(`${critical.filter((c) => named.has(c.id)).length}/${critical.length}`).toBe('64/64');
  });

  it('names every HIGH Prowler check in a check, or leaves it out with a reason', () => {
    const missing = PROWLER.filter((c) => c.severity === 'high' && !named.has(c.id) && !leftOut.has(c.id)).map(
      (c) => c.id,
    );
    expect(missing).toEqual([]);
  });

  it('never both names a Prowler check and leaves it out', () => {
    expect(
      PROWLER_LEFT_OUT.filter((entry) => named.has(entry.prowler)).map((e) => [e.prowler, named.get(e.prowler)]),
    ).toEqual([]);
  });

  it("leaves out only HIGH checks of Prowler's, each once and with a reason", () => {
    const severities = new Map(PROWLER.map((c) => [c.id, c.severity]));
    expect(PROWLER_LEFT_OUT.filter((entry) => severities.get(entry.prowler) !== 'high').map((e) => e.prowler)).toEqual(
      [],
    );
    expect(leftOut.size).toBe(PROWLER_LEFT_OUT.length);
    for (const entry of PROWLER_LEFT_OUT) expect(entry.reason.length).toBeGreaterThan(40);
  });

  it("names Prowler's checks by their ids", () => {
    expect([...named.keys()].filter((id) => !/^[a-z0-9]+(_[a-z0-9]+)+$/.test(id))).toEqual([]);
  });
});
