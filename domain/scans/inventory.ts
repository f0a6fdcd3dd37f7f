// What a scan collects from an AWS account: the input of the check catalog. Collectors (cloud/aws) and the
// sandbox provider (cloud/sandbox) produce it; evaluation (domain/checks) is a pure function of it.
// Timestamps are ISO 8601 strings so an inventory crosses activity boundaries as plain JSON.
//
// Each part is read on its own, and a regional part region by region, so that what AWS refuses (or fails to
// answer) costs only what it touched: the rest of the part is evaluated, and what could not be read is named.

import type { NamedSecret, TextSecret } from '../secrets/detector';

/** A region, or a resource (bucket, IAM principal, access key), that could not be read, and why. */
export interface Unread {
  kind: 'region' | 'resource';
  /** The region name, or the resource's name or ARN as the part's findings name it. */
  scope: string;
  /** What the user reads; it does not repeat the scope. */
  reason: string;
  /**
   * Nothing there to read: the account's own service is off in this scope (GuardDuty without a detector), which a
   * check of its own reports. Sentinel read what there was, so the score's completeness does not count it.
   */
  absent?: true;
}

/**
 * A part of the inventory. `ok`: read, except the regions or resources listed in `unread`, whose data is missing
 * from `value`. `not_evaluated`: nothing of the part could be read (AccessDenied, not subscribed, an error that
 * outlasted the retries): its checks neither pass nor fail.
 */
export type Collected<T> =
  | { status: 'ok'; value: T; unread?: Unread[] }
  | { status: 'not_evaluated'; reason: string; unread?: Unread[] };

export interface IamSummary {
  rootMfaEnabled: boolean;
  rootAccessKeysPresent: boolean;
  /**
   * Whether the root user has a password (GetAccountSummary's AccountPasswordPresent). A member account whose
   * root credentials were removed through centralized root access has none. null: not reported.
   */
  rootPasswordPresent: boolean | null;
}

export interface PasswordPolicy {
  minimumLength: number;
  requireSymbols: boolean;
  requireNumbers: boolean;
  requireUppercase: boolean;
  requireLowercase: boolean;
  maxAgeDays: number | null;
  reusePrevention: number | null;
}

/** One access-key slot of a credential-report row (the report has two per user and names no key id). */
export interface ReportedKey {
  active: boolean;
  /** When the key in this slot was created (the report's last_rotated). */
  lastRotatedAt: string | null;
  lastUsedAt: string | null;
}

export interface ReportedUser {
  arn: string;
  passwordEnabled: boolean;
  /**
   * When the console password last signed in; null when it never did (or not since October 2014, when AWS began
   * recording it), or the user has no password.
   */
  passwordLastUsedAt: string | null;
  /** When the console password was set or last changed; null without a password. */
  passwordLastChangedAt: string | null;
  mfaActive: boolean;
  keys: ReportedKey[];
}

/** IAM's credential report: one row per user and one for the root user, at most 4 hours old. */
export interface CredentialReport {
  generatedAt: string;
  /** null when the report has no root row (only emulators omit it). */
  root: { lastUsedAt: string | null } | null;
  users: ReportedUser[];
}

export interface AccessKey {
  id: string;
  status: 'Active' | 'Inactive';
  createdAt: string;
}

export interface IamUser {
  name: string;
  arn: string;
  createdAt: string;
  /** Administrator-equivalent through an attached, group or inline policy (see cloud/aws/collectors/iam-policies.ts). */
  adminAccess: boolean;
  /** AWS managed policies attached to the user directly, by name (e.g. AWSCompromisedKeyQuarantineV3). */
  managedPolicies: string[];
  /**
   * Every policy that grants the user permissions directly rather than through a group: attached managed policies
   * (AWS or customer managed) and inline policies, by name.
   */
  directPolicies: string[];
  /** Empty when the user's keys could not be listed: the user is then in the part's `unread`. */
  accessKeys: AccessKey[];
  /**
   * Its own customer managed and inline policies (by name) whose document allows every action on every resource
   * (CIS 2.14); its AWS managed policies are judged from `awsManagedPolicies`. A user, group and role alike.
   */
  fullAdminPolicies: string[];
}

