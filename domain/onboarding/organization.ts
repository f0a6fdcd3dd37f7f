// Onboarding an AWS Organization: a role in the management account that only reads the organization's
// structure (as a CloudFormation template, a Terraform snippet and a CLI script, granting the same), and a
// StackSet template that creates the ordinary account role (domain/onboarding/cloudformation.ts) in every member account,
// now and as accounts join.

import {
  accountRoleTemplate,
  EXTERNAL_ID_PARAMETER,
  externalIdParameter,
  roleArnOutput,
  templateTrustPolicy,
} from './cloudformation';
import { assertPastable, ROLE_NAME, type RoleSetup, trustPolicy } from './role';
import { toYaml } from './yaml';

export const ORGANIZATION_ROLE_NAME = 'SentinelOrganizationRead';
export const ORGANIZATION_POLICY_NAME = 'SentinelOrganizationRead';
/** The member-role StackSet's name in the management account. */
export const MEMBER_STACKSET_NAME = 'SentinelMemberRoles';
/** The parameter of the StackSet template naming where to deploy: the root (every member) or OUs. */
export const DEPLOYMENT_TARGETS_PARAMETER = 'OrganizationalUnitIds';

/** Reads of the organization's structure and nothing else: no account's resources, no changes. */
export const ORGANIZATION_READ_ACTIONS = [
  'organizations:DescribeOrganization',
  'organizations:ListAccounts',
  'organizations:ListRoots',
  'organizations:ListParents',
  'organizations:ListOrganizationalUnitsForParent',
  'organizations:DescribeOrganizationalUnit',
  'organizations:ListAccountsForParent',
  'organizations:DescribeAccount',
  'organizations:ListTagsForResource',
] as const;

const MANAGEMENT_ROLE_RESOURCE = 'SentinelOrganizationRole';

export function organizationReadPolicy() {
  // Resource '*': DescribeOrganization, ListRoots and ListAccounts take no resource ARN.
  return {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: [...ORGANIZATION_READ_ACTIONS], Resource: '*' }],
  };
}

export interface OrganizationOnboarding {
  management_role: {
    role_name: string;
    cloudformation_template: string;
    terraform_snippet: string;
    cli_script: string;
  };
  member_stackset_template: string;
}

/**
 * What a customer runs to connect an organization. The CloudFormation templates take the ExternalId as a
 * parameter (a quick-create link passes it), so they are the same for every tenant; the Terraform snippet and
 * the CLI script carry it, like the account role's (domain/onboarding/role.ts).
 */
export function organizationOnboarding(setup: RoleSetup): OrganizationOnboarding {
  assertPastable(setup);
  return {
    management_role: {
      role_name: ORGANIZATION_ROLE_NAME,
      cloudformation_template: managementRoleTemplate(setup.sentinelAccountId),
      terraform_snippet: managementRoleTerraform(setup),
      cli_script: managementRoleCliScript(setup),
    },
    member_stackset_template: memberStackSetTemplate(setup.sentinelAccountId),
  };
}

function managementRoleTemplate(sentinelAccountId: string): string {
  return toYaml({
    AWSTemplateFormatVersion: '2010-09-09',
    Description:
      `The role Sentinel assumes in your management account to read the organization's accounts and OUs (nothing else). ` +
      `It trusts only AWS account ${sentinelAccountId}, and only with the ExternalId Sentinel gave you.`,
    Parameters: {
      [EXTERNAL_ID_PARAMETER]: externalIdParameter(
        'The ExternalId Sentinel showed when you connected this organization',
      ),
    },
    Resources: {
      [MANAGEMENT_ROLE_RESOURCE]: {
        Type: 'AWS::IAM::Role',
        Properties: {
          RoleName: ORGANIZATION_ROLE_NAME,
          AssumeRolePolicyDocument: templateTrustPolicy(sentinelAccountId),
          Policies: [{ PolicyName: ORGANIZATION_POLICY_NAME, PolicyDocument: organizationReadPolicy() }],
        },
      },
    },
    Outputs: { RoleArn: roleArnOutput(MANAGEMENT_ROLE_RESOURCE) },
  });
}

