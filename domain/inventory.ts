// What a scan collects from an AWS account: the input of the check catalog. Collectors (cloud/aws) and the
// sandbox provider (cloud/sandbox) produce it; evaluation (domain/checks) is a pure function of it.
// Timestamps are ISO 8601 strings so an inventory crosses activity boundaries as plain JSON.

/** A part of the inventory that could not be read (AccessDenied, not subscribed): its checks are "not evaluated". */
export type Collected<T> = { status: 'ok'; value: T } | { status: 'not_evaluated'; reason: string };

export interface AccessKey {
  id: string;
  status: 'Active' | 'Inactive';
  createdAt: string;
  lastUsedAt: string | null;
}

export interface IamUser {
  name: string;
  arn: string;
  createdAt: string;
  hasConsolePassword: boolean;
  mfaEnabled: boolean;
  accessKeys: AccessKey[];
  /** Has `*` on `*` through an attached, group or inline policy (e.g. AdministratorAccess). */
  adminAccess: boolean;
}

export interface IamRole {
  name: string;
  arn: string;
  adminAccess: boolean;
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

export interface IamInventory {
  rootMfaEnabled: boolean;
  rootAccessKeysPresent: boolean;
  /** Last use of the root user's password or keys, from the credential report. */
  rootLastUsedAt: string | null;
  passwordPolicy: PasswordPolicy | null;
  users: IamUser[];
  /** Customer roles only: service-linked roles and Sentinel's own role are left out by the collector. */
  roles: IamRole[];
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
}

export interface S3Inventory {
  accountBlockPublicAccess: BlockPublicAccess | null;
  buckets: Bucket[];
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

export interface Instance {
  id: string;
  region: string;
  type: string;
  state: string;
  launchedAt: string;
}

export interface Ec2Inventory {
  securityGroups: SecurityGroup[];
  instances: Instance[];
  publicSnapshots: { id: string; region: string }[];
  publicImages: { id: string; region: string }[];
}

export interface Trail {
  name: string;
  homeRegion: string;
  multiRegion: boolean;
  logging: boolean;
}

export interface GuardDutyRegion {
  region: string;
  detectorEnabled: boolean;
  /** Findings of severity 7 or more. */
  highSeverityFindings: { id: string; type: string; severity: number; title: string }[];
}

export interface DailyCost {
  date: string; // YYYY-MM-DD
  amountUsd: number;
}

export interface CostAnomaly {
  id: string;
  impactUsd: number;
  startDate: string;
  service: string | null;
}

export interface Budget {
  name: string;
  limitUsd: number;
  actualSpendUsd: number;
  forecastedSpendUsd: number | null;
}

export interface HealthEvent {
  arn: string;
  eventTypeCode: string;
  service: string;
  region: string;
  startTime: string;
  statusCode: string;
}

export interface AlternateContacts {
  security: boolean;
  billing: boolean;
  operations: boolean;
}

export interface Inventory {
  collectedAt: string;
  /** Regions enabled for the account, and those where it has resources (instances, trails, ...). */
  regions: { enabled: string[]; inUse: string[] };
  iam: Collected<IamInventory>;
  s3: Collected<S3Inventory>;
  ec2: Collected<Ec2Inventory>;
  cloudtrail: Collected<{ trails: Trail[] }>;
  guardduty: Collected<{ regions: GuardDutyRegion[] }>;
  costs: Collected<{ daily: DailyCost[] }>;
  anomalies: Collected<{ anomalies: CostAnomaly[] }>;
  budgets: Collected<{ budgets: Budget[] }>;
  alternateContacts: Collected<AlternateContacts>;
  /** Needs a Business or Enterprise support plan; otherwise not evaluated (never a false pass). */
  health: Collected<{ events: HealthEvent[] }>;
}