export interface IamRole {
  name: string;
  arn: string;
  adminAccess: boolean;
  managedPolicies: string[];
  /** As IamUser's. */
  fullAdminPolicies: string[];
}

export interface IamGroup {
  name: string;
  arn: string;
  /** AWS managed policies attached to the group, by name. */
  managedPolicies: string[];
  /** As IamUser's. */
  fullAdminPolicies: string[];
}

export interface IamPrincipals {
  users: IamUser[];
  /** Customer roles only: service-linked roles and Sentinel's own role are left out by the collector. */
  roles: IamRole[];
  groups: IamGroup[];
}

/** An AWS managed policy attached to a user, group or role of the account, judged by its default version. */
export interface AwsManagedPolicy {
  name: string;
  arn: string;
  /** Its default version allows every action on every resource (CIS 2.14). */
  fullAdmin: boolean;
}

/** An IAM instance profile: what an instance is given to get the credentials of the role it holds (at most one). */
export interface InstanceProfile {
  name: string;
  arn: string;
  /** The roles it holds, by name: none leaves its instances without AWS credentials of their own. */
  roles: string[];
}

/** A server certificate stored in IAM (IAM's own certificate store, used by load balancers and CloudFront). */
export interface ServerCertificate {
  name: string;
  arn: string;
  expiresAt: string;
}

/** A CloudWatch Logs metric filter, with the metrics it publishes. */
export interface MetricFilter {
  name: string;
  region: string;
  logGroup: string;
  pattern: string;
  metrics: { name: string; namespace: string }[];
}

/** A metric watched by at least one CloudWatch alarm that acts when it goes into ALARM. */
export interface AlarmedMetric {
  region: string;
  name: string;
  namespace: string;
}

export interface BlockPublicAccess {
  blockPublicAcls: boolean;
  ignorePublicAcls: boolean;
  blockPublicPolicy: boolean;
  restrictPublicBuckets: boolean;
}

export interface Bucket {
  name: string;
  region: string;
  publicViaAcl: boolean;
  publicViaPolicy: boolean;
  blockPublicAccess: BlockPublicAccess | null;
  /**
   * Whether the bucket policy denies everyone requests without TLS (aws:SecureTransport false), or below TLS 1.2
   * (s3:TlsVersion NumericLessThan 1.2 or more), as CIS 3.1.1 accepts either; false without a policy.
   */
  deniesInsecureTransport: boolean;
}

/** An ingress rule open to the internet (0.0.0.0/0 or ::/0); other rules are not collected. */
export interface OpenIngress {
  protocol: string; // 'tcp', 'udp', 'icmp' or '-1' (all)
  fromPort: number | null;
  toPort: number | null;
  cidr: string;
}

export interface SecurityGroup {
  id: string;
  name: string;
  region: string;
  openIngress: OpenIngress[];
}

/** A rule of a VPC's default security group: the traffic it admits (inbound) or lets out (outbound). */
export interface GroupRule {
  direction: 'inbound' | 'outbound';
  protocol: string; // as OpenIngress
  fromPort: number | null;
  toPort: number | null;
  /** Where from (inbound) or to (outbound): a CIDR, a prefix list id or a security group id. */
  peer: string;
}

/** A VPC's default security group that has rules; default groups without any are not collected. */
export interface DefaultSecurityGroup {
  id: string;
  vpcId: string;
  region: string;
  rules: GroupRule[];
}

export interface Instance {
  id: string;
  region: string;
  type: string;
  state: string;
  launchedAt: string;
  /**
   * The instance metadata service's options (MetadataOptions); null when EC2 did not report them (or reported them
   * without HttpTokens or HttpEndpoint): the IMDSv2 check then names the instance as unread, never as passing.
   */
  metadata: { httpTokens: string; httpEndpoint: string } | null;
  /** The attached instance profile (its role gives the instance its AWS credentials); null when none is. */
  instanceProfileArn: string | null;
}

/** A region's EBS encryption-by-default setting. */
export interface EbsEncryptionSetting {
  region: string;
  enabled: boolean;
}

