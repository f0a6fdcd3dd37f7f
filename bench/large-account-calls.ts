import { THREAT_EVENT_NAMES } from '../domain/checks/cloudtrail-threat';
import { MANAGED_POLICIES } from '../domain/onboarding/role';
import type { AwsRequest } from '../test/helpers/aws';

// The large account's AWS calls by service and operation, next to the fewest the checks need for that account.

export interface ServiceSizes {
  functions: number;
  queues: number;
  topics: number;
  snapshots: number;
  secrets: number;
  repositories: number;
  documents: number;
  keys: number;
}

/** The regions the resources are spread over (the first few enabled ones, as the buckets are). */
export const RESOURCE_REGIONS = 4;
/** One resource in this many is exposed to anyone (a public policy, a snapshot or document shared with all). */
export const PUBLIC_EVERY = 20;
/** How many of `count` resources land in each region when resource i goes to region i % regions. */
export function perRegion(count: number, regions: number): number[] {
  return Array.from({ length: regions }, (_, r) => Math.floor(count / regions) + (r < count % regions ? 1 : 0));
}

/** How many of `count` resources are public when every PUBLIC_EVERY-th one (from the first) is. */
export const publicOf = (count: number) => Math.ceil(count / PUBLIC_EVERY);

export interface LargeAccountSize extends ServiceSizes {
  users: number;
  buckets: number;
  securityGroups: number;
}

export interface ServiceCalls {
  service: string;
  calls: number;
  /** Of `calls`, the SDK's retries of calls that failed (moto, on a loaded machine, sometimes fails one). */
  retries: number;
  /** The fewest calls the checks need for this account (see `minimumCalls`); 0 for a service it expects none of. */
  minimum: number;
  /** The service's calls by operation, most first. */
  operations: [string, number][];
}

/** A service whose calls exceed the fewest the checks need by more than this is flagged. */
export const CALLS_GOAL = 1.1;

/** The service a request was for, as the report names it: S3 Control signs as `s3` but has paths of its own. */
export function serviceOf(request: AwsRequest): string {
  if (request.service === 's3' && request.path.startsWith('/v20180820/')) return 's3control';
  return request.service;
}

/** Pages of a list an API answers `pageSize` items at a time, when `count` resources are spread as the seed does. */
function listCalls(count: number, pageSize: number, regions: number): number {
  const holding = perRegion(count, Math.min(RESOURCE_REGIONS, regions));
  // A region without any still answers its list once (empty).
  return regions - holding.length + holding.reduce((sum, n) => sum + Math.max(1, Math.ceil(n / pageSize)), 0);
}

/**
 * The fewest calls the checks need for this account, by service, for every service the scan reads: one list per
 * part (per enabled region for the regional ones), with as many pages as the API's largest page needs, and the
 * calls per resource that the checks read (each named below). Resources that do not exist here cost nothing but
 * their list: the account has no trail, detector, database, file system, cluster, load balancer, stack, API, job,
 * state machine or instance. Bedrock and SageMaker are read only where AWS offers them (offered.ts): moto (behind
 * the front) answers in every region, so every enabled region counts here. Cost Explorer's three on a first scan
 * only: the second reuses them.
 */
