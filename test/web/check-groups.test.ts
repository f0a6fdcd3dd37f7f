import { groupByService } from '../../web/src/check-groups';

// The account page's checks by service: each group's coverage and failures, the failing groups first.
const check = (service: string, status: 'passed' | 'failed' | 'not_evaluated', label = service.toUpperCase()) => ({
  service,
  service_label: label,
  status,
});

describe('groupByService', () => {
  it("counts each group's evaluated, total and failed checks, failing groups first, the most failures first", () => {
    const groups = groupByService([
      check('s3', 'passed'),
      check('ec2', 'failed'),
      check('iam', 'not_evaluated'),
      check('s3', 'failed'),
      check('ec2', 'failed'),
      check('kms', 'passed'),
      check('iam', 'passed'),
      check('s3', 'not_evaluated'),
    ]);
    expect(groups.map(({ service, evaluated, total, failed }) => ({ service, evaluated, total, failed }))).toEqual([
      { service: 'ec2', evaluated: 2, total: 2, failed: 2 },
      { service: 's3', evaluated: 2, total: 3, failed: 1 },
      { service: 'iam', evaluated: 1, total: 2, failed: 0 },
      { service: 'kms', evaluated: 1, total: 1, failed: 0 },
    ]);
  });

  it('keeps the checks of a group in the order given, and its label', () => {
    const first = check('route53', 'passed', 'Route 53');
    const second = check('route53', 'failed', 'Route 53');
    expect(groupByService([first, second])).toEqual([
      { service: 'route53', label: 'Route 53', checks: [first, second], evaluated: 2, total: 2, failed: 1 },
    ]);
  });

  it('orders groups without failures by label, and has none for no checks', () => {
    expect(
      groupByService([check('vpc', 'passed', 'VPC'), check('acm', 'passed', 'Certificate Manager')]).map(
        (g) => g.label,
      ),
    ).toEqual(['Certificate Manager', 'VPC']);
    expect(groupByService([])).toEqual([]);
  });
});