/** An inbound network ACL entry whose source is the whole internet (0.0.0.0/0 or ::/0). */
export interface NaclIngress {
  ruleNumber: number;
  action: 'allow' | 'deny';
  /** As EC2 reports it: an IANA protocol number ('6' TCP, '17' UDP) or '-1' (all). */
  protocol: string;
  /** null when the entry has no port range (all protocols, ICMP). */
  fromPort: number | null;
  toPort: number | null;
  cidr: string;
}

/**
 * A network ACL that allows some traffic from the internet, with all its internet inbound entries (denies
 * included: a lower-numbered deny shadows a later allow) in rule-number order. Other ACLs are not collected.
 */
export interface NetworkAcl {
  id: string;
  vpcId: string;
  region: string;
  internetIngress: NaclIngress[];
}

/** A VPC with no active flow log. */
export interface UnloggedVpc {
  id: string;
  region: string;
  isDefault: boolean;
}

export interface RegionalResource {
  id: string;
  region: string;
}

/** Which of read and write events a trail records (CloudTrail's ReadWriteType, as two flags). */
export interface ReadWrite {
  read: boolean;
  write: boolean;
}

/** What a trail's event selectors (basic or advanced) record, as the CIS logging controls ask it. */
export interface TrailEvents {
  management: ReadWrite;
  /** S3 object-level (data) events of every bucket, current and future; selectors that name buckets do not count. */
  s3Objects: ReadWrite;
}

/** Server access logging of a trail's bucket, or why it could not be read (a bucket of another account). */
export type TrailBucketLogging = { read: true; enabled: boolean } | { read: false; reason: string };

/**
 * What a trail's status (GetTrailStatus, in its home region) says of the delivery of its log files to its bucket.
 * Whether the trail counts as logging is the checks' rule (domain/checks/trails.ts): logging is not enough, the
 * logs must reach the bucket.
 */
export interface TrailDelivery {
  /** LatestDeliveryError: the S3 error of the trail's latest failed delivery of log files; null: none reported. */
  error: string | null;
  /** LatestDeliveryTime: when log files were last delivered; null: never. */
  lastDeliveredAt: string | null;
  /** LatestDigestDeliveryTime: when a digest file was last delivered (hourly with log file validation); null: never. */
  lastDigestDeliveredAt: string | null;
  /** StartLoggingTime: when logging was last turned on; null: not reported. */
  loggingStartedAt: string | null;
  /** S3 answered NoSuchBucket for the trail's bucket: it delivers to a bucket that does not exist. */
  bucketMissing: boolean;
  /** LatestCloudWatchLogsDeliveryError: the error of the latest failed delivery to CloudWatch Logs; null: none. */
  cloudWatchLogsError: string | null;
}

export interface Trail {
  name: string;
  homeRegion: string;
  logFileValidation: boolean;
  /** The KMS key that encrypts the trail's log files; null: S3-managed encryption only. */
  kmsKeyId: string | null;
  /** The bucket the trail delivers to (it may belong to another account, as an organization's trail's does). */
  bucket: string;
  /**
   * Read in the trail's home region, like its status: null when that region was not read, or when AWS does not
   * show this account the selectors (an organization's trail seen from a member account may be).
   */
  events: TrailEvents | null;
  bucketLogging: TrailBucketLogging | null;
  multiRegion: boolean;
  /** null: the trail's status could not be read (its home region was not read). */
  logging: boolean | null;
  /** The CloudWatch Logs log group the trail delivers to, or null when it delivers to none. */
  cloudWatchLogsLogGroupArn: string | null;
  /** Read with its status: null when the status could not be read (its home region was not read). */
  delivery: TrailDelivery | null;
}

export interface GuardDutyRegion {
  region: string;
  detectorEnabled: boolean;
  /**
   * Findings of severity 7 or more about this account (a delegated administrator also sees its members'). Empty
   * without a detector: a region where GuardDuty is off has no findings to read, which says nothing of its threats.
   */
  highSeverityFindings: { id: string; type: string; severity: number; title: string }[];
}

