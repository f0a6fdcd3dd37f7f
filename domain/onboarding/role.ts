// The cross-account role a customer creates to connect an account: an infrastructure-as-code snippet and
// an equivalent CLI script. Both trust only the service's own AWS account, and only with our ExternalId.
// Given a forwarder setup, both also create the event forwarder (domain/onboarding/forwarder-templates.ts).

import { type ForwarderSetup, forwarderCliScript, forwarderTerraform } from './forwarder-templates';

export const ROLE_NAME = 'SentinelReadOnly';
export const MANAGED_POLICIES = [
  'arn:aws:iam::aws:policy/SecurityAudit',
  'arn:aws:iam::aws:policy/job-function/ViewOnlyAccess',
] as const;

/** Billing and account reads that SecurityAudit and ViewOnlyAccess do not grant. */
export const BILLING_READ_ACTIONS = [
  'ce:GetCostAndUsage',
  'ce:GetCostForecast',
  'ce:GetAnomalies',
  'ce:GetAnomalyMonitors',
  // Authorizes the Budgets API's DescribeBudgets too (IAM has no budgets:DescribeBudgets action).
  'budgets:ViewBudget',
  'account:GetAlternateContact',
  'account:GetContactInformation',
  'health:DescribeEvents',
  'health:DescribeEventDetails',
  'support:DescribeTrustedAdvisorChecks',
] as const;

export const BILLING_POLICY_NAME = 'SentinelBillingRead';

/**
 * The scan's reads that SecurityAudit and ViewOnlyAccess do not grant: each was looked for in both policies' current
 * documents, and test/helpers/role-grants.ts fails every collector test whose calls the role would be refused. Reads
 * of configuration only: never a secret's value (secretsmanager:GetSecretValue, ssm:GetParameter), an object, a log
 * event or a table's items.
 */
export const SCAN_READ_ACTIONS = [
  // A function's configuration with the link to its code package, searched for secrets: the managed policies grant
  // lambda:GetFunctionConfiguration and lambda:List*, not GetFunction.
  'lambda:GetFunction',
  // A layer's version with the link to its content, searched for secrets like a function's code.
  'lambda:GetLayerVersion',
  // The account's own Systems Manager documents' content, searched for secrets (SecurityAudit lists and describes
  // documents, and does not read them).
  'ssm:GetDocument',
  // Glue connections' properties (JDBC SSL, secrets written into URLs or custom keys): SecurityAudit grants
  // glue:GetConnection(s) to neither. The collector asks with HidePassword, so the password Glue keeps is not returned.
  'glue:GetConnections',
  // Who an SES identity's sending authorization policies let send as it (SES v2): SecurityAudit names only v1's.
  'ses:GetEmailIdentityPolicies',
  // The origin of a CodeArtifact package's latest version (internal or from upstream), for dependency confusion:
  // SecurityAudit lists repositories and packages, not their versions. It names versions, never reads their assets.
  'codeartifact:ListPackageVersions',
  // Whether a Lightsail managed database is in public mode: SecurityAudit and ViewOnlyAccess grant
  // lightsail:GetInstances but no read of Lightsail's databases.
  'lightsail:GetRelationalDatabases',
] as const;

export const SCAN_POLICY_NAME = 'SentinelScanRead';

/** The role Sentinel assumes in a customer's account (or an organization's management account), with its ExternalId. */
export interface RoleTarget {
  tenantId: string;
  awsAccountId: string;
  roleName: string;
  externalId: string;
}

export interface RoleSetup {
  sentinelAccountId: string;
  externalId: string;
}

/** AWS's format for an ExternalId: 2 to 1224 of these characters (also the CloudFormation parameter's constraint). */
export const EXTERNAL_ID_CHARACTERS = '[\\w+=,.@:/-]';
export const EXTERNAL_ID_LENGTH = { min: 2, max: 1224 } as const;
const EXTERNAL_ID = new RegExp(`^${EXTERNAL_ID_CHARACTERS}{${EXTERNAL_ID_LENGTH.min},${EXTERNAL_ID_LENGTH.max}}$`);

export function assertAccountId(sentinelAccountId: string): void {
  if (!/^[0-9]{12}$/.test(sentinelAccountId)) throw new Error('sentinelAccountId must be a 12-digit AWS account id');
}

// Both values end up inside HCL heredocs and single-quoted shell words. AWS's own formats for them (12
// digits; ExternalId: 2-1224 of [\w+=,.@:/-]) contain nothing that either language would interpret.
export function assertPastable({ sentinelAccountId, externalId }: RoleSetup): void {
  assertAccountId(sentinelAccountId);
  if (!EXTERNAL_ID.test(externalId)) throw new Error('externalId is not a valid AWS ExternalId');
}

