import type { CheckOutcome } from '../checks/evaluate';
import type { PartName } from '../scans/inventory';

// Whether a score is complete (docs/decisions.md, "The score's model"): whether the scan read every core source of the
// account. Core sources are the AWS services whose reads decide the account's security, which every account has and
// the role's policies grant. Optional sources depend on the account's subscriptions or setup (AWS Health needs a
// Business support plan, Cost Explorer must have been opened by the payer, member accounts often cannot read Budgets)
// and decide billing risk or AWS's own notices: most accounts cannot read one of them, so counting them would mark
// almost every score incomplete and tell nothing apart. What an optional source would have shown still stands as
// its checks' outcome (not evaluated, with AWS's answer), and in the account's coverage.

export const CORE_SOURCES = [
  'IAM',
  'S3',
  'EC2',
  'CloudTrail',
  'CloudWatch',
  'GuardDuty',
  'AWS Config',
  'Security Hub',
  'IAM Access Analyzer',
  'RDS',
  'EFS',
  'KMS',
  'Account Management',
  'EventBridge',
  'Auto Scaling',
  'CodeBuild',
  'Glue',
  'AWS Batch',
  'DMS',
  'Redshift',
  'OpenSearch',
  'MSK',
  'ElastiCache',
  'Kinesis',
  'Bedrock',
  'SageMaker',
  'EKS',
  'ECS',
  'SQS',
  'ECR',
  'S3 Glacier',
  'SNS',
  'Secrets Manager',
  'SES',
  'AWS Organizations',
  'Lambda',
  'ECS',
  'CloudFormation',
  'Step Functions',
  'Systems Manager',
  'API Gateway',
  'CodeArtifact',
  'Route 53',
  'CloudFront',
  'Certificate Manager',
  'Lightsail',
  'AWS Backup',
] as const;
export const OPTIONAL_SOURCES = ['AWS Health', 'Cost Explorer', 'AWS Budgets'] as const;
export type CoreSource = (typeof CORE_SOURCES)[number];
export type OptionalSource = (typeof OPTIONAL_SOURCES)[number];
export type ScoreSource = CoreSource | OptionalSource;

/** The source each part of the inventory is read from (every part, once: the compiler holds it to the inventory). */
export const SOURCE_OF_PART: Readonly<Record<PartName, ScoreSource>> = Object.freeze({
  iamSummary: 'IAM',
  passwordPolicy: 'IAM',
  credentialReport: 'IAM',
  iamPrincipals: 'IAM',
  iamAuthorization: 'IAM',
  serverCertificates: 'IAM',
  rootVirtualMfa: 'IAM',
  awsManagedPolicies: 'IAM',
  s3AccountBlockPublicAccess: 'S3',
  s3Buckets: 'S3',
  securityGroups: 'EC2',
  instances: 'EC2',
  instanceProfiles: 'IAM',
  publicSnapshots: 'EC2',
  publicImages: 'EC2',
  ebsEncryptionByDefault: 'EC2',
  networkAcls: 'EC2',
  vpcFlowLogs: 'EC2',
  cloudtrail: 'CloudTrail',
  metricAlarms: 'CloudWatch',
  guardduty: 'GuardDuty',
  configRecorders: 'AWS Config',
  securityHub: 'Security Hub',
  accessAnalyzers: 'IAM Access Analyzer',
  rdsInstances: 'RDS',
  efsFileSystems: 'EFS',
  kmsKeys: 'KMS',
  alternateContacts: 'Account Management',
  health: 'AWS Health',
  costs: 'Cost Explorer',
  anomalies: 'Cost Explorer',
  anomalyMonitors: 'Cost Explorer',
  budgets: 'AWS Budgets',
  eventForwarder: 'EventBridge',
  instanceUserData: 'EC2',
  launchTemplates: 'EC2',
  autoScaling: 'Auto Scaling',
  codebuildProjects: 'CodeBuild',
  glue: 'Glue',
  batchJobDefinitions: 'AWS Batch',
  instanceMetadataDefaults: 'EC2',
  publicIpSubnets: 'EC2',
  transitGateways: 'EC2',
  vpcEndpoints: 'EC2',
  // Elastic Load Balancing is read with EC2's permissions (SecurityAudit's elasticloadbalancing:Describe*).
  loadBalancers: 'EC2',
  // Read with EC2's permissions, with Elastic Load Balancing's, RDS's, ElastiCache's and OpenSearch's describes.
  networkTopology: 'EC2',
  rdsClusters: 'RDS',
  rdsSnapshots: 'RDS',
  dms: 'DMS',
  redshiftClusters: 'Redshift',
  opensearchDomains: 'OpenSearch',
  kafkaClusters: 'MSK',
  elasticacheReplicationGroups: 'ElastiCache',
  kinesisStreams: 'Kinesis',
  ebsVolumes: 'EC2',
  ebsSnapshots: 'EC2',
  ebsSnapshotBlockPublicAccess: 'EC2',
  bedrockInvocationLogging: 'Bedrock',
  bedrockCustomModels: 'Bedrock',
  bedrockGuardrails: 'Bedrock',
  bedrockAgents: 'Bedrock',
  bedrockApiKeys: 'IAM',
  sagemakerNotebooks: 'SageMaker',
  sagemakerTrainingJobs: 'SageMaker',
  sagemakerModels: 'SageMaker',
  eksClusters: 'EKS',
  ecsServices: 'ECS',
  sqsQueues: 'SQS',
  kmsKeyPolicies: 'KMS',
  ecrRepositories: 'ECR',
  glacierVaults: 'S3 Glacier',
  snsTopics: 'SNS',
  secrets: 'Secrets Manager',
  sesIdentities: 'SES',
  eventBuses: 'EventBridge',
  logResourcePolicies: 'CloudWatch',
  s3AccessPoints: 'S3',
  s3MultiRegionAccessPoints: 'S3',
  organization: 'AWS Organizations',
  cloudtrailActivity: 'CloudTrail',
  lambdaFunctions: 'Lambda',
  ecsTaskDefinitions: 'ECS',
  cloudformationStacks: 'CloudFormation',
  stateMachines: 'Step Functions',
  ssmDocuments: 'Systems Manager',
  apiGatewayStages: 'API Gateway',
  codeartifactPackages: 'CodeArtifact',
  registeredDomains: 'Route 53',
  hostedZoneRecords: 'Route 53',
  elasticIps: 'EC2',
  cloudfrontDistributions: 'CloudFront',
  acmCertificates: 'Certificate Manager',
  lightsailInstances: 'Lightsail',
  lightsailDatabases: 'Lightsail',
  backupSelections: 'AWS Backup',
});