export interface ConfigRecorder {
  name: string;
  recording: boolean;
  /** The status of the recorder's latest delivery attempt (Pending, Success, Failure); null: none yet. */
  lastStatus: string | null;
  /** Its recording group records every resource type the region supports (`allSupported`). */
  allSupported: boolean;
  /** It also records the global resource types (IAM users, groups, roles and customer managed policies). */
  includeGlobalResourceTypes: boolean;
}

export interface ConfigRegion {
  region: string;
  recorders: ConfigRecorder[];
}

export interface SecurityHubRegion {
  region: string;
  /** Whether the account is subscribed to Security Hub in the region. */
  enabled: boolean;
}

export interface AccessAnalyzer {
  name: string;
  /** ACCOUNT or ORGANIZATION analyse external access; the *_UNUSED_ACCESS and internal types do not. */
  type: string;
  status: string;
}

export interface AccessAnalyzerRegion {
  region: string;
  analyzers: AccessAnalyzer[];
}

export interface DailyCost {
  date: string; // YYYY-MM-DD
  /** Usage only (record type Usage): fees, credits, refunds and tax are left out. */
  amountUsd: number;
}

export interface CostAnomaly {
  id: string;
  impactUsd: number;
  startDate: string;
  service: string | null;
}

/**
 * Whether a budget tells anyone when spend crosses its thresholds: `notifies` when it has a notification. AWS keeps
 * no notification without a subscriber (creating one takes 1 to 11; deleting the last subscriber deletes it). Not
 * read: the budget's notifications could not be listed, and why.
 */
export type BudgetAlerts = { read: true; notifies: boolean } | { read: false; reason: string };

export interface Budget {
  name: string;
  /** The budget's amount for the current period; null when it has none (then it caps nothing). */
  limitUsd: number | null;
  actualSpendUsd: number;
  forecastedSpendUsd: number | null;
  alerts: BudgetAlerts;
}

/** A Cost Anomaly Detection monitor: what finds the anomalies the anomalies part reads. */
export interface AnomalyMonitor {
  arn: string;
  name: string;
  /** DIMENSIONAL (by service, linked account, cost category or tag) or CUSTOM. */
  type: string;
}

export interface HealthEvent {
  arn: string;
  eventTypeCode: string;
  service: string;
  region: string;
  startTime: string;
  statusCode: string;
}

/** An RDS DB instance (DocumentDB and Neptune instances, which the same API lists, are left out). */
export interface RdsInstance {
  id: string;
  region: string;
  engine: string;
  storageEncrypted: boolean;
  autoMinorVersionUpgrade: boolean;
  /** null when RDS did not report it (PubliclyAccessible): the instance is then unread, never private. */
  publiclyAccessible: boolean | null;
  multiAz: boolean;
}

export interface EfsFileSystem {
  id: string;
  region: string;
  /** The file system's Name tag; null without one. */
  name: string | null;
  encrypted: boolean;
}

/**
 * A KMS key whose rotation the customer controls: enabled, customer managed, symmetric (SYMMETRIC_DEFAULT) and
 * with key material from KMS. AWS managed keys rotate on their own; imported, asymmetric and HMAC keys cannot.
 */
export interface KmsKey {
  id: string;
  arn: string;
  region: string;
  rotationEnabled: boolean;
}

/**
 * One EventBridge rule Sentinel expects of the event forwarder in a region (a forwarding rule of
 * domain/events/forwarding-rules.ts or the heartbeat), as the region has it.
 */
export interface ForwarderRule {
  name: string;
  /**
   * DescribeRule's State: ENABLED, DISABLED or ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS; null when the region has
   * no rule of that name.
   */
  state: string | null;
  /** The ARNs of the rule's targets (ListTargetsByRule); empty without a rule. */
  targetArns: string[];
}

/** The event forwarder in one region: its connection, its API destination and the rules Sentinel expects there. */
export interface ForwarderRegion {
  region: string;
  /** The connection named sentinel-events (DescribeConnection); null: the region has none. */
  connection: { arn: string; state: string } | null;
  /** The API destination named sentinel-events (DescribeApiDestination); null: the region has none. */
  apiDestination: { arn: string; state: string; endpoint: string; connectionArn: string } | null;
  /** Every rule Sentinel expects in the region, in that order, each whether it exists or not. */
  rules: ForwarderRule[];
}

