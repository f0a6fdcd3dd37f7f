import type { NamedSecret, SecretKind, TextSecret } from '../secrets/detector';

// The compute parts of the inventory: what instances, launch templates, Auto Scaling, CodeBuild, Glue and Batch
// are configured with. Configuration can carry secrets (user data, build variables, job arguments): the collectors
// run the secret detector (domain/secrets/detector.ts) as they read, and only its findings (the kind of secret and
// where: a variable's name, a line) enter the inventory, which is stored. A secret's value never does.

/**
 * The secrets found in user data (base64, possibly gzipped, as EC2 returns it), line by line. null: the user data
 * is not text Sentinel can read (neither UTF-8 nor gzipped UTF-8), so it could not be searched: the secrets check
 * names the resource unread, never clean. Empty: nothing found, or no user data.
 */
export type UserDataSecrets = TextSecret[] | null;

/** An instance's user data, read with DescribeInstanceAttribute (one call per instance, bounded per region). */
export interface InstanceUserData {
  id: string;
  region: string;
  secrets: UserDataSecrets;
}

/**
 * The instance metadata service options a launch template or configuration sets (MetadataOptions). null: not set,
 * so EC2's default applies (HttpTokens optional unless the AMI or the account's default says otherwise, HttpEndpoint
 * enabled).
 */
export interface MetadataSettings {
  httpTokens: string | null;
  httpEndpoint: string | null;
}

/** One version of a launch template: only the default and the latest are read (what launches use). */
export interface LaunchTemplateVersion {
  number: number;
  isDefault: boolean;
  metadata: MetadataSettings;
  /** A network interface of the version asks for a public IPv4 address (AssociatePublicIpAddress). */
  publicIp: boolean;
  secrets: UserDataSecrets;
}

export interface LaunchTemplate {
  id: string;
  name: string;
  region: string;
  /** The default version first; the latest after it when it is another one. */
  versions: LaunchTemplateVersion[];
}

/** An Auto Scaling launch configuration (the older way of saying what a group launches; it never changes). */
export interface LaunchConfiguration {
  name: string;
  region: string;
  metadata: MetadataSettings;
  /** AssociatePublicIpAddress: instances in a default VPC's or public subnet get a public IPv4 address. */
  publicIp: boolean;
  secrets: UserDataSecrets;
}

export interface AutoScalingGroup {
  name: string;
  arn: string;
  region: string;
  /** The launch configuration it launches from; null when it uses a launch template or a mixed instances policy. */
  launchConfiguration: string | null;
  availabilityZones: string[];
  /** EC2 or ELB (or both, as AWS may list several types: "EC2,ELB"). */
  healthCheckType: string;
  /** It registers its instances with a Classic Load Balancer or a target group. */
  loadBalanced: boolean;
}

export interface AutoScaling {
  launchConfigurations: LaunchConfiguration[];
  groups: AutoScalingGroup[];
}

/** A secret found in a CodeBuild project's source location (a repository URL with a token or a password in it). */
export interface SourceSecret {
  /** 'primary source' or a secondary source's identifier. */
  source: string;
  kind: SecretKind;
}

/** A webhook filter that decides which events start a build. */
export interface WebhookFilter {
  type: string;
  pattern: string;
}

export interface CodeBuildProject {
  name: string;
  arn: string;
  region: string;
  /** projectVisibility: PRIVATE or PUBLIC_READ (anyone may read its builds' logs and artifacts); null: not reported. */
  visibility: string | null;
  /** Secrets in its PLAINTEXT environment variables (PARAMETER_STORE and SECRETS_MANAGER ones are references). */
  variableSecrets: NamedSecret[];
  /** Secrets in its sources' locations. */
  sourceSecrets: SourceSecret[];
  /** Webhook filters on who pushes or which branch (ACTOR_ACCOUNT_ID, HEAD_REF, BASE_REF) not anchored with ^...$. */
  unanchoredFilters: WebhookFilter[];
}

export interface GlueJob {
  name: string;
  region: string;
  /** Secrets in its DefaultArguments. */
  argumentSecrets: NamedSecret[];
  /** The security configuration it runs under; null: none. */
  securityConfiguration: string | null;
  /** Its arguments ask for S3 server-side encryption (--encryption-type sse-s3) without a security configuration. */
  sseS3Argument: boolean;
}

export interface GlueConnection {
  name: string;
  region: string;
  /** JDBC, KAFKA, MONGODB, NETWORK, ... */
  type: string;
  /** JDBC_ENFORCE_SSL is "true". */
  enforceSsl: boolean;
  /** Secrets in its ConnectionProperties (a PASSWORD kept there rather than in Secrets Manager counts). */
  propertySecrets: NamedSecret[];
}

/** A Glue security configuration: how jobs that run under it encrypt what they write. */
export interface GlueSecurityConfiguration {
  name: string;
  region: string;
  /** S3EncryptionMode: DISABLED, SSE-KMS or SSE-S3. */
  s3Encryption: string;
  /** CloudWatchEncryptionMode: DISABLED or SSE-KMS. */
  cloudWatchEncryption: string;
  /** JobBookmarksEncryptionMode: DISABLED or CSE-KMS. */
  bookmarksEncryption: string;
}

/** A region's Glue Data Catalog: its encryption settings and its resource policy. */
export interface GlueCatalog {
  region: string;
  /** ConnectionPasswordEncryption.ReturnConnectionPasswordEncrypted. */
  passwordsEncrypted: boolean;
  /**
   * The statements of its resource policy open to everyone, described (describeStatement); empty: none, or no
   * policy. Not read: GetResourcePolicy was refused or its answer is not a policy, and why.
   */
  policy: { read: true; publicStatements: string[] } | { read: false; reason: string };
}

export interface Glue {
  jobs: GlueJob[];
  connections: GlueConnection[];
  securityConfigurations: GlueSecurityConfiguration[];
  catalogs: GlueCatalog[];
}

/** An active revision of an AWS Batch job definition. */
export interface BatchJobDefinition {
  name: string;
  revision: number;
  arn: string;
  region: string;
  /** Secrets in its containers' environment variables (by name) and commands (named `command`). */
  secrets: NamedSecret[];
}
