import { randomBytes } from 'node:crypto';
import { parse } from 'yaml';
import { templateVersion } from '../../cloud/aws/template-publisher';
import { accountRoleTemplate, EXTERNAL_ID_PARAMETER, quickCreateUrl } from '../../domain/onboarding/cloudformation';
import {
  BILLING_POLICY_NAME,
  billingReadPolicy,
  cliScript,
  MANAGED_POLICIES,
  ROLE_NAME,
  SCAN_POLICY_NAME,
  scanReadPolicy,
  terraformSnippet,
  trustPolicy,
} from '../../domain/onboarding/role';
import { cliScriptRole, templateRole, terraformRole } from '../helpers/role-definitions';

const sentinelAccountId = '123456789012';
const externalId = randomBytes(24).toString('base64url');
const template = accountRoleTemplate({ sentinelAccountId });
const parsed = parse(template);

describe('account role template', () => {
  it("is a CloudFormation template in YAML with the ExternalId as a parameter constrained to AWS's format", () => {
    expect(parsed.AWSTemplateFormatVersion).toBe('2010-09-09');
    const parameter = parsed.Parameters[EXTERNAL_ID_PARAMETER];
    expect(parameter).toMatchObject({ Type: 'String', MinLength: 2, MaxLength: 1224 });
    // CloudFormation matches AllowedPattern against the whole value (Java regex; these constructs read the same in JS).
    const allowed = new RegExp(`^(?:${parameter.AllowedPattern})$`);
    expect(allowed.test(externalId)).toBe(true);
    expect(allowed.test('a+b=c,d.e@f:g/h-i_J')).toBe(true);
    expect(allowed.test("x'y")).toBe(false);
    expect(allowed.test('two words')).toBe(false);
  });

  it('holds no ExternalId: every tenant gets the same template, which changes only with the Sentinel account', () => {
    expect(template).not.toContain(externalId);
    expect(accountRoleTemplate({ sentinelAccountId })).toBe(template);
    expect(accountRoleTemplate({ sentinelAccountId: '210987654321' })).not.toBe(template);
  });

  it('creates the role the CLI script and the Terraform snippet create, with the same policies', () => {
    const setup = { sentinelAccountId, externalId };
    const fromTemplate = templateRole(template, { [EXTERNAL_ID_PARAMETER]: externalId });
    expect(fromTemplate).toEqual(cliScriptRole(cliScript(setup)));
    expect(fromTemplate).toEqual(terraformRole(terraformSnippet(setup)));
    expect(fromTemplate).toEqual({
      roleName: ROLE_NAME,
      trustPolicy: trustPolicy(setup),
      managedPolicyArns: [...MANAGED_POLICIES],
      inlinePolicies: { [BILLING_POLICY_NAME]: billingReadPolicy(), [SCAN_POLICY_NAME]: scanReadPolicy() },
    });
  });

  it('outputs the role ARN', () => {
    expect(parsed.Outputs.RoleArn.Value).toEqual({ 'Fn::GetAtt': ['SentinelRole', 'Arn'] });
  });

  it('refuses a Sentinel account id that is not 12 digits', () => {
    expect(() => accountRoleTemplate({ sentinelAccountId: '1234' })).toThrow(/12-digit/);
  });
});

describe('templateVersion', () => {
  it('is a short hash that stays with the content and changes with it', () => {
    expect(templateVersion(template)).toMatch(/^[0-9a-f]{16}$/);
    expect(templateVersion(accountRoleTemplate({ sentinelAccountId }))).toBe(templateVersion(template));
    expect(templateVersion(`${template} `)).not.toBe(templateVersion(template));
    expect(templateVersion(template.replace('SentinelReadOnly', 'SentinelReadOnlz'))).not.toBe(
      templateVersion(template),
    );
  });
});

describe('quickCreateUrl', () => {
  const templateUrl =
    'https://templates.s3.eu-west-1.amazonaws.com/cloudformation/sentinel-account-role-0123456789abcdef.yaml';

  it("opens the console's quick-create page in the region with the template, stack name and parameters filled in", () => {
    const link = new URL(
      quickCreateUrl({ templateUrl, parameters: { [EXTERNAL_ID_PARAMETER]: externalId }, region: 'eu-west-1' }),
    );
    expect(`${link.origin}${link.pathname}`).toBe('https://console.aws.amazon.com/cloudformation/home');
    expect(link.searchParams.get('region')).toBe('eu-west-1');
    expect(link.hash.startsWith('#/stacks/quickcreate?')).toBe(true);
    const query = new URLSearchParams(link.hash.slice('#/stacks/quickcreate?'.length));
    expect(Object.fromEntries(query)).toEqual({
      templateURL: templateUrl,
      stackName: 'Sentinel',
      param_ExternalId: externalId,
    });
  });

  it('encodes every value, so an ExternalId with + / = & keeps its characters', () => {
    const tricky = 'a+b/c=d&e';
    const link = quickCreateUrl({
      templateUrl,
      parameters: { [EXTERNAL_ID_PARAMETER]: tricky },
      stackName: 'Sentinel-Prod',
    });
    expect(link).toContain('param_ExternalId=a%2Bb%2Fc%3Dd%26e');
    expect(link).toContain(`templateURL=${encodeURIComponent(templateUrl)}`);
    expect(link).toContain('region=us-east-1#');
    const query = new URLSearchParams(
      link.slice(link.indexOf('#/stacks/quickcreate?') + '#/stacks/quickcreate?'.length),
    );
    expect(query.get('param_ExternalId')).toBe(tricky);
    expect(query.get('stackName')).toBe('Sentinel-Prod');
  });
});