/** The account's event forwarder, region by region. */
export interface EventForwarder {
  /**
   * The ingestion URL Sentinel expects every API destination to post to (the service's public base URL and
   * EVENT_INGEST_PATH). null: the account was connected without event forwarding (it has no event key), so nothing
   * is expected and the forwarder is not read.
   */
  expectedEndpoint: string | null;
  /** The regions read; unread ones are in the part's `unread`. */
  regions: ForwarderRegion[];
}

export interface AlternateContacts {
  security: boolean;
  billing: boolean;
  operations: boolean;
}

/**
 * What a reading of a resource's configuration found of secrets: their kinds and where they are (a variable's name,
 * a file and line), never the values, which the collector does not keep (domain/secrets/detector.ts). Not read:
 * AWS refused the read, or the content was not read (too large), and why.
 */
export type SecretsReading<S> = { read: true; secrets: S[] } | { read: false; reason: string };

/** A secret found in a file of a code package: the file's path in the package and the line. */
export interface FileSecret extends TextSecret {
  file: string;
}

/** A resource policy read for what it opens to everyone: the public statements described, none when private. */
export type PolicyReading = { read: true; publicStatements: string[] } | { read: false; reason: string };

/** A Lambda function (its $LATEST configuration). */
export interface LambdaFunction {
  name: string;
  arn: string;
  region: string;
  /** The runtime (nodejs20.x); null for a container image, which has none. */
  runtime: string | null;
  /** Secrets in its environment variables (unread when they are encrypted with a key Sentinel may not use). */
  environment: SecretsReading<NamedSecret>;
  /** Secrets in the files of its .zip code package; null for a container image (its code is in ECR, not read). */
  code: SecretsReading<FileSecret> | null;
  /** Its resource-based policy (GetPolicy); a function without one is read, with no public statement. */
  policy: PolicyReading;
  /** Its function URLs (the function's and its aliases') and their auth type (NONE or AWS_IAM). */
  urls: { read: true; urls: { url: string; authType: string }[] } | { read: false; reason: string };
  /** The ARNs of the layer versions it uses. */
  layers: string[];
}

/** A layer version that functions of the account use, and the secrets in its .zip package. */
export interface LambdaLayer {
  /** The layer version's ARN (it may belong to another account). */
  arn: string;
  region: string;
  content: SecretsReading<FileSecret>;
}

/** A container of an ECS task definition, with the settings the checks read. */
export interface EcsContainer {
  name: string;
  privileged: boolean;
  readonlyRootFilesystem: boolean;
  /** The user it runs as; null when not set (the image's user, root by default). */
  user: string | null;
  /** The log driver of its logConfiguration; null without one. */
  logDriver: string | null;
  /** Secrets written into its environment variables (the `secrets` field, which references them, is not read). */
  environmentSecrets: NamedSecret[];
}

/** The latest ACTIVE revision of an ECS task definition family. */
export interface EcsTaskDefinition {
  family: string;
  revision: number;
  arn: string;
  region: string;
  /** awsvpc, bridge, host or none; null when not set (bridge on EC2 on Linux). */
  networkMode: string | null;
  /** host or task; null when not set (each container its own namespace). */
  pidMode: string | null;
  ipcMode: string | null;
  containers: EcsContainer[];
}

/** A CloudFormation stack and the secrets in its outputs (by output name). */
export interface CloudFormationStack {
  name: string;
  id: string;
  region: string;
  outputSecrets: NamedSecret[];
  /** EnableTerminationProtection: DeleteStack is refused until it is turned off. */
  terminationProtection: boolean;
  /** A nested stack (it has a parent): its root stack's termination protection covers it. */
  nested: boolean;
}

/** A Step Functions state machine: the secrets in its definition (named by their path in it) and its logging. */
export interface StateMachine {
  name: string;
  arn: string;
  region: string;
  definitionSecrets: NamedSecret[];
  /** Its loggingConfiguration's level: ALL, ERROR, FATAL or OFF. */
  logLevel: string;
}

