import { spawnSync } from 'node:child_process';
import { parse } from 'yaml';
import { accountRoleTemplate, EXTERNAL_ID_PARAMETER } from '../../domain/onboarding/cloudformation';
import {
  BILLING_POLICY_NAME,
  billingReadPolicy,
  MANAGED_POLICIES,
  ROLE_NAME,
  SCAN_POLICY_NAME,
  scanReadPolicy,
  trustPolicy,
} from '../../domain/onboarding/role';
import {
  DEPLOYMENT_TARGETS_PARAMETER,
  MEMBER_STACKSET_NAME,
  ORGANIZATION_POLICY_NAME,
  ORGANIZATION_ROLE_NAME,
  organizationOnboarding,
  organizationReadPolicy,
} from '../../domain/onboarding/organization';
import { cliScriptRole, templateRole, terraformRole } from '../helpers/role-definitions';

const setup = { sentinelAccountId: '123456789012', externalId: 'Org_ext-0123456789abcdefghijklmnopq' };
const onboarding = organizationOnboarding(setup);

describe('management account role', () => {
  const { management_role: role } = onboarding;

  it('is the same role, trust and policy in CloudFormation, Terraform and the CLI script', () => {
    const fromTemplate = templateRole(role.cloudformation_template, { [EXTERNAL_ID_PARAMETER]: setup.externalId });
    expect(fromTemplate).toEqual(terraformRole(role.terraform_snippet));
    expect(fromTemplate).toEqual(cliScriptRole(role.cli_script));
    expect(fromTemplate).toEqual({
      roleName: ORGANIZATION_ROLE_NAME,
      trustPolicy: trustPolicy(setup),
      managedPolicyArns: [],
      inlinePolicies: { [ORGANIZATION_POLICY_NAME]: organizationReadPolicy() },
    });
    expect(role.role_name).toBe(ORGANIZATION_ROLE_NAME);
  });

  it("may only read the organization's structure", () => {
    expect(organizationReadPolicy().Statement).toEqual([
      {
        Effect: 'Allow',
        Resource: '*',
        Action: [
          'organizations:DescribeOrganization',
          'organizations:ListAccounts',
          'organizations:ListRoots',
          'organizations:ListParents',
          'organizations:ListOrganizationalUnitsForParent',
          'organizations:DescribeOrganizationalUnit',
          'organizations:ListAccountsForParent',
          'organizations:DescribeAccount',
          'organizations:ListTagsForResource',
        ],
      },
    ]);
  });

  it('takes the ExternalId as a template parameter, and carries it in the Terraform snippet and the script', () => {
    expect(role.cloudformation_template).not.toContain(setup.externalId);
    expect(parse(role.cloudformation_template).Parameters[EXTERNAL_ID_PARAMETER]).toMatchObject({
      Type: 'String',
      MinLength: 2,
    });
    expect(role.terraform_snippet).toContain(setup.externalId);
    expect(role.cli_script).toContain(setup.externalId);
  });

  it('has a CLI script that is valid bash', () => {
    const run = spawnSync('bash', ['-n'], { input: role.cli_script, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('refuses values that HCL or the shell could read as code', () => {
    expect(() => organizationOnboarding({ ...setup, externalId: "x'; rm -rf ~; echo '" })).toThrow(/ExternalId/);
  });
});

describe('member StackSet template', () => {
  const parsed = parse(onboarding.member_stackset_template);
  const stackSet = Object.values(
    parsed.Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>,
  ).find((r) => r.Type === 'AWS::CloudFormation::StackSet');

  it('deploys through the organization to every account that joins the targets, and removes the role from leavers', () => {
    expect(stackSet?.Properties).toMatchObject({
      StackSetName: MEMBER_STACKSET_NAME,
      PermissionModel: 'SERVICE_MANAGED',
      AutoDeployment: { Enabled: true, RetainStacksOnAccountRemoval: false },
      Capabilities: ['CAPABILITY_NAMED_IAM'],
      StackInstancesGroup: [
        { DeploymentTargets: { OrganizationalUnitIds: { Ref: DEPLOYMENT_TARGETS_PARAMETER } }, Regions: ['us-east-1'] },
      ],
    });
    expect(parsed.Parameters[DEPLOYMENT_TARGETS_PARAMETER].Type).toBe('CommaDelimitedList');
  });

  it("creates the ordinary account role, with the organization's ExternalId passed down", () => {
    expect(stackSet?.Properties.TemplateBody).toBe(accountRoleTemplate({ sentinelAccountId: setup.sentinelAccountId }));
    expect(stackSet?.Properties.Parameters).toEqual([
      { ParameterKey: EXTERNAL_ID_PARAMETER, ParameterValue: { Ref: EXTERNAL_ID_PARAMETER } },
    ]);
    expect(parsed.Parameters[EXTERNAL_ID_PARAMETER]).toMatchObject({ Type: 'String' });
    expect(onboarding.member_stackset_template).not.toContain(setup.externalId);
  });

  it('gives each member role the managed policies and both inline policies of an account connected on its own', () => {
    const memberRole = templateRole(String(stackSet?.Properties.TemplateBody), {
      [EXTERNAL_ID_PARAMETER]: setup.externalId,
    });
    expect(memberRole).toEqual({
      roleName: ROLE_NAME,
      trustPolicy: trustPolicy(setup),
      managedPolicyArns: [...MANAGED_POLICIES],
      inlinePolicies: { [BILLING_POLICY_NAME]: billingReadPolicy(), [SCAN_POLICY_NAME]: scanReadPolicy() },
    });
  });
});