/**
 * The StackSet that gives every member account the account role, created in the management account.
 *
 * SERVICE_MANAGED: CloudFormation deploys through the organization (trusted access for StackSets must be
 * activated once) and, with AutoDeployment, creates the role in each account that joins the targets and
 * deletes it from each that leaves. Service-managed StackSets never deploy to the management account itself,
 * even when the root is the target: to monitor it, connect it as an ordinary account (POST /accounts).
 *
 * Every member role trusts the organization's one ExternalId, passed down as the StackSet's parameter. One
 * region is enough, IAM being global. An account that already has the role (connected on its own before) fails
 * its stack instance; the tolerance lets the StackSet go on with the others, and its operation lists the failure.
 */
function memberStackSetTemplate(sentinelAccountId: string): string {
  return toYaml({
    AWSTemplateFormatVersion: '2010-09-09',
    Description:
      `Creates Sentinel's read-only role (${ROLE_NAME}) in every member account of the organization, and in each ` +
      'account that joins later. Create it in the management account, with trusted access for StackSets activated.',
    Parameters: {
      [EXTERNAL_ID_PARAMETER]: externalIdParameter(
        'The ExternalId Sentinel showed when you connected this organization',
      ),
      [DEPLOYMENT_TARGETS_PARAMETER]: {
        Type: 'CommaDelimitedList',
        Description:
          "Where to create the role: the organization's root id (r-...) for every member account, or OU ids (ou-...)",
      },
    },
    Resources: {
      MemberRoles: {
        Type: 'AWS::CloudFormation::StackSet',
        Properties: {
          StackSetName: MEMBER_STACKSET_NAME,
          Description: `Sentinel's read-only role (${ROLE_NAME}) in each member account`,
          PermissionModel: 'SERVICE_MANAGED',
          AutoDeployment: { Enabled: true, RetainStacksOnAccountRemoval: false },
          Capabilities: ['CAPABILITY_NAMED_IAM'],
          OperationPreferences: { FailureTolerancePercentage: 100, MaxConcurrentPercentage: 100 },
          Parameters: [{ ParameterKey: EXTERNAL_ID_PARAMETER, ParameterValue: { Ref: EXTERNAL_ID_PARAMETER } }],
          StackInstancesGroup: [
            {
              DeploymentTargets: { OrganizationalUnitIds: { Ref: DEPLOYMENT_TARGETS_PARAMETER } },
              Regions: ['us-east-1'],
            },
          ],
          TemplateBody: accountRoleTemplate({ sentinelAccountId }),
        },
      },
    },
  });
}

function managementRoleTerraform(setup: RoleSetup): string {
  return `# Creates the role Sentinel assumes in the management account to read the organization. Apply with: terraform init && terraform apply
resource "aws_iam_role" "sentinel_organization" {
  name               = "${ORGANIZATION_ROLE_NAME}"
  assume_role_policy = <<POLICY
${JSON.stringify(trustPolicy(setup), null, 2)}
POLICY
}

resource "aws_iam_role_policy" "sentinel_organization_read" {
  name   = "${ORGANIZATION_POLICY_NAME}"
  role   = aws_iam_role.sentinel_organization.id
  policy = <<POLICY
${JSON.stringify(organizationReadPolicy(), null, 2)}
POLICY
}

output "sentinel_organization_role_arn" {
  value = aws_iam_role.sentinel_organization.arn
}
`;
}

function managementRoleCliScript(setup: RoleSetup): string {
  return `#!/usr/bin/env bash
# Creates the role Sentinel assumes to read the organization, with the AWS CLI. Run it with credentials for the management account.
set -euo pipefail
aws iam create-role --role-name ${ORGANIZATION_ROLE_NAME} \\
  --assume-role-policy-document '${JSON.stringify(trustPolicy(setup))}'
aws iam put-role-policy --role-name ${ORGANIZATION_ROLE_NAME} --policy-name ${ORGANIZATION_POLICY_NAME} \\
  --policy-document '${JSON.stringify(organizationReadPolicy())}'
echo "Role created: $(aws iam get-role --role-name ${ORGANIZATION_ROLE_NAME} --query Role.Arn --output text)"
`;
}
