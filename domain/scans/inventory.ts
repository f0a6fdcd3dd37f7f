// What a scan collects from an AWS account: the input of the check catalog. Collectors (cloud/aws) and the
// sandbox provider (cloud/sandbox) produce it; evaluation (domain/checks) is a pure function of it.
// Timestamps are ISO 8601 strings so an inventory crosses activity boundaries as plain JSON.
//
// Each part is read on its own, and a regional part region by region, so that what AWS refuses (or fails to
// answer) costs only what it touched: the rest of the part is evaluated, and what could not be read is named.

import type {
  AutoScaling,
  BatchJobDefinition,
  CodeBuildProject,
  Glue,
  InstanceUserData,
  LaunchTemplate,
} from './compute';

import type { PolicyExposure } from '../policies/resource-policy';

import type { IamAuthorization, PolicyJson } from './iam-authorization';

import type { NetworkTopology } from './network-topology';

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
  /** Who its trust policy lets assume it; null when the trust policy is not a document Sentinel can read. */
  trust: RoleTrust | null;
}

/** The Allow statements of a role's trust policy, as who they let in. */
export interface RoleTrust {
  /** Other accounts named as AWS principals (12-digit ids), and '*' for everyone. */
  externalPrincipals: string[];
  /**
   * The AWS services it trusts through a statement with no aws:SourceAccount, aws:SourceArn, aws:SourceOrgID or
   * aws:SourceOrgPaths condition: such a service can be made to act for another account (a confused deputy).
   */
  servicesWithoutSourceCondition: string[];
}

/**
 * A customer managed policy attached to a principal, or an inline policy, whose default version grants something
 * that leads to compromise. Policies granting none of it are not listed.
 */
