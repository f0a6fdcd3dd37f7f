// The account role as a CloudFormation template: the third way to create it, next to the Terraform snippet and
// the CLI script (domain/onboarding/role.ts), built from the same policies so the three cannot drift. The ExternalId
// is a template parameter, so the template holds nothing secret and is the same for every tenant (only the
// Sentinel account it trusts is baked in, one per deployment): it is published once, at one URL, and each
// tenant's quick-create link passes its own ExternalId.

import {
  assertAccountId,
  EXTERNAL_ID_CHARACTERS,
  EXTERNAL_ID_LENGTH,
  inlinePolicies,
  MANAGED_POLICIES,
  ROLE_NAME,
  trustPolicy,
} from './role';
import { toYaml, type YamlValue } from './yaml';

export const EXTERNAL_ID_PARAMETER = 'ExternalId';
/** The logical id of the role in the account role template. */
export const ACCOUNT_ROLE_RESOURCE = 'SentinelRole';

/** The ExternalId parameter every Sentinel template declares, constrained to AWS's own format for it. */
export function externalIdParameter(description: string) {
  return {
    Type: 'String',
    Description: description,
    MinLength: EXTERNAL_ID_LENGTH.min,
    MaxLength: EXTERNAL_ID_LENGTH.max,
    // CloudFormation matches the whole value against the pattern.
    AllowedPattern: `${EXTERNAL_ID_CHARACTERS}*`,
    ConstraintDescription: `${EXTERNAL_ID_LENGTH.min} to ${EXTERNAL_ID_LENGTH.max} letters, digits or any of _+=,.@:/-`,
  };
}

/** The trust policy of a template's role: our account, with the ExternalId the stack was given. */
export function templateTrustPolicy(sentinelAccountId: string) {
  return trustPolicy({ sentinelAccountId, externalId: { Ref: EXTERNAL_ID_PARAMETER } });
}

/** A role's ARN as a stack output. */
export function roleArnOutput(resource: string) {
  return { Description: 'The ARN of the role Sentinel assumes', Value: { 'Fn::GetAtt': [resource, 'Arn'] } };
}

export function accountRoleTemplate({ sentinelAccountId }: { sentinelAccountId: string }): string {
  assertAccountId(sentinelAccountId);
  const template: { [key: string]: YamlValue } = {
    AWSTemplateFormatVersion: '2010-09-09',
    Description:
      `The read-only role Sentinel assumes to monitor this account. It trusts only AWS account ${sentinelAccountId}, ` +
      'and only with the ExternalId Sentinel gave you.',
    Parameters: {
      [EXTERNAL_ID_PARAMETER]: externalIdParameter('The ExternalId Sentinel showed when you connected this account'),
    },
    Resources: {
      [ACCOUNT_ROLE_RESOURCE]: {
        Type: 'AWS::IAM::Role',
        Properties: {
          RoleName: ROLE_NAME,
          AssumeRolePolicyDocument: templateTrustPolicy(sentinelAccountId),
          ManagedPolicyArns: [...MANAGED_POLICIES],
          Policies: inlinePolicies().map((policy) => ({ PolicyName: policy.name, PolicyDocument: policy.document })),
        },
      },
    },
    Outputs: { RoleArn: roleArnOutput(ACCOUNT_ROLE_RESOURCE) },
  };
  return toYaml(template);
}

/**
 * The console link that opens CloudFormation's quick-create page for a published template with the stack name
 * and the parameters filled in (`param_<name>`): the customer only acknowledges the IAM capability and creates the
 * stack. The template must be in Amazon S3 (cloud/aws/template-publisher.ts). The console reads the query after `#`.
 */
export function quickCreateUrl({
  templateUrl,
  parameters,
  stackName = 'Sentinel',
  region = 'us-east-1',
}: {
  templateUrl: string;
  parameters: Readonly<Record<string, string>>;
  stackName?: string;
  region?: string;
}): string {
  const fields: [string, string][] = [
    ['templateURL', templateUrl],
    ['stackName', stackName],
    ...Object.entries(parameters).map(([name, value]): [string, string] => [`param_${name}`, value]),
  ];
  const query = fields.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `https://console.aws.amazon.com/cloudformation/home?region=${encodeURIComponent(region)}#/stacks/quickcreate?${query}`;
}
