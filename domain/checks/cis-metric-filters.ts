// The CIS v7.0 section 5 controls (5.1-5.15): each asks for a CloudWatch Logs metric filter, on the log group a
// multi-region trail delivers to, that catches a kind of API activity, with an alarm on the filter's metric.
// Whether a filter's pattern catches it is decided as Prowler does (its cloudwatch_log_metric_filter_* checks):
// every clause the benchmark's pattern has must appear in the filter's pattern, in any order.

export interface MonitoredActivity {
  control: string;
  /** The failing resource that stands for the control: `cis-<control>-<slug>`. */
  resource: string;
  /** What goes unwatched, for the finding's sentence ("root user activity"). */
  activity: string;
  /** Whether a filter pattern catches the activity. */
  matches: RegExp;
  /** The filter pattern the benchmark recommends, to paste into the console. */
  recommended: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Clauses {
  source?: string;
  names: string[];
  extra?: [field: string, operator: '=' | '!=', value: string][];
}

/**
 * A pattern that requires every clause, in any order; an event name must match whole (CreateRoute is not CreateRouteTable).
 * Anchored: each lookahead already reads the whole pattern, so trying it again from every later position (what an
 * unanchored search does before it fails) only multiplies the work by the pattern's length.
 */
function requiring({ source, names, extra = [] }: Clauses): RegExp {
  const parts = [
    '^',
    ...(source ? [`(?=.*\\$\\.eventSource\\s*=\\s*.?${escape(source)})`] : []),
    ...names.map((name) => `(?=.*\\$\\.eventName\\s*=\\s*.?${escape(name)}\\b)`),
    ...extra.map(
      ([field, operator, value]) => `(?=.*\\$\\.${escape(field)}\\s*${escape(operator)}\\s*.?${escape(value)})`,
    ),
  ];
  return new RegExp(parts.join(''), 's');
}

const quoted = (value: string) => (/^[\w.*-]+$/.test(value) ? value : `"${value}"`);

/** The benchmark's form of the same clauses: `{ ($.eventSource = s) && (($.eventName = A) || ...) && (...) }`. */
function recommendedFor({ source, names, extra = [] }: Clauses): string {
  const terms = [
    ...(source ? [`($.eventSource = ${source})`] : []),
    names.length === 1 ? `($.eventName = ${names[0]})` : `(${names.map((n) => `($.eventName = ${n})`).join(' || ')})`,
    ...extra.map(([field, operator, value]) => `($.${field} ${operator} ${quoted(value)})`),
  ];
  return `{ ${terms.join(' && ')} }`;
}

function onEvents(control: string, slug: string, activity: string, clauses: Clauses): MonitoredActivity {
  return {
    control,
    resource: `cis-${control}-${slug}`,
    activity,
    matches: requiring(clauses),
    recommended: recommendedFor(clauses),
  };
}

export const MONITORED_ACTIVITIES: readonly MonitoredActivity[] = [
  {
    control: '5.1',
    resource: 'cis-5.1-unauthorized-api-calls',
    activity: 'unauthorized API calls',
    matches: /\$\.errorCode\s*=\s*.?\*UnauthorizedOperation.+\$\.errorCode\s*=\s*.?AccessDenied\*.?/s,
    recommended: '{ ($.errorCode = "*UnauthorizedOperation") || ($.errorCode = "AccessDenied*") }',
  },
  onEvents('5.2', 'console-sign-in-without-mfa', 'console sign-ins without MFA', {
    names: ['ConsoleLogin'],
    extra: [['additionalEventData.MFAUsed', '!=', 'Yes']],
  }),
  {
    control: '5.3',
    resource: 'cis-5.3-root-usage',
    activity: 'use of the root user',
    matches:
      /\$\.userIdentity\.type\s*=\s*.?Root.+\$\.userIdentity\.invokedBy NOT EXISTS.+\$\.eventType\s*!=\s*.?AwsServiceEvent.?/s,
    recommended:
      '{ $.userIdentity.type = "Root" && $.userIdentity.invokedBy NOT EXISTS && $.eventType != "AwsServiceEvent" }',
  },
  onEvents('5.4', 'iam-policy-changes', 'IAM policy changes', {
    names: [
      'DeleteGroupPolicy',
      'DeleteRolePolicy',
      'DeleteUserPolicy',
      'PutGroupPolicy',
      'PutRolePolicy',
      'PutUserPolicy',
      'CreatePolicy',
      'DeletePolicy',
      'CreatePolicyVersion',
      'DeletePolicyVersion',
      'AttachRolePolicy',
      'DetachRolePolicy',
      'AttachUserPolicy',
      'DetachUserPolicy',
      'AttachGroupPolicy',
      'DetachGroupPolicy',
    ],
  }),
  onEvents('5.5', 'cloudtrail-changes', 'CloudTrail configuration changes', {
    names: ['CreateTrail', 'UpdateTrail', 'DeleteTrail', 'StartLogging', 'StopLogging'],
  }),
  onEvents('5.6', 'console-authentication-failures', 'console authentication failures', {
    names: ['ConsoleLogin'],
    extra: [['errorMessage', '=', 'Failed authentication']],
  }),
  onEvents('5.7', 'kms-key-disabling-or-deletion', 'disabling or scheduled deletion of KMS keys', {
    source: 'kms.amazonaws.com',
    names: ['DisableKey', 'ScheduleKeyDeletion'],
  }),
  onEvents('5.8', 's3-bucket-policy-changes', 'S3 bucket policy changes', {
    source: 's3.amazonaws.com',
    names: [
      'PutBucketAcl',
      'PutBucketPolicy',
      'PutBucketCors',
      'PutBucketLifecycle',
      'PutBucketReplication',
      'DeleteBucketPolicy',
      'DeleteBucketCors',
      'DeleteBucketLifecycle',
      'DeleteBucketReplication',
    ],
  }),
  onEvents('5.9', 'config-changes', 'AWS Config configuration changes', {
    source: 'config.amazonaws.com',
    names: ['StopConfigurationRecorder', 'DeleteDeliveryChannel', 'PutDeliveryChannel', 'PutConfigurationRecorder'],
  }),
  onEvents('5.10', 'security-group-changes', 'security group changes', {
    names: [
      'AuthorizeSecurityGroupIngress',
      'AuthorizeSecurityGroupEgress',
      'RevokeSecurityGroupIngress',
      'RevokeSecurityGroupEgress',
      'CreateSecurityGroup',
      'DeleteSecurityGroup',
    ],
  }),
  onEvents('5.11', 'nacl-changes', 'network ACL changes', {
    names: [
      'CreateNetworkAcl',
      'CreateNetworkAclEntry',
      'DeleteNetworkAcl',
      'DeleteNetworkAclEntry',
      'ReplaceNetworkAclEntry',
      'ReplaceNetworkAclAssociation',
    ],
  }),
  onEvents('5.12', 'network-gateway-changes', 'network gateway changes', {
    names: [
      'CreateCustomerGateway',
      'DeleteCustomerGateway',
      'AttachInternetGateway',
      'CreateInternetGateway',
      'DeleteInternetGateway',
      'DetachInternetGateway',
    ],
  }),
  onEvents('5.13', 'route-table-changes', 'route table changes', {
    source: 'ec2.amazonaws.com',
    names: [
      'CreateRoute',
      'CreateRouteTable',
      'ReplaceRoute',
      'ReplaceRouteTableAssociation',
      'DeleteRouteTable',
      'DeleteRoute',
      'DisassociateRouteTable',
    ],
  }),
  onEvents('5.14', 'vpc-changes', 'VPC changes', {
    names: [
      'CreateVpc',
      'DeleteVpc',
      'ModifyVpcAttribute',
      'AcceptVpcPeeringConnection',
      'CreateVpcPeeringConnection',
      'DeleteVpcPeeringConnection',
      'RejectVpcPeeringConnection',
      'AttachClassicLinkVpc',
      'DetachClassicLinkVpc',
      'DisableVpcClassicLink',
      'EnableVpcClassicLink',
    ],
  }),
  onEvents('5.15', 'organizations-changes', 'AWS Organizations changes', {
    source: 'organizations.amazonaws.com',
    names: [
      'AcceptHandshake',
      'AttachPolicy',
      'CancelHandshake',
      'CreateAccount',
      'CreateOrganization',
      'CreateOrganizationalUnit',
      'CreatePolicy',
      'DeclineHandshake',
      'DeleteOrganization',
      'DeleteOrganizationalUnit',
      'DeletePolicy',
      'EnableAllFeatures',
      'EnablePolicyType',
      'InviteAccountToOrganization',
      'LeaveOrganization',
      'DetachPolicy',
      'DisablePolicyType',
      'MoveAccount',
      'RemoveAccountFromOrganization',
      'UpdateOrganizationalUnit',
      'UpdatePolicy',
    ],
  }),
];

const BY_RESOURCE = new Map(MONITORED_ACTIVITIES.map((a) => [a.resource, a.control]));

/** The control a failing resource of the check stands for. */
export const controlOfActivity = (resource: string): string | undefined => BY_RESOURCE.get(resource);
