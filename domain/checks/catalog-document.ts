import { CATALOG } from './catalog';
import { PROWLER_LEFT_OUT } from './prowler-coverage';
import { SERVICES, type Service } from './services';
import { type Check, severityRank } from './types';

// docs/checks.md: the catalogue of checks by service, with the compliance controls and the Prowler checks each
// matches, then the Prowler HIGH checks Sentinel leaves out and why. Written by `npm run docs:checks`
// (scripts/checks-doc.ts); test/unit/checks/catalog-document.test.ts fails when the committed file is not what this
// gives, so the document cannot drift from the code.

/** A table cell: a pipe would end the cell, a line break the row. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

const codes = (values: readonly string[] | undefined) =>
  values && values.length > 0 ? values.map((v) => `\`${v}\``).join(', ') : '';

const plain = (values: readonly string[] | undefined) => (values ?? []).join(', ');

function row(check: Check): string {
  return `| \`${check.id}\` | ${check.severity} | ${cell(check.title)} | ${plain(check.controls?.['cis-aws-7.0'])} | ${plain(check.controls?.['aws-fsbp'])} | ${codes(check.prowler)} |`;
}

/** The checks of a service, most severe first, then by id. */
function byService(service: Service): Check[] {
  return CATALOG.filter((check) => check.service === service).sort(
    (a, b) => severityRank(a.severity) - severityRank(b.severity) || a.id.localeCompare(b.id),
  );
}

export function checksDocument(): string {
  const services = (Object.keys(SERVICES) as Service[]).filter((service) => byService(service).length > 0);
  const sections = services.map((service) =>
    [
      `## ${SERVICES[service]}`,
      '',
      `Service id \`${service}\`: ${byService(service).length} ${byService(service).length === 1 ? 'check' : 'checks'}.`,
      '',
      '| Check | Severity | Title | CIS AWS 7.0 | AWS FSBP | Prowler |',
      '| --- | --- | --- | --- | --- | --- |',
      ...byService(service).map(row),
    ].join('\n'),
  );
  const leftOut = [...PROWLER_LEFT_OUT].sort((a, b) => a.prowler.localeCompare(b.prowler));
  return `${[
    '# Checks',
    '',
    `Every check Sentinel runs on an AWS account (${CATALOG.length} checks, ${services.length} services), grouped by the ` +
      'service whose resources it judges, as the dashboard groups them. For each: its id (the signals it opens carry ' +
      'it), severity and title, the CIS AWS Foundations Benchmark v7.0 and AWS Foundational Security Best Practices ' +
      'controls it supports, and the Prowler checks that detect the same condition. Generated from the catalogue ' +
      '(`domain/checks/catalog.ts`) by `npm run docs:checks`: do not edit by hand.',
    '',
    ...sections.flatMap((section) => [section, '']),
    '## Prowler HIGH checks left out',
    '',
    "Prowler's CRITICAL and HIGH checks for AWS measure the scan's breadth: each is to be matched by a check above " +
      '(its Prowler column), but for these HIGH ones, left out for the reason given (`domain/checks/prowler-coverage.ts`).',
    '',
    '| Prowler check | Why |',
    '| --- | --- |',
    ...leftOut.map((entry) => `| \`${entry.prowler}\` | ${cell(entry.reason)} |`),
  ].join('\n')}\n`;
}
