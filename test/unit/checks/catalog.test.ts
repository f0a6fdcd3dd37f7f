import { CATALOG, checkById } from '../../../domain/checks/catalog';
import { SCENARIOS, SEVERITIES } from '../../../domain/checks/types';

describe('check catalog', () => {
  it('has at least 30 checks with unique ids', () => {
    const ids = CATALOG.map((check) => check.id);
    expect(ids.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('covers every scenario', () => {
    expect(new Set(CATALOG.map((check) => check.scenario))).toEqual(new Set(SCENARIOS));
  });

  it.each(CATALOG.map((check) => [check.id, check] as const))('%s is well-formed', (id, check) => {
    expect(id).toMatch(new RegExp(`^${check.scenario}\\.[a-z0-9]+(_[a-z0-9]+)*$`));
    expect(SCENARIOS).toContain(check.scenario);
    expect(SEVERITIES).toContain(check.severity);
    expect(check.title.length).toBeGreaterThan(0);
    expect(check.description.length).toBeGreaterThan(20);
    expect(check.remediation.length).toBeGreaterThan(40);
    // Both ways of fixing it: where in the console, and the AWS CLI command.
    expect(check.remediation).toMatch(/console/i);
    expect(check.remediation).toContain('aws ');
    expect(new URL(check.docsUrl)).toMatchObject({ protocol: 'https:', hostname: 'docs.aws.amazon.com' });
  });

  it('finds checks by id', () => {
    expect(checkById('iam.root_mfa_disabled')?.severity).toBe('CRITICAL');
    expect(checkById('iam.no_such_check')).toBeUndefined();
  });
});
