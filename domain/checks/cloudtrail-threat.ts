import type { CloudTrailActivity } from '../scans/inventory';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// Attacks seen in CloudTrail's own recent history, as Prowler's cloudtrail_threat_detection_* checks find them: one
// identity that, within the window, called a large share of a set of API names typical of an attack stage
// (privilege escalation, enumeration, LLM jacking). The sets and shares are Prowler's defaults
// (prowler/config/config.yaml); the window is the last 24 hours.
//
// How it is read (cloud/aws/collectors/cloudtrail-activity.ts): CloudTrail LookupEvents, which keeps 90 days of
// management events per region, one call per API name and region (one page of up to 50 events, as Prowler reads
// it), so a scan costs as many LookupEvents calls per enabled region as there are distinct names below (about 150;
// AWS allows 2 a second per region, so about 75 seconds per region, regions in parallel). Unlike Prowler, which
// reads one region, every enabled region is read and an identity's calls are counted across them: enumeration
// sweeps regions. Duplicate names in Prowler's lists are counted once. Sentinel's own role, whose scan makes many of
// these calls, is left out by the collector.

export const THREAT_WINDOW_HOURS = 24;

export const PRIVILEGE_ESCALATION_ACTIONS: readonly string[] = [
  'AddPermission',
  'AddRoleToInstanceProfile',
  'AddUserToGroup',
  'AssociateAccessPolicy',
  'AssumeRole',
  'AttachGroupPolicy',
  'AttachRolePolicy',
  'AttachUserPolicy',
  'ChangePassword',
  'CreateAccessEntry',
  'CreateAccessKey',
  'CreateDevEndpoint',
  'CreateEventSourceMapping',
  'CreateFunction',
  'CreateGroup',
  'CreateJob',
  'CreateKeyPair',
  'CreateLoginProfile',
  'CreatePipeline',
  'CreatePolicyVersion',
  'CreateRole',
  'CreateStack',
  'DeleteRolePermissionsBoundary',
  'DeleteRolePolicy',
  'DeleteUserPermissionsBoundary',
  'DeleteUserPolicy',
  'DetachRolePolicy',
  'DetachUserPolicy',
  'GetCredentialsForIdentity',
  'GetId',
  'GetPolicyVersion',
  'GetUserPolicy',
  'Invoke',
  'ModifyInstanceAttribute',
  'PassRole',
  'PutGroupPolicy',
  'PutPipelineDefinition',
  'PutRolePermissionsBoundary',
  'PutRolePolicy',
  'PutUserPermissionsBoundary',
  'PutUserPolicy',
  'ReplaceIamInstanceProfileAssociation',
  'RunInstances',
  'SetDefaultPolicyVersion',
  'UpdateAccessKey',
  'UpdateAssumeRolePolicy',
  'UpdateDevEndpoint',
  'UpdateEventSourceMapping',
  'UpdateFunctionCode',
  'UpdateJob',
  'UpdateLoginProfile',
];