/** An SSM document the account owns: the secrets in its content (by path) and whether it is shared with everyone. */
export interface SsmDocument {
  name: string;
  region: string;
  contentSecrets: NamedSecret[];
  /** DescribeDocumentPermission lists `all` among the accounts it is shared with. */
  public: boolean;
}

/** A stage of an API Gateway REST API. */
export interface ApiGatewayStage {
  apiId: string;
  apiName: string;
  stage: string;
  region: string;
  /** Secrets in its stage variables (by variable name). */
  variableSecrets: NamedSecret[];
  /** It has access logging (accessLogSettings) or execution logging (a method setting at INFO or ERROR). */
  logging: boolean;
  /** The AWS WAF web ACL associated with it; null without one. */
  webAclArn: string | null;
}

export interface Inventory {
  collectedAt: string;
  /** Regions enabled for the account: every regional part is read in each (empty when they could not be listed). */
  regions: { enabled: string[] };
  iamSummary: Collected<IamSummary>;
  passwordPolicy: Collected<{ policy: PasswordPolicy | null }>;
  credentialReport: Collected<CredentialReport>;
  /** Unread: users whose access keys could not be listed (by ARN). */
  iamPrincipals: Collected<IamPrincipals>;
  serverCertificates: Collected<{ certificates: ServerCertificate[] }>;
  /** The serial number of the virtual MFA device assigned to the root user, or null when it has none. */
  rootVirtualMfa: Collected<{ serialNumber: string | null }>;
  /** The AWS managed policies attached to a user, group or role, each judged by its default version. */
  awsManagedPolicies: Collected<{ policies: AwsManagedPolicy[] }>;
  /** Every instance profile of the account, with the role it holds. */
  instanceProfiles: Collected<{ profiles: InstanceProfile[] }>;
  s3AccountBlockPublicAccess: Collected<{ settings: BlockPublicAccess | null }>;
  /** Unread: buckets that could not be read (by name). */
  s3Buckets: Collected<{ buckets: Bucket[] }>;
  // Regional parts: unread regions are missing from the lists.
  /** `groups`: those open to the internet; `defaultGroups`: VPCs' default groups that have rules. */
  securityGroups: Collected<{ groups: SecurityGroup[]; defaultGroups: DefaultSecurityGroup[] }>;
  instances: Collected<{ instances: Instance[] }>;
  publicSnapshots: Collected<{ snapshots: RegionalResource[] }>;
  publicImages: Collected<{ images: RegionalResource[] }>;
  ebsEncryptionByDefault: Collected<{ regions: EbsEncryptionSetting[] }>;
  networkAcls: Collected<{ acls: NetworkAcl[] }>;
  vpcFlowLogs: Collected<{ unloggedVpcs: UnloggedVpc[] }>;
  cloudtrail: Collected<{ trails: Trail[] }>;
  /** Metric filters of every log group, and the metrics with an alarm that has an action. */
  metricAlarms: Collected<{ filters: MetricFilter[]; alarmedMetrics: AlarmedMetric[] }>;
  guardduty: Collected<{ regions: GuardDutyRegion[] }>;
  configRecorders: Collected<{ regions: ConfigRegion[] }>;
  securityHub: Collected<{ regions: SecurityHubRegion[] }>;
  accessAnalyzers: Collected<{ regions: AccessAnalyzerRegion[] }>;
  costs: Collected<{ daily: DailyCost[] }>;
  anomalies: Collected<{ anomalies: CostAnomaly[] }>;
  budgets: Collected<{ budgets: Budget[] }>;
  alternateContacts: Collected<AlternateContacts>;
  /** Needs a Business or Enterprise support plan; otherwise not evaluated (never a false pass). */
  health: Collected<{ events: HealthEvent[] }>;
  // Data stores (regional).
  rdsInstances: Collected<{ instances: RdsInstance[] }>;
  efsFileSystems: Collected<{ fileSystems: EfsFileSystem[] }>;
  /** Unread: also keys whose metadata or rotation status was refused (by ARN). */
  kmsKeys: Collected<{ keys: KmsKey[] }>;
  /** The account's Cost Anomaly Detection monitors: without one, no anomaly is ever reported. */
  anomalyMonitors: Collected<{ monitors: AnomalyMonitor[] }>;
  /** The event forwarder (EventBridge) in every enabled region (regional). */
  eventForwarder: Collected<EventForwarder>;
  /**
   * Lambda functions and the layer versions they use (regional); each function's or layer's facets that could not be
   * read say so themselves.
   */
  lambdaFunctions: Collected<{ functions: LambdaFunction[]; layers: LambdaLayer[] }>;
  /** The latest ACTIVE revision of each task definition family (regional). Unread: definitions refused (by ARN). */
  ecsTaskDefinitions: Collected<{ taskDefinitions: EcsTaskDefinition[] }>;
  cloudformationStacks: Collected<{ stacks: CloudFormationStack[] }>;
  /** Unread: state machines whose definition was refused (by ARN). */
  stateMachines: Collected<{ machines: StateMachine[] }>;
  /** The documents the account owns. Unread: documents whose content or permissions were refused (by name). */
  ssmDocuments: Collected<{ documents: SsmDocument[] }>;
  /** Unread: REST APIs whose stages were refused (by id). */
  apiGatewayStages: Collected<{ stages: ApiGatewayStage[] }>;
}