/** The ExternalId is a string, or a template's reference to its parameter (domain/onboarding/cloudformation.ts). */
export function trustPolicy<ExternalId = string>({
  sentinelAccountId,
  externalId,
}: {
  sentinelAccountId: string;
  externalId: ExternalId;
}) {
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${sentinelAccountId}:root` },
        Action: 'sts:AssumeRole',
        Condition: { StringEquals: { 'sts:ExternalId': externalId } },
      },
    ],
  };
}

export function billingReadPolicy() {
  return { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: [...BILLING_READ_ACTIONS], Resource: '*' }] };
}

export function scanReadPolicy() {
  return { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: [...SCAN_READ_ACTIONS], Resource: '*' }] };
}

export interface InlinePolicy {
  name: string;
  /** The name of its aws_iam_role_policy resource in the Terraform snippet. */
  terraformName: string;
  document: { Version: string; Statement: { Effect: string; Action: string[]; Resource: string }[] };
}

/** The role's inline policies, in the order every form (snippet, script, templates) puts them on the role. */
export function inlinePolicies(): InlinePolicy[] {
  return [
    { name: BILLING_POLICY_NAME, terraformName: 'sentinel_billing_read', document: billingReadPolicy() },
    { name: SCAN_POLICY_NAME, terraformName: 'sentinel_scan_read', document: scanReadPolicy() },
  ];
}

export function roleArn(awsAccountId: string): string {
  return `arn:aws:iam::${awsAccountId}:role/${ROLE_NAME}`;
}

export interface OnboardingOptions {
  /** When given, the event forwarder is appended: the key and endpoint its EventBridge connection uses. */
  forwarder?: ForwarderSetup;
}

/** Terraform for the role. Its policies are the literal JSON the CLI script sends, so both grant the same. */
export function terraformSnippet(setup: RoleSetup, { forwarder }: OnboardingOptions = {}): string {
  assertPastable(setup);
  const role = `# Creates the read-only role Sentinel assumes. Apply with: terraform init && terraform apply
resource "aws_iam_role" "sentinel" {
  name               = "${ROLE_NAME}"
  assume_role_policy = <<POLICY
${JSON.stringify(trustPolicy(setup), null, 2)}
POLICY
}

resource "aws_iam_role_policy_attachment" "sentinel_security_audit" {
  role       = aws_iam_role.sentinel.name
  policy_arn = "${MANAGED_POLICIES[0]}"
}

resource "aws_iam_role_policy_attachment" "sentinel_view_only" {
  role       = aws_iam_role.sentinel.name
  policy_arn = "${MANAGED_POLICIES[1]}"
}

${inlinePolicies()
  .map(
    (policy) => `resource "aws_iam_role_policy" "${policy.terraformName}" {
  name   = "${policy.name}"
  role   = aws_iam_role.sentinel.id
  policy = <<POLICY
${JSON.stringify(policy.document, null, 2)}
POLICY
}
`,
  )
  .join('\n')}
output "sentinel_role_arn" {
  value = aws_iam_role.sentinel.arn
}
`;
  return forwarder ? `${role}\n${forwarderTerraform(forwarder)}` : role;
}

export function cliScript(setup: RoleSetup, { forwarder }: OnboardingOptions = {}): string {
  assertPastable(setup);
  const role = `#!/usr/bin/env bash
# Creates the read-only role Sentinel assumes, with the AWS CLI. Run it with credentials for the account to connect.
set -euo pipefail
aws iam create-role --role-name ${ROLE_NAME} \\
  --assume-role-policy-document '${JSON.stringify(trustPolicy(setup))}'
aws iam attach-role-policy --role-name ${ROLE_NAME} --policy-arn ${MANAGED_POLICIES[0]}
aws iam attach-role-policy --role-name ${ROLE_NAME} --policy-arn ${MANAGED_POLICIES[1]}
${inlinePolicies()
  .map(
    (policy) => `aws iam put-role-policy --role-name ${ROLE_NAME} --policy-name ${policy.name} \\
  --policy-document '${JSON.stringify(policy.document)}'
`,
  )
  .join('')}echo "Role created: $(aws iam get-role --role-name ${ROLE_NAME} --query Role.Arn --output text)"
`;
  return forwarder ? `${role}${forwarderCliScript(forwarder)}` : role;
}
