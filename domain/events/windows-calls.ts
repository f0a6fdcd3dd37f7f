// The calls the detections with memory count that no other detection reads (domain/events/windows.ts): data only, so
// the forwarding rules (domain/events/forwarding-rules.ts) forward exactly these without importing the detections.

/** The error codes of a call refused for want of permission (services spell it their own way). */
export const DENIED_ERROR_CODES: readonly string[] = Object.freeze([
  'AccessDenied',
  'AccessDeniedException',
  'UnauthorizedOperation',
  'Client.UnauthorizedOperation',
  'UnauthorizedAccess',
  'AuthorizationError',
]);

/**
 * The discovery calls the enumeration window counts, per CloudTrail event source: what enumeration tools and
 * intruders call first (Stratus Red Team's discovery technique, Pacu's and ScoutSuite's first modules). Only these are
 * forwarded for it (domain/events/forwarding-rules.ts): every read-only call of the account would cost far more.
 */
export const DISCOVERY_CALLS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'sts.amazonaws.com': ['GetCallerIdentity'],
  'iam.amazonaws.com': [
    'GetAccountSummary',
    'GetAccountAuthorizationDetails',
    'ListUsers',
    'ListRoles',
    'ListGroups',
    'ListPolicies',
    'ListAccessKeys',
    'ListAttachedUserPolicies',
    'ListAttachedRolePolicies',
  ],
  's3.amazonaws.com': ['ListBuckets'],
  'ec2.amazonaws.com': ['DescribeInstances', 'DescribeSnapshots', 'DescribeSecurityGroups', 'DescribeVpcs'],
  'cloudtrail.amazonaws.com': ['DescribeTrails'],
  'guardduty.amazonaws.com': ['ListDetectors'],
  'lambda.amazonaws.com': ['ListFunctions20150331'],
  'rds.amazonaws.com': ['DescribeDBInstances'],
  'secretsmanager.amazonaws.com': ['ListSecrets'],
  'ssm.amazonaws.com': ['DescribeParameters'],
  'organizations.amazonaws.com': ['DescribeOrganization', 'ListAccounts'],
});
