// The services whose resources AWS Organizations' resource control policies (RCPs) limit, by the prefix their actions
// carry in IAM. AWS Organizations User Guide, "Resource control policies (RCPs)", "List of AWS services that support
// RCPs" (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html#rcp-supported-services):
// Amazon S3, AWS STS, AWS KMS, Amazon SQS and AWS Secrets Manager since RCPs came out (November 2024), Amazon ECR and
// Amazon OpenSearch Serverless since June 2025, Amazon Cognito identity pools and Amazon CloudWatch Logs since
// January 2026, Amazon DynamoDB since February 2026. An RCP's statement about any other service's action changes
// nothing, even one that denies `*`: the list is AWS's, not the policy's.
const RCP_SERVICES: ReadonlySet<string> = new Set([
  's3',
  'sts',
  'kms',
  'sqs',
  'secretsmanager',
  'ecr',
  'aoss',
  'cognito-identity',
  'logs',
  'dynamodb',
]);

/**
 * Whether RCPs weigh on an action (`service:Name`, any case). `*` as the request's action, every action at once, is
 * no one service's: RCPs cannot deny all of it (IAM's, EC2's and the others' stay out of their reach).
 */
export function limitedByResourceControlPolicies(action: string): boolean {
  const colon = action.indexOf(':');
  return colon > 0 && RCP_SERVICES.has(action.slice(0, colon).toLowerCase());
}