export function minimumCalls({ regions, size }: { regions: number; size: LargeAccountSize }, costExplorer: boolean) {
  const lists = (count: number, pageSize: number) => listCalls(count, pageSize, regions);
  /** The regions that hold some of `count` resources. */
  const holding = (count: number) => perRegion(count, Math.min(RESOURCE_REGIONS, regions)).filter((n) => n > 0).length;
  /** Sentinel's role and the functions' execution role, next to the users, in IAM's authorization details. */
  const principals = size.users + 2;
  /** The AWS managed policies attached to someone: Sentinel's role's, and AdministratorAccess (every 20th user). */
  const attachedAwsPolicies = MANAGED_POLICIES.length + (size.users > 0 ? 1 : 0);
  return {
    // DescribeRegions; per region security groups, instances, public snapshot candidates (RestorableByUserIds all),
    // public images, EBS default encryption, network ACLs, VPCs, flow logs, launch templates, instance metadata
    // defaults, subnets, transit gateways, VPC endpoints, endpoint services, unencrypted volumes, snapshot block
    // public access and the network topology's route tables (17: the topology's instances, subnets and ACLs are the
    // lists above, made once for every part; it asks for security groups by id only for those something placed is
    // in, and nothing is placed here); the account's snapshots (1,000 a page); each public snapshot's
    // createVolumePermission
    ec2: 1 + 17 * regions + lists(size.snapshots, 1000) + publicOf(size.snapshots),
    // per region the trails, and the threat checks' LookupEvents: one per API name (domain/checks/cloudtrail-threat.ts,
    // one page of the last 24 hours each: LookupEvents filters on one name a call), the fewest those checks need
    cloudtrail: regions * (1 + THREAT_EVENT_NAMES.length),
    guardduty: regions, // detectors
    // summary, password policy, report generation and content, authorization details (1,000 a page), server
    // certificates, virtual MFA devices, instance profiles, attached AWS managed policies and each one's default
    // version, Bedrock API keys (service-specific credentials of all users); keys per user
    iam: 9 + Math.ceil(principals / 1000) + attachedAwsPolicies + size.users,
    // ListBuckets; per bucket its region (moto's ListBuckets does not give it), Block Public Access, ACL and policy
    // (no bucket here has one, so no policy status)
    s3: 1 + 4 * size.buckets,
    // the account's Block Public Access, multi-region access points; per region access points
    s3control: 2 + regions,
    // instances (one list for the instances' part and the network topology), clusters, DB snapshots, cluster snapshots
    rds: 4 * regions,
    elasticfilesystem: regions,
    // per region ListKeys (one list serves both key parts); per customer managed key DescribeKey, its rotation status
    // and its key policy
    kms: regions + 3 * size.keys,
    config: 2 * regions, // recorders and their status
    securityhub: regions,
    'access-analyzer': regions,
    logs: 2 * regions, // metric filters, resource policies
    monitoring: regions, // CloudWatch alarms
    ce: costExplorer ? 3 : 0, // costs, anomalies, anomaly monitors
    budgets: 1,
    account: 3, // the three alternate contacts
    health: 1,
    autoscaling: 2 * regions, // launch configurations, groups
    codebuild: regions,
    // jobs, connections, security configurations, the catalog's encryption settings and its resource policy
    glue: 5 * regions,
    batch: regions, // job definitions
    // load balancers, one list for their part and the network topology (which reads target groups only behind an
    // internet-facing one: none here)
    elasticloadbalancing: regions,
    dms: 2 * regions, // replication instances, endpoints
    redshift: regions,
    es: regions, // OpenSearch domain names, one list for the domains' part and the network topology
    kafka: regions,
    // replication groups, and the network topology's cache clusters (their subnet groups only when a cluster is in a
    // replication group: none here)
    elasticache: 2 * regions,
    kinesis: regions,
    // per region where offered: invocation logging, custom models, guardrails; Agents' agents and knowledge bases
    bedrock: 5 * regions,
    sagemaker: 3 * regions, // notebooks, training jobs, models
    eks: regions,
    ecs: 2 * regions, // clusters, task definitions
    // ListQueues (1,000 a page); per queue its attributes (policy, encryption)
    sqs: lists(size.queues, 1000) + size.queues,
    glacier: regions,
    // ListTopics (100 a page) and ListSubscriptions per region; per topic its attributes (policy, encryption)
    sns: lists(size.topics, 100) + regions + size.topics,
    // ListSecrets (100 a page, with rotation); per secret its resource policy
    secretsmanager: lists(size.secrets, 100) + size.secrets,
    // DescribeRepositories (1,000 a page); per repository its policy
    ecr: lists(size.repositories, 1000) + size.repositories,
    ses: regions, // email identities
    // per region the event buses; and the event forwarder Sentinel expects (the bench's account has an event key):
    // its connection, its API destination, and its rules, which one ListRules by their common prefix (sentinel-)
    // lists with their states (each rule found would add its targets: none exists here)
    events: 4 * regions,
    cloudformation: regions,
    states: regions,
    // ListDocuments (Owner Self, 50 a page); per document its content and its share permission
    ssm: lists(size.documents, 50) + 2 * size.documents,
    apigateway: regions,
    organizations: 1, // DescribeOrganization: the account is in none
    // ListFunctions (50 a page, with the environment variables); per region holding functions ListEventSourceMappings
    // (none here: one page); per function GetFunction (its code package, read for secrets), GetPolicy and
    // ListFunctionUrlConfigs
    lambda: lists(size.functions, 50) + holding(size.functions) + 3 * size.functions,
    codeartifact: regions, // repositories (none here, so no packages)
    route53: 1, // hosted zones (none here, so no records)
    cloudfront: 1, // distributions
    backup: regions, // backup plans (none here, so no selections)
    route53domains: 1, // registered domains
    acm: regions, // certificates
    lightsail: 2 * regions, // instances, databases
  } as Record<string, number>;
}

