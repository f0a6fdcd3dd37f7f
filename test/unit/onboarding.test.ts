import { spawnSync } from 'node:child_process';
import {
  BILLING_POLICY_NAME,
  billingReadPolicy,
  cliScript,
  MANAGED_POLICIES,
  ROLE_NAME,
  SCAN_POLICY_NAME,
  SCAN_READ_ACTIONS,
  scanReadPolicy,
  terraformSnippet,
  trustPolicy,
} from '../../domain/onboarding/role';
import { parseHcl } from '../helpers/role-definitions';

const setup = { sentinelAccountId: '123456789012', externalId: 'Zx9_-abcdefghijklmnopqrstuvwxyz012' };

describe('Terraform snippet', () => {
  const parsed = parseHcl(terraformSnippet(setup));
  const resource = (type: string, name: string) => {
    const found = parsed.resource.find((r) => r[type]?.[name]);
    if (!found) throw new Error(`no resource ${type}.${name}`);
    return found[type]![name]!;
  };

  it('creates the role, trusting only our account and only with our ExternalId', () => {
    const role = resource('aws_iam_role', 'sentinel');
    expect(role.name).toBe(ROLE_NAME);
    expect(JSON.parse(role.assume_role_policy!)).toEqual(trustPolicy(setup));
  });

  it('attaches both managed policies', () => {
    const attached = [
      resource('aws_iam_role_policy_attachment', 'sentinel_security_audit'),
      resource('aws_iam_role_policy_attachment', 'sentinel_view_only'),
    ];
    expect(attached.map((a) => a.policy_arn)).toEqual([...MANAGED_POLICIES]);
    expect(attached.map((a) => a.role)).toEqual(['${aws_iam_role.sentinel.name}', '${aws_iam_role.sentinel.name}']);
  });

  it('grants the billing reads inline', () => {
    const inline = resource('aws_iam_role_policy', 'sentinel_billing_read');
    expect(inline.name).toBe(BILLING_POLICY_NAME);
    expect(JSON.parse(inline.policy!)).toEqual(billingReadPolicy());
  });

  it('grants inline the scan reads the managed policies lack', () => {
    const inline = resource('aws_iam_role_policy', 'sentinel_scan_read');
    expect(inline.name).toBe(SCAN_POLICY_NAME);
    expect(inline.role).toBe('${aws_iam_role.sentinel.id}');
    expect(JSON.parse(inline.policy!)).toEqual(scanReadPolicy());
  });

  it('outputs the role ARN', () => {
    expect(parsed.output).toEqual([{ sentinel_role_arn: { value: '${aws_iam_role.sentinel.arn}' } }]);
  });
});

describe('scan read policy', () => {
  it('only reads: no change, and never a secret, an object or a log event', () => {
    expect(SCAN_READ_ACTIONS.length).toBeGreaterThan(0);
    for (const action of SCAN_READ_ACTIONS) {
      expect(action).toMatch(/^[a-z0-9-]+:(Get|List|Describe|BatchGet)[A-Za-z0-9]+$/);
      expect(action).not.toMatch(
        /^(secretsmanager:GetSecretValue|ssm:GetParameters?|ssm:GetParametersByPath|s3:GetObject.*|logs:(GetLogEvents|FilterLogEvents)|dynamodb:(GetItem|BatchGetItem|Scan|Query)|ecr:(BatchGetImage|GetDownloadUrlForLayer)|kms:Decrypt)$/,
      );
    }
    expect(new Set(SCAN_READ_ACTIONS).size).toBe(SCAN_READ_ACTIONS.length);
  });
});

describe('CLI script', () => {
  it('is valid bash', () => {
    const run = spawnSync('bash', ['-n'], { input: cliScript(setup), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('values pasted into the snippet and the script', () => {
  it('are refused when HCL or the shell could read them as code', () => {
    expect(() => cliScript({ ...setup, externalId: "x'; rm -rf ~; echo '" })).toThrow(/ExternalId/);
    expect(() => terraformSnippet({ ...setup, externalId: '${file("/etc/passwd")}' })).toThrow(/ExternalId/);
    expect(() => terraformSnippet({ ...setup, sentinelAccountId: '1234' })).toThrow(/12-digit/);
  });
});