export const ENUMERATION_ACTIONS: readonly string[] = [
  'DescribeAccessEntry',
  'DescribeAccountAttributes',
  'DescribeAvailabilityZones',
  'DescribeBundleTasks',
  'DescribeCarrierGateways',
  'DescribeClientVpnRoutes',
  'DescribeCluster',
  'DescribeDhcpOptions',
  'DescribeFlowLogs',
  'DescribeImages',
  'DescribeInstanceAttribute',
  'DescribeInstanceInformation',
  'DescribeInstanceTypes',
  'DescribeInstances',
  'DescribeKeyPairs',
  'DescribeLogGroups',
  'DescribeLogStreams',
  'DescribeOrganization',
  'DescribeRegions',
  'DescribeSecurityGroups',
  'DescribeSnapshotAttribute',
  'DescribeSnapshotTierStatus',
  'DescribeSubscriptionFilters',
  'DescribeTransitGatewayMulticastDomains',
  'DescribeVolumes',
  'DescribeVolumesModifications',
  'DescribeVpcEndpointConnectionNotifications',
  'DescribeVpcs',
  'GetAccount',
  'GetAccountAuthorizationDetails',
  'GetAccountSendingEnabled',
  'GetBucketAcl',
  'GetBucketLogging',
  'GetBucketPolicy',
  'GetBucketReplication',
  'GetBucketVersioning',
  'GetCallerIdentity',
  'GetCertificate',
  'GetConsoleScreenshot',
  'GetCostAndUsage',
  'GetDetector',
  'GetEbsDefaultKmsKeyId',
  'GetEbsEncryptionByDefault',
  'GetFindings',
  'GetFlowLogsIntegrationTemplate',
  'GetIdentityVerificationAttributes',
  'GetInstances',
  'GetIntrospectionSchema',
  'GetLaunchTemplateData',
  'GetLogRecord',
  'GetParameters',
  'GetPolicyVersion',
  'GetPublicAccessBlock',
  'GetQueryResults',
  'GetRegions',
  'GetSMSAttributes',
  'GetSMSSandboxAccountStatus',
  'GetSendQuota',
  'GetTransitGatewayRouteTableAssociations',
  'GetUserPolicy',
  'HeadObject',
  'ListAccessKeys',
  'ListAccounts',
  'ListAllMyBuckets',
  'ListAssociatedAccessPolicies',
  'ListAttachedUserPolicies',
  'ListClusters',
  'ListDetectors',
  'ListDomains',
  'ListFindings',
  'ListHostedZones',
  'ListIPSets',
  'ListIdentities',
  'ListInstanceProfiles',
  'ListObjects',
  'ListOrganizationalUnitsForParent',
  'ListOriginationNumbers',
  'ListPolicyVersions',
  'ListRoles',
  'ListRules',
  'ListServiceQuotas',
  'ListSubscriptions',
  'ListTargetsByRule',
  'ListTopics',
  'ListUsers',
  'LookupEvents',
  'Search',
];

export const LLM_JACKING_ACTIONS: readonly string[] = [
  'PutUseCaseForModelAccess',
  'PutFoundationModelEntitlement',
  'PutModelInvocationLoggingConfiguration',
  'CreateFoundationModelAgreement',
  'InvokeModel',
  'InvokeModelWithResponseStream',
  'GetUseCaseForModelAccess',
  'GetModelInvocationLoggingConfiguration',
  'GetFoundationModelAvailability',
  'ListFoundationModelAgreementOffers',
  'ListFoundationModels',
  'ListProvisionedModelThroughputs',
  'SearchAgreements',
  'AcceptAgreementRequest',
];

/** Every API name the collector looks up, once. */
export const THREAT_EVENT_NAMES: readonly string[] = [
  ...new Set([...PRIVILEGE_ESCALATION_ACTIONS, ...ENUMERATION_ACTIONS, ...LLM_JACKING_ACTIONS]),
];

/** Each identity's calls among `actions` across the regions read, failing those above `threshold` of the set. */
function sharesAbove(regions: CloudTrailActivity[], actions: readonly string[], threshold: number, stage: string) {
  const wanted = new Set(actions);
  const byIdentity = new Map<string, { type: string; names: Set<string>; regions: Set<string> }>();
  for (const { region, identities } of regions) {
    for (const identity of identities) {
      const names = identity.eventNames.filter((n) => wanted.has(n));
      if (names.length === 0) continue;
      const seen = byIdentity.get(identity.arn) ?? { type: identity.type, names: new Set(), regions: new Set() };
      for (const n of names) seen.names.add(n);
      seen.regions.add(region);
      byIdentity.set(identity.arn, seen);
    }
  }
  return failing(
    [...byIdentity.entries()]
      .filter(([, seen]) => seen.names.size / wanted.size > threshold)
      .map(([arn, seen]) => ({
        resource: arn,
        detail:
          `${seen.type} ${arn} called ${seen.names.size} of the ${wanted.size} ${stage} API names in the last ` +
          `${THREAT_WINDOW_HOURS} hours (a share of ${(seen.names.size / wanted.size).toFixed(2)}, above ` +
          `${threshold}), in ${[...seen.regions].sort().join(', ')}: ${[...seen.names].sort().join(', ')}.`,
      })),
  );
}