export const isCoreSource = (source: ScoreSource): source is CoreSource =>
  (CORE_SOURCES as readonly string[]).includes(source);

/**
 * The checks that read optional sources only, with their source. Every other check reads a core source: a check
 * added to the catalogue counts toward completeness unless it is listed here (never a complete score by omission).
 * `test/unit/score-completeness.test.ts` holds this list to what each check reads.
 */
export const OPTIONAL_SOURCE_CHECKS: Readonly<Record<string, OptionalSource>> = Object.freeze({
  'suspension.health_abuse_event': 'AWS Health',
  'suspension.health_credentials_exposed': 'AWS Health',
  'billing.daily_spend_spike': 'Cost Explorer',
  'billing.cost_anomaly': 'Cost Explorer',
  'billing.no_cost_anomaly_monitor': 'Cost Explorer',
  'billing.no_budget': 'AWS Budgets',
  'billing.budget_forecast_exceeded': 'AWS Budgets',
  'billing.budget_exceeded': 'AWS Budgets',
});

export const readsCoreSource = (checkId: string): boolean => !Object.hasOwn(OPTIONAL_SOURCE_CHECKS, checkId);

export interface ScoreCompleteness {
  /** Every check reading a core source was evaluated, on every region and resource. */
  complete: boolean;
  /** The checks on core sources that were not evaluated, or could not read some region or resource. */
  coreChecksNotRead: string[];
  /** The optional sources some check of could not read (they leave the score complete). */
  optionalSourcesNotRead: OptionalSource[];
}

/**
 * A check Sentinel could not read in full: not evaluated, or with regions or resources unread. What the account does
 * not have to read (GuardDuty off in a region: `absent`) is not a read that failed; the check that the service is
 * off reports it.
 */
const notFullyRead = (o: CheckOutcome): boolean =>
  (o.status === 'not_evaluated' && !o.absent) || o.unread.some((u) => !u.absent);

/** Whether a scan with these outcomes read every core source, and what it could not read. */
export function scoreCompleteness(outcomes: readonly CheckOutcome[]): ScoreCompleteness {
  const unread = outcomes.filter(notFullyRead);
  const coreChecksNotRead = unread.filter((o) => readsCoreSource(o.checkId)).map((o) => o.checkId);
  const optional = new Set(unread.flatMap((o) => OPTIONAL_SOURCE_CHECKS[o.checkId] ?? []));
  return {
    complete: coreChecksNotRead.length === 0,
    coreChecksNotRead,
    optionalSourcesNotRead: OPTIONAL_SOURCES.filter((s) => optional.has(s)),
  };
}
