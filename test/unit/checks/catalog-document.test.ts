import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG } from '../../../domain/checks/catalog';
import { checksDocument } from '../../../domain/checks/catalog-document';
import { PROWLER_LEFT_OUT } from '../../../domain/checks/prowler-coverage';
import { SERVICES } from '../../../domain/checks/services';
import { PROJECT_ROOT } from '../../../scripts/tools';

// docs/checks.md is what `npm run docs:checks` writes from the catalogue: it cannot drift from the code.

describe('docs/checks.md', () => {
  const document = checksDocument();

  it('is what npm run docs:checks generates from the catalogue (run it after changing a check)', () => {
    expect(readFileSync(path.join(PROJECT_ROOT, 'docs/checks.md'), 'utf8')).toBe(document);
  });

  it('lists every check once, under its service', () => {
    for (const check of CATALOG) {
      const rows = document.split('\n').filter((line) => line.startsWith(`| \`${check.id}\` |`));
      expect({ id: check.id, rows: rows.length }).toEqual({ id: check.id, rows: 1 });
      const heading = document.lastIndexOf('\n## ', document.indexOf(rows[0] ?? ''));
      expect(document.slice(heading + 4, document.indexOf('\n', heading + 4))).toBe(SERVICES[check.service]);
    }
  });

  it('shows the severity, controls and Prowler checks of a check', () => {
    const check = CATALOG.find((c) => (c.controls?.['cis-aws-7.0'] ?? []).length > 0)!;
    const line = document.split('\n').find((l) => l.startsWith(`| \`${check.id}\` |`))!;
    expect(line).toContain(`| ${check.severity} |`);
    for (const control of check.controls?.['cis-aws-7.0'] ?? []) expect(line).toContain(control);
    for (const id of check.prowler ?? []) expect(line).toContain(`\`${id}\``);
  });

  it('ends with the Prowler HIGH checks left out and why', () => {
    const section = document.slice(document.indexOf('## Prowler HIGH checks left out'));
    for (const entry of PROWLER_LEFT_OUT) expect(section).toContain(`| \`${entry.prowler}\` | ${entry.reason} |`);
  });
});