const LOOKUP =
  'Sentinel reads the last 24 hours of CloudTrail management events (LookupEvents, one page of up to 50 events per ' +
  'API name and region) in every enabled region.';

export const CLOUDTRAIL_THREAT_CHECKS: readonly Check[] = [
  {
    id: 'threat.cloudtrail_privilege_escalation',
    service: 'cloudtrail',
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'Possible privilege escalation in progress',
    description:
      'One identity called more than 20% of the API names used to escalate privileges (creating keys, login ' +
      'profiles and policy versions, attaching and putting policies, passing roles to new instances and functions) ' +
      `in the last ${THREAT_WINDOW_HOURS} hours: the pattern of someone turning a foothold into administrator ` +
      `access. ${LOOKUP}`,
    remediation:
      'In the CloudTrail console > Event history, filter on the identity (User name or the role session) and review what it ' +
      'did. If it was not planned work: deactivate its access keys (aws iam update-access-key --user-name <user> ' +
      "--access-key-id <key> --status Inactive) or revoke the role's sessions (IAM > Roles > the role > Revoke " +
      'active sessions; CLI: attach the AWSRevokeOlderSessions inline policy), undo the policies, keys and login ' +
      'profiles it created, and follow the incident response guide.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/view-cloudtrail-events.html',
    prowler: ['cloudtrail_threat_detection_privilege_escalation'],
    review: true,
    evaluate: onPart('cloudtrailActivity', ({ regions }) =>
      sharesAbove(regions, PRIVILEGE_ESCALATION_ACTIONS, 0.2, 'privilege escalation'),
    ),
  },
  {
    id: 'threat.cloudtrail_enumeration',
    service: 'cloudtrail',
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'Possible reconnaissance of the account',
    description:
      'One identity called more than 30% of the API names used to map an account (listing users, roles, buckets, ' +
      `instances, detectors, organizations, cost) in the last ${THREAT_WINDOW_HOURS} hours: what a stolen key's ` +
      `first minutes look like. Security tools do this too: accept the finding for the ones you run. ${LOOKUP}`,
    remediation:
      'In the CloudTrail console > Event history, filter on the identity and check where the calls came from (source IP, user ' +
      'agent). If it is not a tool you run: deactivate its access keys (aws iam update-access-key --user-name <user> ' +
      "--access-key-id <key> --status Inactive) or revoke the role's active sessions (IAM > Roles > the role > " +
      'Revoke active sessions), and look for what it did next.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/view-cloudtrail-events.html',
    prowler: ['cloudtrail_threat_detection_enumeration'],
    review: true,
    evaluate: onPart('cloudtrailActivity', ({ regions }) =>
      sharesAbove(regions, ENUMERATION_ACTIONS, 0.3, 'enumeration'),
    ),
  },
  {
    id: 'threat.cloudtrail_llm_jacking',
    service: 'bedrock',
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'Possible LLM jacking: Bedrock models used by an unexpected identity',
    description:
      'One identity called more than 40% of the Bedrock API names of LLM jacking (requesting model access, ' +
      'accepting agreements, turning invocation logging off, invoking models) in the last ' +
      `${THREAT_WINDOW_HOURS} hours: stolen credentials used to run, or resell, models at the account's expense. ` +
      LOOKUP,
    remediation:
      'In the CloudTrail console > Event history, filter on Event source bedrock.amazonaws.com and the identity. If the use is ' +
      "not yours: deactivate the identity's access keys (aws iam update-access-key --user-name <user> " +
      '--access-key-id <key> --status Inactive) or revoke its role sessions, remove the model access it requested ' +
      '(Bedrock > Model access), check Bedrock > Settings > Model invocation logging is on, and watch the bill.',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/logging-using-cloudtrail.html',
    prowler: ['cloudtrail_threat_detection_llm_jacking'],
    review: true,
    evaluate: onPart('cloudtrailActivity', ({ regions }) =>
      sharesAbove(regions, LLM_JACKING_ACTIONS, 0.4, 'LLM jacking'),
    ),
  },
];