/** An operation's name: the protocol's, or for a REST API its method and path with the resources' names starred. */
function operationOf(request: AwsRequest): string {
  if (request.operation) return request.operation;
  const path = request.path
    .split('/')
    .map((segment) => (/^([a-z-]*|\d{4}-\d{2}-\d{2}|v\d+)$/.test(segment) ? segment : '*'))
    .join('/');
  return `${request.method} ${path}`;
}

/**
 * The calls by service, in `minimum`'s order, then any service it does not expect (minimum 0); each with its calls by
 * operation.
 */
export function callsByService(made: readonly AwsRequest[], minimum: Record<string, number>): ServiceCalls[] {
  const byService = new Map<string, Map<string, number>>(Object.keys(minimum).map((service) => [service, new Map()]));
  const retries = new Map<string, number>();
  for (const request of made) {
    const service = serviceOf(request);
    if ((request.attempt ?? 1) > 1) retries.set(service, (retries.get(service) ?? 0) + 1);
    const operations = byService.get(service) ?? new Map<string, number>();
    const operation = operationOf(request);
    operations.set(operation, (operations.get(operation) ?? 0) + 1);
    byService.set(service, operations);
  }
  return [...byService.entries()].map(([service, operations]) => ({
    service,
    calls: [...operations.values()].reduce((sum, n) => sum + n, 0),
    retries: retries.get(service) ?? 0,
    minimum: minimum[service] ?? 0,
    operations: [...operations.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  }));
}

/**
 * Whether a service's calls, its retries left out (they measure the emulator and the machine, not the collectors),
 * exceed the goal: more than CALLS_GOAL times the fewest, or any where none are needed.
 */
export const overGoal = ({ calls, retries, minimum }: ServiceCalls) =>
  minimum === 0 ? calls - retries > 0 : calls - retries > CALLS_GOAL * minimum;

/**
 * The calls of a scan by service next to the fewest, as printed after the scan: the ratio counts every call, retries
 * too; the services over the goal without their retries are flagged, with their busiest operations.
 */
export function callsTable(calls: readonly ServiceCalls[]): string {
  const row = (cells: string[]) =>
    `    ${(cells[0] ?? '').padEnd(22)}${cells
      .slice(1, 5)
      .map((c) => c.padStart(8))
      .join('')}${cells[5] ?? ''}`;
  const rows = calls.map((c) =>
    row([
      c.service,
      String(c.calls),
      String(c.retries),
      String(c.minimum),
      c.minimum ? (c.calls / c.minimum).toFixed(2) : '-',
      overGoal(c)
        ? `  over ${CALLS_GOAL}x: ${c.operations
            .slice(0, 4)
            .map(([operation, n]) => `${operation} ${n}`)
            .join(', ')}`
        : '',
    ]),
  );
  const total = (key: 'calls' | 'retries' | 'minimum') => calls.reduce((sum, c) => sum + c[key], 0);
  return [
    row(['service', 'calls', 'retries', 'fewest', 'ratio']),
    ...rows,
    row([
      'total',
      String(total('calls')),
      String(total('retries')),
      String(total('minimum')),
      (total('calls') / total('minimum')).toFixed(2),
    ]),
  ].join('\n');
}