/** The parts read from Cost Explorer, which AWS bills per request: a scan may reuse an earlier scan's. */
export const COST_EXPLORER_PARTS = ['costs', 'anomalies', 'anomalyMonitors'] as const;
export type CostExplorerPart = (typeof COST_EXPLORER_PARTS)[number];

/** The parts of an inventory (everything but the time and the region list). */
export type Parts = Omit<Inventory, 'collectedAt' | 'regions'>;
export type PartName = keyof Parts;
export type PartValue<K extends PartName> = Parts[K] extends Collected<infer T> ? T : never;

// Every part, once: the record's type makes the compiler catch a part added to Inventory and missing here.
const PART_SET: Readonly<Record<PartName, true>> = {
  iamSummary: true,
  passwordPolicy: true,
  credentialReport: true,
  iamPrincipals: true,
  s3AccountBlockPublicAccess: true,
  s3Buckets: true,
  securityGroups: true,
  instances: true,
  publicSnapshots: true,
  publicImages: true,
  cloudtrail: true,
  guardduty: true,
  costs: true,
  anomalies: true,
  budgets: true,
  alternateContacts: true,
  health: true,
  serverCertificates: true,
  rootVirtualMfa: true,
  awsManagedPolicies: true,
  instanceProfiles: true,
  metricAlarms: true,
  configRecorders: true,
  securityHub: true,
  accessAnalyzers: true,
  ebsEncryptionByDefault: true,
  networkAcls: true,
  vpcFlowLogs: true,
  rdsInstances: true,
  efsFileSystems: true,
  kmsKeys: true,
  anomalyMonitors: true,
  eventForwarder: true,
  lambdaFunctions: true,
  ecsTaskDefinitions: true,
  cloudformationStacks: true,
  stateMachines: true,
  ssmDocuments: true,
  apiGatewayStages: true,
};
export const PART_NAMES = Object.freeze(Object.keys(PART_SET) as PartName[]);

/** Why a targeted rescan (after an event) did not read a part: it reads only the parts the event touched. */
export const OUTSIDE_TARGETED_SCAN = 'Not read: outside this targeted rescan, which read only what an event changed.';

/** The inventory as a targeted rescan sees it: the given parts, every other part not read (OUTSIDE_TARGETED_SCAN). */
export function onlyParts(inventory: Inventory, parts: readonly PartName[]): Inventory {
  const kept = new Set(parts);
  const masked = Object.fromEntries(
    PART_NAMES.filter((p) => !kept.has(p)).map((p) => [p, { status: 'not_evaluated', reason: OUTSIDE_TARGETED_SCAN }]),
  );
  return { ...inventory, ...masked };
}