export interface RiskyPolicy {
  /** The managed policy's name, or the inline policy's name. */
  name: string;
  /** The managed policy's ARN, or for an inline policy `<owner ARN>/<policy name>`. */
  arn: string;
  kind: 'managed' | 'inline';
  /** For an inline policy, the user, group or role it belongs to (ARN). */
  owner: string | null;
  /** The privilege-escalation paths its allowed actions complete (domain/checks/privilege-escalation.ts), by name. */
  escalationPaths: string[];
  /** It allows cloudtrail:* (every CloudTrail action, stopping and deleting trails included) on every resource. */
  cloudtrailFullAccess: boolean;
  /** It allows sts:AssumeRole on a resource with a wildcard: every role that trusts the account. */
  assumesAnyRole: boolean;
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
  /** Attached customer managed and inline policies that grant escalation, full CloudTrail or any role assumption. */
  riskyPolicies: RiskyPolicy[];
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

/** A CloudWatch metric alarm that tells nobody when it goes into ALARM. */
export interface SilentAlarm {
  name: string;
  arn: string;
  region: string;
  /** false: its actions are switched off (ActionsEnabled), whatever they are. */
  actionsEnabled: boolean;
  /** How many actions it takes on entering ALARM (AlarmActions): none, and nothing happens. */
  alarmActions: number;
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
  /** Its bucket policy, for the attack-path analysis (who in the account it lets in); absent: none, or not JSON. */
  policyDocument?: PolicyJson;
  publicViaAcl: boolean;
  publicViaPolicy: boolean;
  blockPublicAccess: BlockPublicAccess | null;
  /**
   * Whether the bucket policy denies everyone requests without TLS (aws:SecureTransport false), or below TLS 1.2
   * (s3:TlsVersion NumericLessThan 1.2 or more), as CIS 3.1.1 accepts either; false without a policy.
   */
  deniesInsecureTransport: boolean;
  /**
   * The permissions (READ, WRITE, READ_ACP, WRITE_ACP, FULL_CONTROL) its ACL grants to everyone (AllUsers) or to
   * every AWS account (AuthenticatedUsers). Empty when its own Block Public Access ignores public ACLs: the ACL is
   * then moot and not read.
   */
  publicAclPermissions: string[];
  /**
   * Its policy's statements open to everyone that allow writing, deleting or re-permissioning (s3:Put*, s3:Delete*),
   * each as describeStatement words it; empty without a policy. null: the policy is not a document Sentinel can read.
   */
  publicWriteStatements: string[] | null;
  /** The other accounts its policy names as principals; null as publicWriteStatements. */
  crossAccountPrincipals: string[] | null;
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
  /**
   * Its rules' public IPv4 ranges wider than a /24 short of the whole internet (domain/checks/ec2-breadth.ts), in
   * either direction. A group is kept when it has these or open ingress. Absent: none.
   */
  wideRanges?: { direction: 'inbound' | 'outbound'; cidr: string }[];
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
  /** Its public IPv4 address (one EC2 assigned, or an Elastic IP): what the internet can reach; null without one. */
  publicIp: string | null;
  /** The security groups of its network interfaces, by id: what they admit is what reaches it. */
  securityGroupIds: string[];
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
  /**
   * The detector's protection plans (GetDetector's Features: S3_DATA_EVENTS, EKS_AUDIT_LOGS, EBS_MALWARE_PROTECTION,
   * RDS_LOGIN_EVENTS, LAMBDA_NETWORK_LOGS, ...) by name, ENABLED or DISABLED. Empty without a detector.
   */
  features: Record<string, string>;
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
  /** The VPC of its DB subnet group (DBSubnetGroup.VpcId); null: RDS reported none, so it is not in a VPC. */
  vpcId: string | null;
  /**
   * When the server certificate the instance presents expires (CertificateDetails.ValidTill); null: not reported
   * (the instance is then unread for the certificate check, never passing).
   */
  certificateValidTill: string | null;
  arn: string;
  /** The engine version it runs (EngineVersion), e.g. 8.0.35. */
  engineVersion: string;
  /** The DB cluster it is a member of (an Aurora instance); null when it stands alone. */
  clusterId: string | null;
  /**
   * Whether its DB parameter group makes clients use TLS (rds.force_ssl for PostgreSQL and SQL Server,
   * require_secure_transport for MySQL and MariaDB; see domain/checks/rds-hardening.ts). false for an instance of a
   * cluster or an engine without such a parameter, which the cluster's group or nothing decides. null: the group's
   * parameters were refused.
   */
  tlsEnforced: boolean | null;
  /** Whether RDS still offers its engine version in its region (DescribeDBEngineVersions); null: refused. */
  engineVersionOffered: boolean | null;
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
   * The rule's State (as ListRules answers it): ENABLED, DISABLED or ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS;
   * null when the region has no rule of that name.
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

/** A region's account-wide instance metadata defaults (GetInstanceMetadataDefaults), what new instances get. */
export interface InstanceMetadataDefaults {
  region: string;
  /** The default HttpTokens ('required' means IMDSv2 only); null: no default set, so launches fall back to IMDSv1. */
  httpTokens: string | null;
}

/** A subnet that gives every instance launched in it a public IPv4 address (MapPublicIpOnLaunch); others are left out. */
export interface PublicIpSubnet {
  id: string;
  vpcId: string;
  region: string;
  /** A default subnet of the region's default VPC, which AWS creates with the setting on. */
  defaultForAz: boolean;
}

export interface TransitGateway {
  id: string;
  region: string;
  /** AutoAcceptSharedAttachments: attachment requests from the accounts it is shared with are accepted unreviewed. */
  autoAcceptSharedAttachments: boolean;
}

/** A VPC endpoint with a policy (gateway and interface endpoints), read with domain/policies/resource-policy.ts. */
export interface VpcEndpoint {
  id: string;
  vpcId: string;
  region: string;
  serviceName: string;
  /**
   * What its policy allows beyond the account, described: statements open to everyone that no condition narrows, and
   * statements naming other accounts. Empty: only the account's principals. null: the policy is not a document
   * Sentinel reads (the endpoint is then unread).
   */
  beyondAccount: string[] | null;
}

/** A VPC endpoint service the account provides (PrivateLink), with the principals allowed to connect to it. */
export interface EndpointService {
  id: string;
  region: string;
  serviceName: string;
  /** The allowed principals outside the account: '*' (every AWS account) or principals of other accounts. */
  outsidePrincipals: string[];
}

/** A listener of a load balancer, with what its default action does with plain HTTP. */
export interface LoadBalancerListener {
  arn: string;
  port: number;
  /** HTTP, HTTPS, TCP, TLS, UDP, TCP_UDP, GENEVE. */
  protocol: string;
  /** The TLS security policy of an HTTPS or TLS listener; null for the others. */
  sslPolicy: string | null;
  /** Its default action redirects to HTTPS. */
  redirectsToHttps: boolean;
}

/** An Application, Network or Gateway Load Balancer (Elastic Load Balancing v2). */
export interface LoadBalancer {
  arn: string;
  name: string;
  region: string;
  /** application, network or gateway. */
  type: string;
  internetFacing: boolean;
  /** Its attributes (DescribeLoadBalancerAttributes); null when they could not be read (it is then unread). */
  attributes: {
    deletionProtection: boolean;
    /** routing.http.drop_invalid_header_fields.enabled (Application Load Balancers only; false for the others). */
    dropInvalidHeaderFields: boolean;
    /** routing.http.desync_mitigation_mode (monitor, defensive, strictest); null where it does not apply. */
    desyncMitigationMode: string | null;
  } | null;
  /** null when they could not be read (it is then unread). */
  listeners: LoadBalancerListener[] | null;
}

/** Bedrock's model invocation logging in a region where Bedrock is offered (GetModelInvocationLoggingConfiguration). */
export interface BedrockInvocationLogging {
  region: string;
  /** Where prompts and completions are logged; null: invocation logging is off in the region. */
  destination: {
    /** The S3 bucket the logs go to; null: none. */
    s3Bucket: string | null;
    /**
     * The CloudWatch Logs log group the logs go to, with its KMS key (DescribeLogGroups' kmsKeyId; null: none,
     * CloudWatch Logs' own encryption); null: none. A log group that could not be read is in the part's unread.
     */
    logGroup: { name: string; kmsKeyId: string | null } | null;
  } | null;
}

/** A Bedrock custom (fine-tuned or continued pre-trained) model this account owns. */
export interface BedrockCustomModel {
  name: string;
  arn: string;
  region: string;
  /** The customer managed KMS key its weights are encrypted with (GetCustomModel's modelKmsKeyArn); null: an AWS owned key. */
  kmsKeyArn: string | null;
}

/** A contextual grounding filter of a guardrail: GROUNDING or RELEVANCE. */
export interface GroundingFilter {
  type: string;
  threshold: number;
  /** BLOCK or NONE (detect only); null: not reported. */
  action: string | null;
  /** false: the filter is not evaluated; null: not reported. */
  enabled: boolean | null;
}

/** A Bedrock guardrail, by its working draft (GetGuardrail without a version). */
export interface BedrockGuardrail {
  id: string;
  arn: string;
  name: string;
  region: string;
  /** The strength of its PROMPT_ATTACK content filter on input (NONE, LOW, MEDIUM, HIGH); null: no such filter. */
  promptAttackStrength: string | null;
  /** It has a sensitive information policy (PII entities or regular expressions to block or mask). */
  sensitiveInformation: boolean;
  groundingFilters: GroundingFilter[];
}

/** A Bedrock agent, and the guardrail it applies to its sessions (ListAgents' guardrailConfiguration). */
export interface BedrockAgent {
  id: string;
  name: string;
  region: string;
  /** null: the agent has no guardrail. */
  guardrailId: string | null;
  /** The IAM role the agent acts with (GetAgent's agentResourceRoleArn); null: it names none. */
  roleArn: string | null;
}

/** A data source of a Bedrock knowledge base: what is ingested into it is encrypted with its key. */
export interface BedrockDataSource {
  id: string;
  name: string;
  knowledgeBaseId: string;
  knowledgeBaseName: string;
  region: string;
  /** The customer managed KMS key of its serverSideEncryptionConfiguration; null: an AWS owned key. */
  kmsKeyArn: string | null;
}

/** A long-term Bedrock API key: an IAM service-specific credential for bedrock.amazonaws.com. */
export interface BedrockApiKey {
  id: string;
  userName: string;
  status: 'Active' | 'Inactive' | 'Expired';
  createdAt: string;
  /** When it stops working; null: never. */
  expiresAt: string | null;
}

/** A SageMaker notebook instance (DescribeNotebookInstance). */
export interface SageMakerNotebook {
  name: string;
  arn: string;
  region: string;
  status: string;
  /** SageMaker gives it its own route to the internet (DirectInternetAccess Enabled). */
  directInternetAccess: boolean;
  /** Its users can become root (RootAccess Enabled). */
  rootAccess: boolean;
  /** The KMS key of its storage volume; null: none (an AWS managed key). */
  kmsKeyId: string | null;
  /** The subnet of its network interface in the customer's VPC; null: none (SageMaker's own network). */
  subnetId: string | null;
  /**
   * The secrets in the scripts of its lifecycle configuration (which run as root at each creation and start), where it
   * has one: their kind and place, never the scripts.
   */
  lifecycleSecrets: LifecycleScriptSecret[];
}

/** A secret in a notebook lifecycle configuration's script. */
export interface LifecycleScriptSecret extends TextSecret {
  config: string;
  script: 'OnCreate' | 'OnStart';
}

/** A SageMaker training job created within TRAINING_JOB_WINDOW_DAYS of the collection (DescribeTrainingJob). */
export interface SageMakerTrainingJob {
  name: string;
  arn: string;
  region: string;
  createdAt: string;
  networkIsolation: boolean;
  /** The KMS key of its ML storage volumes (ResourceConfig.VolumeKmsKeyId); null: none. */
  volumeKmsKeyId: string | null;
  /** The KMS key of its output in S3 (OutputDataConfig.KmsKeyId); null: none. */
  outputKmsKeyId: string | null;
  /** The subnets of its VpcConfig; empty: it runs outside the customer's VPC. */
  subnets: string[];
}

/** A SageMaker model (DescribeModel). */
export interface SageMakerModel {
  name: string;
  arn: string;
  region: string;
  networkIsolation: boolean;
}

/** An EKS cluster (DescribeCluster). */
export interface EksCluster {
  name: string;
  arn: string;
  region: string;
  /** The Kubernetes version (major.minor); null: not reported (being created). */
  version: string | null;
  /**
   * The version's support status (DescribeClusterVersions): STANDARD_SUPPORT, EXTENDED_SUPPORT (AWS charges extra
   * per cluster hour) or UNSUPPORTED; null when AWS lists no such version.
   */
  versionStatus: string | null;
  endpointPublicAccess: boolean;
  /** The CIDR blocks allowed to reach the public endpoint. */
  publicAccessCidrs: string[];
  endpointPrivateAccess: boolean;
  /** Control plane log types sent to CloudWatch Logs (api, audit, authenticator, controllerManager, scheduler). */
  enabledLogTypes: string[];
  /** Kubernetes secrets are envelope-encrypted with a KMS key (encryptionConfig with the secrets resource). */
  secretsEncrypted: boolean;
  /** null: not reported (clusters created before EKS offered deletion protection report none). */
  deletionProtection: boolean | null;
}

/** An ECS service's network settings (awsvpc network mode only). */
export interface EcsService {
  name: string;
  arn: string;
  cluster: string;
  region: string;
  /** Its tasks get a public IP address (awsvpcConfiguration.assignPublicIp ENABLED). */
  assignPublicIp: boolean;
}

/** A task set of an ECS service deployed by an external controller or CodeDeploy. */
export interface EcsTaskSet {
  id: string;
  arn: string;
  service: string;
  region: string;
  assignPublicIp: boolean;
}

/**
 * What a resource's policy opens beyond the account (domain/policies/resource-policy.ts). Not read: AWS refused the
 * policy, or answered something that is not a policy document; the resource's exposure checks then name it unread,
 * never private. A resource without a policy opens nothing.
 */
export type PolicyReading =
  /** `document`: the policy itself, for the attack-path analysis (who in the account it lets in); absent: none. */
  { read: true; exposure: PolicyExposure; document?: PolicyJson } | { read: false; reason: string };

/** An SQS queue (GetQueueAttributes). */
export interface SqsQueue {
  name: string;
  arn: string;
  region: string;
  policy: PolicyReading;
  /** Server-side encryption with a KMS key (KmsMasterKeyId) or SQS-managed keys (SqsManagedSseEnabled). */
  encrypted: boolean;
}

/** A customer managed KMS key: its state and its key policy (AWS managed keys' policies are AWS's). */
export interface KmsKeyPolicy {
  id: string;
  arn: string;
  region: string;
  /** DescribeKey's KeyState: Enabled, Disabled, PendingDeletion, PendingImport, Unavailable, ... */
  state: string;
  /** When a key pending deletion is deleted; null otherwise. */
  deletionDate: string | null;
  policy: PolicyReading;
}

/** An ECR private repository. */
export interface EcrRepository {
  name: string;
  arn: string;
  region: string;
  scanOnPush: boolean;
  /** imageTagMutability IMMUTABLE (or IMMUTABLE_WITH_EXCLUSION): a pushed tag cannot be moved to another image. */
  tagsImmutable: boolean;
  policy: PolicyReading;
}

/** A resource named by its ARN, in a region, with its resource policy: a Glacier vault, an event bus, a secret. */
export interface PolicyHolder {
  name: string;
  arn: string;
  region: string;
  policy: PolicyReading;
}

export interface SnsTopic {
  name: string;
  arn: string;
  region: string;
  policy: PolicyReading;
  /** Encrypted at rest with a KMS key (KmsMasterKeyId). */
  encrypted: boolean;
}

/** A confirmed SNS subscription; only the endpoint's host is kept (a URL may carry credentials). */
export interface SnsSubscription {
  arn: string;
  topicArn: string;
  region: string;
  protocol: string;
  endpointHost: string | null;
}

export interface Secret {
  name: string;
  arn: string;
  region: string;
  rotationEnabled: boolean;
  /** When the secret was created; null: not reported. */
  createdAt: string | null;
  /** The day its value was last retrieved (Secrets Manager keeps the date only); null: never. */
  lastAccessedAt: string | null;
  policy: PolicyReading;
}

/** A CloudWatch Logs resource policy of a region (they name the log groups they cover in their statements). */
export interface LogResourcePolicy {
  name: string;
  region: string;
  policy: PolicyReading;
}

/** An S3 access point of the account, with its own Block Public Access (which AWS fixes at creation). */
export interface S3AccessPoint {
  name: string;
  region: string;
  bucket: string;
  /** null: GetAccessPoint reported none (read as all off). */
  blockPublicAccess: BlockPublicAccess | null;
}

/** An S3 Multi-Region Access Point, with its Block Public Access. */
export interface MultiRegionAccessPoint {
  name: string;
  buckets: string[];
  blockPublicAccess: BlockPublicAccess | null;
}

/** A delegated administrator of the organization: a member account given the administration of AWS services. */
export interface DelegatedAdministrator {
  accountId: string;
  name: string;
  /** The service principals it administers (ListDelegatedServicesForAccount). */
  services: string[];
}

/**
 * The account's place in AWS Organizations, and what only the management account can read. `role`: none (no
 * organization), member, or management. The rest is null outside the management account (not applicable).
 */
export interface OrganizationView {
  role: 'none' | 'member' | 'management';
  id: string | null;
  delegatedAdministrators: DelegatedAdministrator[] | null;
  /** Its service control policies, by id and name, and whether one denies every region but a list (aws:RequestedRegion). */
  serviceControlPolicies: { id: string; name: string; restrictsRegions: boolean }[] | null;
  /** Whether IAM's centralized root access (RootCredentialsManagement) is on for the organization. */
  rootCredentialsManagement: boolean | null;
}

/** Who called what, out of the API names the CloudTrail threat checks count, in one region's recent events. */
export interface CloudTrailActivity {
  region: string;
  /** One per identity (userIdentity ARN) that made at least one of the calls looked up; AWS services have no ARN. */
  identities: { arn: string; type: string; eventNames: string[] }[];
  /** The event names whose lookup stopped at its page bound with more events left: their counts are a floor. */
  truncated: string[];
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

/** A function's resource policy read for what it opens to everyone: the public statements described, none when private. */
export type FunctionPolicyReading =
  /** `document`: the policy itself, for the attack-path analysis; absent: none. */
  { read: true; publicStatements: string[]; document?: PolicyJson } | { read: false; reason: string };

/** A Lambda function (its $LATEST configuration). */
export interface LambdaFunction {
  name: string;
  arn: string;
  region: string;
  /** The runtime (nodejs20.x); null for a container image, which has none. */
  runtime: string | null;
  /** Its execution role (ListFunctions' Role): what its code may do; null when Lambda reported none. */
  roleArn: string | null;
  /** Secrets in its environment variables (unread when they are encrypted with a key Sentinel may not use). */
  environment: SecretsReading<NamedSecret>;
  /** Secrets in the files of its .zip code package; null for a container image (its code is in ECR, not read). */
  code: SecretsReading<FileSecret> | null;
  /** Its resource-based policy (GetPolicy); a function without one is read, with no public statement. */
  policy: FunctionPolicyReading;
  /** Its function URLs (the function's and its aliases') and their auth type (NONE or AWS_IAM). */
  urls: { read: true; urls: { url: string; authType: string }[] } | { read: false; reason: string };
  /** The ARNs of the layer versions it uses. */
  layers: string[];
  /**
   * What triggers it (ListEventSourceMappings): unread when Lambda refused the region's list, which then says
   * nothing of its triggers (never read as none).
   */
  eventSources: { read: true; mappings: EventSourceMapping[] } | { read: false; reason: string };
}

/** An event source mapping: Lambda polls a source (a queue, a stream) and invokes the function with what it reads. */
export interface EventSourceMapping {
  uuid: string;
  /** The source's ARN: an SQS queue's, a Kinesis or DynamoDB stream's, ... */
  sourceArn: string;
  /** Enabled, Disabled (it does not poll), or a state between them (Creating, Enabling, Updating, ...); null: not reported. */
  state: string | null;
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
  /** Every principal's policies as documents, for the attack-path analysis (./iam-authorization.ts). */
  iamAuthorization: Collected<IamAuthorization>;
  serverCertificates: Collected<{ certificates: ServerCertificate[] }>;
  /**
   * The serial number of the virtual MFA device assigned to the root user, or null when it has none; and the IAM
   * users (by ARN) a virtual device is assigned to.
   */
  rootVirtualMfa: Collected<{ serialNumber: string | null; userArns: string[] }>;
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
  metricAlarms: Collected<{ filters: MetricFilter[]; alarmedMetrics: AlarmedMetric[]; silentAlarms: SilentAlarm[] }>;
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
  // Compute (regional; domain/scans/compute.ts): only what the secret detector found in their configuration is kept.
  /** Unread: also instances past the per-region bound, and instances whose user data was refused. */
  instanceUserData: Collected<{ instances: InstanceUserData[] }>;
  launchTemplates: Collected<{ templates: LaunchTemplate[] }>;
  autoScaling: Collected<AutoScaling>;
  codebuildProjects: Collected<{ projects: CodeBuildProject[] }>;
  glue: Collected<Glue>;
  batchJobDefinitions: Collected<{ jobDefinitions: BatchJobDefinition[] }>;
  // Network (regional).
  instanceMetadataDefaults: Collected<{ regions: InstanceMetadataDefaults[] }>;
  /** Only the subnets that give instances a public address. */
  publicIpSubnets: Collected<{ subnets: PublicIpSubnet[] }>;
  transitGateways: Collected<{ gateways: TransitGateway[] }>;
  /** Unread: endpoint services whose allowed principals could not be read (by id). */
  vpcEndpoints: Collected<{ endpoints: VpcEndpoint[]; services: EndpointService[] }>;
  /** Unread: load balancers whose listeners or attributes could not be read (by ARN). */
  loadBalancers: Collected<{ loadBalancers: LoadBalancer[] }>;
  /** Subnets, routes, network ACLs, groups and placements, for the internet-exposure analysis (./network-topology.ts). */
  networkTopology: Collected<NetworkTopology>;
  // Databases, analytics stores and their snapshots (regional).
  /** RDS, Aurora, DocumentDB and Neptune DB clusters (the same API lists them all). */
  rdsClusters: Collected<{ clusters: RdsCluster[] }>;
  /** DB snapshots and DB cluster snapshots the account owns, of every engine the RDS API serves. */
  rdsSnapshots: Collected<{ snapshots: RdsSnapshot[] }>;
  dms: Collected<{ instances: DmsReplicationInstance[]; endpoints: DmsEndpoint[] }>;
  redshiftClusters: Collected<{ clusters: RedshiftCluster[] }>;
  opensearchDomains: Collected<{ domains: OpenSearchDomain[] }>;
  kafkaClusters: Collected<{ clusters: KafkaCluster[] }>;
  elasticacheReplicationGroups: Collected<{ groups: ElastiCacheReplicationGroup[] }>;
  kinesisStreams: Collected<{ streams: KinesisStream[] }>;
  /** EBS volumes that are not encrypted, and every volume. */
  ebsVolumes: Collected<{ unencrypted: RegionalResource[]; volumes: RegionalResource[] }>;
  /**
   * The EBS snapshots the account owns: how many in each region read, those not encrypted, and the volumes they
   * were taken of (each once).
   */
  ebsSnapshots: Collected<{
    regions: { region: string; count: number }[];
    unencrypted: RegionalResource[];
    snapshottedVolumes: RegionalResource[];
  }>;
  /** Each region's block public access for EBS snapshots. */
  ebsSnapshotBlockPublicAccess: Collected<{ regions: SnapshotBlockPublicAccess[] }>;
  // Containers, machine learning and generative AI (regional, but for bedrockApiKeys).
  /**
   * Every region read where Bedrock is offered, with its invocation logging (a region where AWS does not offer
   * Bedrock is left out: cloud/aws/collectors/offered.ts). Unread: log groups that could not be read.
   */
  bedrockInvocationLogging: Collected<{ regions: BedrockInvocationLogging[] }>;
  /** Unread: models whose encryption could not be read (by ARN). */
  bedrockCustomModels: Collected<{ models: BedrockCustomModel[] }>;
  /** Unread: guardrails whose policies could not be read (by ARN). */
  bedrockGuardrails: Collected<{ guardrails: BedrockGuardrail[] }>;
  /** Unread: knowledge bases or data sources that could not be read. */
  bedrockAgents: Collected<{ agents: BedrockAgent[]; dataSources: BedrockDataSource[] }>;
  /** Every long-term Bedrock API key of the account's IAM users. */
  bedrockApiKeys: Collected<{ keys: BedrockApiKey[] }>;
  sagemakerNotebooks: Collected<{ notebooks: SageMakerNotebook[] }>;
  /** Recent training jobs only (TRAINING_JOB_WINDOW_DAYS, at most TRAINING_JOBS_PER_REGION per region). */
  sagemakerTrainingJobs: Collected<{ jobs: SageMakerTrainingJob[] }>;
  sagemakerModels: Collected<{ models: SageMakerModel[] }>;
  eksClusters: Collected<{ clusters: EksCluster[] }>;
  ecsServices: Collected<{ services: EcsService[]; taskSets: EcsTaskSet[] }>;
  /** Unread: queues whose attributes were refused (by ARN). */
  sqsQueues: Collected<{ queues: SqsQueue[] }>;
  /** Customer managed keys; unread: keys DescribeKey was refused for (by ARN). */
  kmsKeyPolicies: Collected<{ keys: KmsKeyPolicy[] }>;
  ecrRepositories: Collected<{ repositories: EcrRepository[] }>;
  glacierVaults: Collected<{ vaults: PolicyHolder[] }>;
  /** Unread: topics whose attributes were refused (by ARN). */
  snsTopics: Collected<{ topics: SnsTopic[]; subscriptions: SnsSubscription[] }>;
  secrets: Collected<{ secrets: Secret[] }>;
  /** SES identities (domains and email addresses, SES v2) with their sending authorization policies merged. */
  sesIdentities: Collected<{ identities: PolicyHolder[] }>;
  eventBuses: Collected<{ buses: PolicyHolder[] }>;
  logResourcePolicies: Collected<{ policies: LogResourcePolicy[] }>;
  /** S3 access points (regional: S3 Control lists them region by region). */
  s3AccessPoints: Collected<{ accessPoints: S3AccessPoint[] }>;
  s3MultiRegionAccessPoints: Collected<{ accessPoints: MultiRegionAccessPoint[] }>;
  organization: Collected<OrganizationView>;
  /** CloudTrail's recent management events (LookupEvents) of the API names the threat checks count (regional). */
  cloudtrailActivity: Collected<{ regions: CloudTrailActivity[] }>;
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
  /**
   * CodeArtifact packages whose origin controls let versions in from upstream (public) repositories (regional).
   * Unread: repositories whose packages were refused or past the per-repository bound, packages whose versions were
   * refused.
   */
  codeartifactPackages: Collected<{ packages: CodeArtifactPackage[] }>;
  /** Domains registered with Route 53 Domains (read in us-east-1, the only region its API answers in). */
  registeredDomains: Collected<{ domains: RegisteredDomain[] }>;
  /** The A records of public hosted zones that name addresses (aliases are left out). Unread: zones refused (by id). */
  hostedZoneRecords: Collected<{ records: AddressRecord[] }>;
  /** The account's Elastic IP addresses (regional). */
  elasticIps: Collected<{ addresses: ElasticIp[] }>;
  /** CloudFront is global. Unread: distributions whose configuration was refused (by ARN). */
  cloudfrontDistributions: Collected<{ distributions: CloudFrontDistribution[] }>;
  /** Unread: regions ACM refused. */
  acmCertificates: Collected<{ certificates: AcmCertificate[] }>;
  /** In the regions AWS offers Lightsail in. */
  lightsailInstances: Collected<{ instances: LightsailInstance[] }>;
  lightsailDatabases: Collected<{ databases: LightsailDatabase[] }>;
  /** AWS Backup's resource assignments of every backup plan (regional). Unread: plans whose selections were refused. */
  backupSelections: Collected<{ selections: BackupSelection[] }>;
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
  iamAuthorization: true,
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
  instanceUserData: true,
  launchTemplates: true,
  autoScaling: true,
  codebuildProjects: true,
  glue: true,
  batchJobDefinitions: true,
  instanceMetadataDefaults: true,
  publicIpSubnets: true,
  transitGateways: true,
  vpcEndpoints: true,
  loadBalancers: true,
  networkTopology: true,
  rdsClusters: true,
  rdsSnapshots: true,
  dms: true,
  redshiftClusters: true,
  opensearchDomains: true,
  kafkaClusters: true,
  elasticacheReplicationGroups: true,
  kinesisStreams: true,
  ebsVolumes: true,
  ebsSnapshots: true,
  ebsSnapshotBlockPublicAccess: true,
  bedrockInvocationLogging: true,
  bedrockCustomModels: true,
  bedrockGuardrails: true,
  bedrockAgents: true,
  bedrockApiKeys: true,
  sagemakerNotebooks: true,
  sagemakerTrainingJobs: true,
  sagemakerModels: true,
  eksClusters: true,
  ecsServices: true,
  sqsQueues: true,
  kmsKeyPolicies: true,
  ecrRepositories: true,
  glacierVaults: true,
  snsTopics: true,
  secrets: true,
  sesIdentities: true,
  eventBuses: true,
  logResourcePolicies: true,
  s3AccessPoints: true,
  s3MultiRegionAccessPoints: true,
  organization: true,
  cloudtrailActivity: true,
  lambdaFunctions: true,
  ecsTaskDefinitions: true,
  cloudformationStacks: true,
  stateMachines: true,
  ssmDocuments: true,
  apiGatewayStages: true,
  codeartifactPackages: true,
  registeredDomains: true,
  hostedZoneRecords: true,
  elasticIps: true,
  cloudfrontDistributions: true,
  acmCertificates: true,
  lightsailInstances: true,
  lightsailDatabases: true,
  backupSelections: true,
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

/** A DB cluster: Aurora and Multi-AZ DB clusters, and the DocumentDB and Neptune clusters the same API lists. */
export interface RdsCluster {
  id: string;
  arn: string;
  region: string;
  /** aurora-mysql, aurora-postgresql, mysql, postgres, docdb, neptune, ... */
  engine: string;
  storageEncrypted: boolean;
  /**
   * Whether its DB cluster parameter group makes clients use TLS (rds.force_ssl or require_secure_transport). false
   * for DocumentDB and Neptune, which it is not read for; null: the group's parameters were refused.
   */
  tlsEnforced: boolean | null;
}

/** A DB snapshot (of an instance) or a DB cluster snapshot the account owns. */
export interface RdsSnapshot {
  id: string;
  arn: string;
  region: string;
  kind: 'instance' | 'cluster';
  engine: string;
  /** manual, automated, awsbackup, ... (SnapshotType): only a manual snapshot can be shared. */
  type: string;
  encrypted: boolean;
  /**
   * Restorable by every AWS account (its restore attribute holds `all`); false for snapshots that cannot be shared.
   * null: its attributes could not be read (the snapshot is then unread, never private).
   */
  public: boolean | null;
}

/** A DMS replication instance. */
export interface DmsReplicationInstance {
  id: string;
  arn: string;
  region: string;
  /** null: DMS did not report it (the instance is then unread, never private). */
  publiclyAccessible: boolean | null;
  autoMinorVersionUpgrade: boolean;
}

/** A DMS endpoint: the source or target database a replication task connects to. */
export interface DmsEndpoint {
  id: string;
  arn: string;
  region: string;
  engine: string;
  /** SslMode: none, require, verify-ca or verify-full. */
  sslMode: string;
}

export interface RedshiftCluster {
  id: string;
  region: string;
  /** null: Redshift did not report it (the cluster is then unread, never private). */
  publiclyAccessible: boolean | null;
  encrypted: boolean;
  /** AutomatedSnapshotRetentionPeriod: 0 turns automated snapshots off. */
  automatedSnapshotRetentionDays: number;
  /**
   * Whether its parameter group sets require_ssl to true; null: the parameter group's parameters could not be read
   * (the cluster is then unread for that check).
   */
  requireSsl: boolean | null;
  /** AllowVersionUpgrade: major version upgrades are applied in the maintenance window. */
  allowVersionUpgrade: boolean;
}

/** An OpenSearch Service (or Elasticsearch) domain, with the settings DescribeDomains reports. */
export interface OpenSearchDomain {
  name: string;
  arn: string;
  region: string;
  /** Placed in a VPC: its endpoint has no public address, whatever its access policy says. */
  inVpc: boolean;
  /**
   * The statements of its access policy open to everyone that no known condition narrows, described
   * (domain/policies/resource-policy.ts); empty without any. null: the policy could not be parsed (unread).
   */
  publicStatements: string[] | null;
  encryptedAtRest: boolean;
  nodeToNodeEncryption: boolean;
  enforceHttps: boolean;
  /** Fine-grained access control (AdvancedSecurityOptions.Enabled). */
  fineGrainedAccessControl: boolean;
  /** Audit logs published to CloudWatch Logs (LogPublishingOptions.AUDIT_LOGS.Enabled). */
  auditLogs: boolean;
  /** A service software update is available (ServiceSoftwareOptions.UpdateAvailable). */
  updateAvailable: boolean;
}

/** An Amazon MSK cluster: serverless clusters are private and authenticated by design. */
export interface KafkaCluster {
  name: string;
  arn: string;
  region: string;
  serverless: boolean;
  /** Its brokers have public addresses (ConnectivityInfo.PublicAccess.Type other than DISABLED). */
  publicAccess: boolean;
  /** Clients may connect without authenticating (ClientAuthentication.Unauthenticated.Enabled). */
  unauthenticatedAccess: boolean;
  /** Clients authenticate with TLS certificates (ClientAuthentication.Tls.Enabled). */
  tlsAuthentication: boolean;
  /** EncryptionInTransit.ClientBroker: TLS, TLS_PLAINTEXT or PLAINTEXT; null when MSK did not report it. */
  clientBrokerEncryption: string | null;
  /** EncryptionInTransit.InCluster: brokers talk to each other over TLS. */
  inClusterEncryption: boolean;
}

/** An ElastiCache replication group (Redis OSS or Valkey). */
export interface ElastiCacheReplicationGroup {
  id: string;
  arn: string;
  region: string;
  engine: string;
  /** SnapshotRetentionLimit: days automatic backups are kept; 0 turns them off. */
  snapshotRetentionDays: number;
  atRestEncryption: boolean;
  transitEncryption: boolean;
  /** null: ElastiCache did not report it (the group is then unread for that check). */
  autoMinorVersionUpgrade: boolean | null;
}

export interface KinesisStream {
  name: string;
  arn: string;
  region: string;
  /** EncryptionType KMS; null: the stream's summary could not be read (unread). */
  encrypted: boolean | null;
}

/** A region's block public access state for EBS snapshots (GetSnapshotBlockPublicAccessState). */
export interface SnapshotBlockPublicAccess {
  region: string;
  /** block-all-sharing, block-new-sharing or unblocked. */
  state: string;
}

/**
 * A CodeArtifact package whose origin controls allow upstream versions (PackageOriginRestrictions upstream ALLOW),
 * and how its latest version came in: published into the domain (INTERNAL), ingested from an external connection
 * (EXTERNAL), or UNKNOWN (also when it has no version).
 */
export interface CodeArtifactPackage {
  /** `<repository ARN>/<namespace:>package`, as Prowler names it. */
  arn: string;
  domain: string;
  repository: string;
  format: string;
  namespace: string | null;
  name: string;
  region: string;
  latestOrigin: 'INTERNAL' | 'EXTERNAL' | 'UNKNOWN';
}

/** A domain registered with Route 53 Domains. */
export interface RegisteredDomain {
  name: string;
  /** Its transfer lock (clientTransferProhibited); null: Route 53 Domains did not report it (unread). */
  transferLock: boolean | null;
}

/** A non-alias A record of a public hosted zone, with the IPv4 addresses it answers. */
export interface AddressRecord {
  /** The zone's id, without its /hostedzone/ prefix. */
  zoneId: string;
  zoneName: string;
  name: string;
  addresses: string[];
}

/** An Elastic IP address the account holds. */
export interface ElasticIp {
  publicIp: string;
  region: string;
}

/** An S3 bucket a CloudFront distribution's S3 origin names. */
export interface CloudFrontS3Origin {
  originId: string;
  bucket: string;
  /**
   * Whether any account has the bucket: S3 answered HeadBucket 404 (NoSuchBucket) when none does. A bucket of
   * another account (403) exists. null: S3 answered neither (the distribution is then unread for it).
   */
  exists: boolean | null;
}

/** A CloudFront web distribution. */
export interface CloudFrontDistribution {
  id: string;
  arn: string;
  /** Its CloudFront domain name (d111111abcdef8.cloudfront.net). */
  domainName: string;
  /** DefaultRootObject: '' without one; null: its configuration could not be read (unread). */
  defaultRootObject: string | null;
  s3Origins: CloudFrontS3Origin[];
  /** Its custom origins (a load balancer, an API, a server) and how CloudFront connects to each. */
  customOrigins: { originId: string; domainName: string; protocolPolicy: string }[];
  /** ViewerProtocolPolicy of its default cache behaviour: allow-all, redirect-to-https or https-only. */
  viewerProtocolPolicy: string;
  /** The path patterns of its other cache behaviours that let viewers in over HTTP (allow-all). */
  httpPathPatterns: string[];
  /** The AWS WAF web ACL in front of it (WebACLId); null without one. */
  webAclId: string | null;
}

/** An ACM certificate (issued by ACM or imported). */
export interface AcmCertificate {
  arn: string;
  domainName: string;
  region: string;
  /** KeyAlgorithm as ACM names it (RSA_2048, EC_prime256v1; its answers also spell them RSA-2048). */
  keyAlgorithm: string;
  /** NotAfter; null when ACM reports none (a certificate not issued yet). */
  notAfter: string | null;
  /** Associated with an AWS service (a load balancer, a distribution, an API): what expires breaks it. */
  inUse: boolean;
}

/** A Lightsail instance. */
export interface LightsailInstance {
  name: string;
  arn: string;
  region: string;
  /** Its public IPv4 address; null without one. */
  publicIp: string | null;
  /** The port ranges of its firewall open to the internet (accessType public), as 22 or 8000-8080 with the protocol. */
  publicPorts: string[];
}

/** A Lightsail managed database. */
export interface LightsailDatabase {
  name: string;
  arn: string;
  region: string;
  engine: string;
  /** publiclyAccessible; null: Lightsail did not report it (the database is then unread, never private). */
  publiclyAccessible: boolean | null;
}

/** A backup plan's resource assignment: the resources AWS Backup backs up, as ARNs or ARN patterns (`*` wildcards). */
export interface BackupSelection {
  region: string;
  planId: string;
  planName: string;
  name: string;
  /** Resources (ARNs, ARN patterns, or `*` for every resource of the region). */
  resources: string[];
  /** NotResources: the ARNs or patterns it leaves out. */
  notResources: string[];
}
