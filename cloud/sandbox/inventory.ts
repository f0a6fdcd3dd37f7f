import { MONITORED_ACTIVITIES } from '../../domain/checks/cis-metric-filters';
import type {
  AlarmedMetric,
  SilentAlarm,
  AlternateContacts,
  BlockPublicAccess,
  Bucket,
  Budget,
  Collected,
  CostAnomaly,
  DailyCost,
  EfsFileSystem,
  GuardDutyRegion,
  IamGroup,
  IamRole,
  Instance,
  Inventory,
  KmsKey,
  MetricFilter,
  PasswordPolicy,
  RdsInstance,
  RegionalResource,
  SecurityGroup,
  ServerCertificate,
  Trail,
  Unread,
} from '../../domain/scans/inventory';
import {
  cleanNetwork,
  defaultGroupAsCreated,
  ebsEncryptionOnlyWhereUsed,
  openAcl,
  type SandboxNetwork,
  unloggedStagingVpc,
  unloggedVpcs,
} from './network';
import { computeParts } from './compute';
import { sandboxContainers } from './containers';
import { resourcePolicyParts } from './resource-policies';
import { healthyForwarder } from './event-forwarder';
import { sandboxWorkloads } from './workloads';
import { sandboxDnsAndPackages } from './dns-and-packages';
import { sandboxEdge } from './edge';
import { exposeNetwork, publicIpOf, sandboxLoadBalancers, vpcEdges } from './network-exposure';
import { readableTopology, sandboxNetworkTopology, withLegacyWebServer } from './network-topology';
import { sandboxDatabases, type SandboxSeed, withNetworkAndCertificates } from './databases';
import { sandboxBackupSelections, withRdsHardening } from './rds-hardening';
import { bastionWideRanges } from './ec2-breadth';
import { ALL_PLANS, OWN_TRUST, PRIVATE_BUCKET, withGovernance } from './governance';
import { NEGLECT, neglectOf } from './upkeep';
import { sandboxIamAuthorization } from './iam-authorization';
import type { ExpectedForwarder } from '../types';

// A simulated AWS account for the sandbox provider. Everything derives from the account id and the scan time,
// never from Math.random or the clock, so a demo (and a test) can replay any scan exactly.
//
// An account is a clean small setup, plus a few baseline misconfigurations its seed picks (so accounts differ),
// plus drifting issues that come and go as time passes (so repeated scans show findings opening and resolving).
// One documented account id shows partial coverage: two regions and one bucket Sentinel may not read.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Drift moves at the Team plan's scan interval, so every scheduled scan can see a change. */
/** The sandbox's drifting issues open and close on these six-hourly boundaries (UTC). */
export const SLOT_MS = 6 * HOUR_MS;

/** The regions AWS enables by default; opt-in regions stay disabled in the sandbox. */
const ENABLED_REGIONS = [
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ca-central-1',
  'eu-central-1',
  'eu-north-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'sa-east-1',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
];
const HOME_REGIONS = ['us-east-1', 'us-east-1', 'eu-west-1', 'us-west-2', 'eu-central-1', 'ap-southeast-2'];
const COMPANIES = ['acme', 'globex', 'initech', 'northwind', 'umbrella', 'hooli', 'contoso', 'wayne'];
const PEOPLE = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];

// --- Seeded randomness --------------------------------------------------------------------------------------

/** xmur3: a 32-bit seed from a string. */
function hash(text: string): number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

/** mulberry32: numbers in [0, 1) from a seed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

/** A stream of its own for each purpose, so adding a draw in one place does not reshuffle the others. */
const randomFor = (...keys: (string | number)[]): Random => mulberry32(hash(keys.join(':')));
const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function resourceId(alphabet: string, length: number, ...keys: (string | number)[]): string {
  const random = randomFor(...keys);
  return Array.from({ length }, () => pick(random, [...alphabet])).join('');
}
const hexId = (length: number, ...keys: (string | number)[]) => resourceId('0123456789abcdef', length, ...keys);
const accessKeyId = (...keys: string[]) => `AKIA${resourceId('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16, ...keys)}`;

const iso = (date: Date) => date.toISOString();
const ago = (at: Date, ms: number) => iso(new Date(at.getTime() - ms));
const dateOf = (day: number) => iso(new Date(day * DAY_MS)).slice(0, 10);
const cents = (usd: number) => Math.round(usd * 100) / 100;

// --- Costs: a pure function of the date, so a day's spend never changes between scans ----------------------

const SPIKE_PERIOD_DAYS = 10;
/** Cost Anomaly Detection keeps a spike open for a few days after it happened. */
const ANOMALY_OPEN_DAYS = 3;

function dayCost(accountId: string, baseUsd: number, day: number): number {
  const random = randomFor(accountId, 'cost', day);
  const spike = (day + (hash(`${accountId}:spike`) % SPIKE_PERIOD_DAYS)) % SPIKE_PERIOD_DAYS === 0;
  // A spike is a forgotten batch job on top of the usual spend: large even for the smallest accounts.
  return cents(baseUsd * (0.85 + 0.3 * random()) + (spike ? 3 * baseUsd + 50 + 50 * random() : 0));
}

function costs(accountId: string, at: Date, dailySpendUsd: number) {
  const today = Math.floor(at.getTime() / DAY_MS);
  const daily: DailyCost[] = Array.from({ length: 14 }, (_, i) => today - 14 + i).map((day) => ({
    date: dateOf(day),
    amountUsd: dayCost(accountId, dailySpendUsd, day),
  }));

  const anomalies: CostAnomaly[] = daily
    .slice(-ANOMALY_OPEN_DAYS)
    .filter((d) => d.amountUsd > 2.5 * dailySpendUsd)
    .map((d) => ({
      id: hexId(36, accountId, 'anomaly', d.date),
      impactUsd: cents(d.amountUsd - dailySpendUsd),
      startDate: d.date,
      service: 'Amazon Elastic Compute Cloud - Compute',
    }));

  const firstDay = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1) / DAY_MS;
  const daysInMonth = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  let actual = 0;
  for (let day = firstDay; day < today; day++) actual += dayCost(accountId, dailySpendUsd, day);
  const forecast = actual + dailySpendUsd * (daysInMonth - (today - firstDay));
  // Room for a month of usual spend and its spikes (at most four, each under 3x the daily spend plus 100 USD).
  const budgets: Budget[] = [
    {
      name: 'Monthly total',
      limitUsd: Math.ceil((dailySpendUsd * 48 + 400) / 100) * 100,
      actualSpendUsd: cents(actual),
      forecastedSpendUsd: cents(forecast),
      alerts: { read: true, notifies: true },
    },
  ];
  return { daily, anomalies, budgets };
}

// --- The account under construction -------------------------------------------------------------------------

/** An IAM user as the sandbox models it; assembly splits it into the principals and the credential report. */
interface SandboxUser {
  name: string;
  arn: string;
  createdAt: string;
  hasConsolePassword: boolean;
  mfaEnabled: boolean;
  accessKeys: { id: string; status: 'Active' | 'Inactive'; createdAt: string; lastUsedAt: string | null }[];
  adminAccess: boolean;
  managedPolicies: string[];
  inlinePolicies: string[];
  /** The groups it belongs to, by name. */
  groups: string[];
}

/** The parts issues edit in place before the inventory is assembled. */
interface SandboxAccount {
  id: string;
  at: Date;
  company: string;
  /** Regions in use, home region first. */
  regions: string[];
  iam: {
    rootMfaEnabled: boolean;
    rootAccessKeysPresent: boolean;
    rootLastUsedAt: string | null;
    passwordPolicy: PasswordPolicy | null;
    /** The serial number of the root user's virtual MFA device; null: a hardware key. */
    rootVirtualMfa: string | null;
    users: SandboxUser[];
    roles: IamRole[];
    groups: IamGroup[];
    certificates: ServerCertificate[];
  };
  s3: { accountBlockPublicAccess: BlockPublicAccess | null; buckets: Bucket[] };
  ec2: {
    securityGroups: SecurityGroup[];
    instances: Instance[];
    publicSnapshots: RegionalResource[];
    publicImages: RegionalResource[];
  };
  net: SandboxNetwork;
  trails: Trail[];
  monitoring: { filters: MetricFilter[]; alarmedMetrics: AlarmedMetric[] };
  guardduty: GuardDutyRegion[];
  /** The regions where AWS Config records, Security Hub is on and an external access analyzer runs. */
  regionalServices: { config: string[]; securityHub: string[]; accessAnalyzer: string[] };
  /** The account's typical daily spend, around which the daily costs vary. */
  dailySpendUsd: number;
  daily: DailyCost[];
  anomalies: CostAnomaly[];
  budgets: Budget[];
  contacts: AlternateContacts;
  dataStores: DataStores;
}

const iamArn = (accountId: string, path: string) => `arn:aws:iam::${accountId}:${path}`;
const TRAIL_LOG_GROUP = 'aws-cloudtrail-logs-management-events';
const bucketName = (company: string, accountId: string, purpose: string) => `${company}-${purpose}-${accountId}`;
const fullBlock = () => ({
  blockPublicAcls: true,
  ignorePublicAcls: true,
  blockPublicPolicy: true,
  restrictPublicBuckets: true,
});

function home(account: SandboxAccount): string {
  return account.regions[0] as string;
}
function secondary(account: SandboxAccount): string {
  return account.regions[1] as string;
}
function ciUser(account: SandboxAccount): SandboxUser {
  return account.iam.users.find((u) => u.name === 'ci-deploy') as SandboxUser;
}

function cleanAccount(id: string, at: Date): SandboxAccount {
  const random = randomFor(id, 'baseline');
  const company = pick(random, COMPANIES);
  const homeRegion = pick(random, HOME_REGIONS);
  const others = shuffled(
    random,
    ENABLED_REGIONS.filter((r) => r !== homeRegion),
  ).slice(0, int(random, 1, 2));
  const regions = [homeRegion, ...others];
  const [admin, developer] = shuffled(random, PEOPLE) as [string, string];

  const human = (name: string, adminAccess: boolean): SandboxUser => ({
    name,
    arn: iamArn(id, `user/${name}`),
    createdAt: ago(at, int(random, 200, 900) * DAY_MS),
    hasConsolePassword: true,
    mfaEnabled: true,
    accessKeys: [],
    // People get their permissions from groups.
    adminAccess,
    managedPolicies: [],
    inlinePolicies: [],
    groups: [adminAccess ? 'Administrators' : 'Developers'],
  });
  const ciKeyAge = int(random, 20, 80) * DAY_MS;
  const dailySpendUsd = int(random, 8, 60);

  return {
    id,
    at,
    company,
    regions,
    dailySpendUsd,
    iam: {
      rootMfaEnabled: true,
      rootAccessKeysPresent: false,
      rootLastUsedAt: ago(at, int(random, 40, 300) * DAY_MS),
      passwordPolicy: {
        minimumLength: 14,
        requireSymbols: true,
        requireNumbers: true,
        requireUppercase: true,
        requireLowercase: true,
        maxAgeDays: 90,
        reusePrevention: 24,
      },
      users: [
        human(admin, true),
        human(developer, false),
        {
          name: 'ci-deploy',
          arn: iamArn(id, 'user/ci-deploy'),
          createdAt: ago(at, ciKeyAge + DAY_MS),
          hasConsolePassword: false,
          mfaEnabled: false,
          accessKeys: [
            {
              id: accessKeyId(id, 'ci-deploy'),
              status: 'Active',
              createdAt: ago(at, ciKeyAge),
              lastUsedAt: ago(at, int(random, 1, 20) * HOUR_MS),
            },
          ],
          adminAccess: false,
          managedPolicies: [],
          inlinePolicies: [],
          groups: [],
        },
      ],
      roles: [
        ...[
          'app-instance-role',
          'lambda-execution',
          'orders-api',
          'github-actions-deploy',
          'bedrock-agent-support',
          'OrganizationAccountAccessRole',
        ].map((name) => ({
          name,
          arn: iamArn(id, `role/${name}`),
          adminAccess: name === 'OrganizationAccountAccessRole',
          managedPolicies: [],
          fullAdminPolicies: [],
          trust: OWN_TRUST,
        })),
        {
          name: 'incident-support',
          arn: iamArn(id, 'role/incident-support'),
          adminAccess: false,
          managedPolicies: ['AWSSupportAccess'],
          fullAdminPolicies: [],
          trust: OWN_TRUST,
        },
      ],
      groups: [
        {
          name: 'Administrators',
          arn: iamArn(id, 'group/Administrators'),
          managedPolicies: ['AdministratorAccess'],
          fullAdminPolicies: [],
        },
        {
          name: 'Developers',
          arn: iamArn(id, 'group/Developers'),
          managedPolicies: ['PowerUserAccess'],
          fullAdminPolicies: [],
        },
      ],
      rootVirtualMfa: null,
      // IAM server certificates predate ACM: most accounts have none.
      certificates: [],
    },
    s3: {
      accountBlockPublicAccess: fullBlock(),
      buckets: ['app-assets', 'data-exports', 'backups', 'cloudtrail-logs', 'terraform-state']
        .slice(0, int(random, 3, 5))
        .map((purpose, i) => ({
          name: bucketName(company, id, purpose),
          region: i === 0 ? homeRegion : pick(random, regions),
          publicViaAcl: false,
          publicViaPolicy: false,
          blockPublicAccess: fullBlock(),
          deniesInsecureTransport: randomFor(id, 'tls', purpose)() < 0.93,
          ...PRIVATE_BUCKET,
        })),
    },
    ec2: {
      // Only internet-open rules are collected: the web tier's HTTPS is meant to be public; others have none.
      securityGroups: regions.flatMap((region) => [
        { id: `sg-${hexId(17, id, region, 'default')}`, name: 'default', region, openIngress: [] },
        {
          id: `sg-${hexId(17, id, region, 'web')}`,
          name: 'web',
          region,
          openIngress: [
            { protocol: 'tcp', fromPort: 443, toPort: 443, cidr: '0.0.0.0/0' },
            { protocol: 'tcp', fromPort: 443, toPort: 443, cidr: '::/0' },
          ],
        },
        {
          id: `sg-${hexId(17, id, region, 'bastion')}`,
          name: 'bastion',
          region,
          openIngress: [],
          wideRanges: bastionWideRanges(randomFor, id, region, neglectFor(id)),
        },
      ]),
      instances: regions.flatMap((region, r) =>
        Array.from({ length: r === 0 ? int(random, 2, 4) : int(random, 1, 2) }, (_, i) => ({
          id: `i-${hexId(17, id, region, i)}`,
          region,
          type: pick(random, ['t3.micro', 't3.small', 't3.medium', 'm5.large']),
          state: random() < 0.85 ? 'running' : 'stopped',
          launchedAt: ago(at, int(random, 3, 400) * DAY_MS + int(random, 0, 23) * HOUR_MS),
          metadata: { httpTokens: 'required', httpEndpoint: 'enabled' },
          instanceProfileArn: iamArn(id, 'instance-profile/app-instance-role'),
          // Behind the load balancer: no public address, in the web tier's group.
          publicIp: null,
          securityGroupIds: [`sg-${hexId(17, id, region, 'web')}`],
        })),
      ),
      publicSnapshots: [],
      publicImages: [],
    },
    net: cleanNetwork({
      idOf: (...keys) => hexId(17, id, ...keys),
      regionsInUse: regions,
      enabledRegions: ENABLED_REGIONS,
    }),
    trails: [sandboxTrail(id, company, homeRegion, at)],
    // The CIS 5.x alarms, on the trail's log group, notifying the security team.
    monitoring: {
      filters: MONITORED_ACTIVITIES.map((a) => ({
        name: a.resource,
        region: homeRegion,
        logGroup: TRAIL_LOG_GROUP,
        pattern: a.recommended,
        metrics: [{ name: a.resource, namespace: 'CISBenchmark' }],
      })),
      alarmedMetrics: MONITORED_ACTIVITIES.map((a) => ({
        region: homeRegion,
        name: a.resource,
        namespace: 'CISBenchmark',
      })),
    },
    // Enabled everywhere, as an organization's delegated administrator does it.
    guardduty: ENABLED_REGIONS.map((region) => ({
      region,
      detectorEnabled: true,
      highSeverityFindings: [],
      features: ALL_PLANS,
    })),
    regionalServices: regionalServices(id, regions),
    ...costs(id, at, dailySpendUsd),
    contacts: { security: true, billing: true, operations: true },
    dataStores: dataStores(id, regions),
  };
}

/**
 * The account's trail, as teams commonly leave it: validated, but KMS encryption, the bucket's access logging and
 * S3 data events (billed per event) only in some accounts. A stream of its own, so the other draws stay as they were.
 */
function sandboxTrail(id: string, company: string, homeRegion: string, at: Date): Trail {
  const random = randomFor(id, 'trail');
  const writes = random() < 0.5;
  return {
    name: 'management-events',
    homeRegion,
    logFileValidation: random() < 0.8,
    kmsKeyId:
      random() < 0.5
        ? `arn:aws:kms:${homeRegion}:${id}:key/${hexId(32, id, 'trail-key').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')}`
        : null,
    bucket: bucketName(company, id, 'cloudtrail-logs'),
    events: { management: { read: true, write: true }, s3Objects: { read: writes && random() < 0.4, write: writes } },
    bucketLogging: { read: true, enabled: random() < 0.6 },
    multiRegion: true,
    logging: true,
    cloudWatchLogsLogGroupArn: `arn:aws:logs:${homeRegion}:${id}:log-group:${TRAIL_LOG_GROUP}:*`,
    // Delivering as a healthy trail does: log files every few minutes, digests every hour.
    delivery: {
      error: null,
      lastDeliveredAt: ago(at, 4 * 60_000),
      lastDigestDeliveredAt: ago(at, 40 * 60_000),
      loggingStartedAt: ago(at, 400 * 24 * HOUR_MS),
      bucketMissing: false,
      cloudWatchLogsError: null,
    },
  };
}

/**
 * AWS Config and Security Hub, deployed to every enabled region by most organizations and to the regions in use
 * by the others; an Access Analyzer mostly only where the account works.
 */
function regionalServices(id: string, regions: string[]): SandboxAccount['regionalServices'] {
  const random = randomFor(id, 'regional-services');
  const everywhereOr = (share: number) => (random() < share ? [...ENABLED_REGIONS] : [...regions]);
  return { config: everywhereOr(0.7), securityHub: everywhereOr(0.6), accessAnalyzer: everywhereOr(0.3) };
}

// --- Data stores: mostly well set up, each setting with its own odds of having been missed --------------------

interface DataStores {
  rds: RdsInstance[];
  efs: EfsFileSystem[];
  kms: KmsKey[];
}

/** Its own random stream, so the rest of the account is the same with or without it. */
function dataStores(id: string, regions: string[]): DataStores {
  const random = randomFor(id, 'data-stores');
  const rds = ['app-db', 'analytics-db', 'legacy-mysql'].slice(0, int(random, 1, 3)).map(
    (name, i): RdsInstance => ({
      id: name,
      region: i === 0 ? (regions[0] as string) : pick(random, regions),
      engine: name === 'legacy-mysql' ? 'mysql' : pick(random, ['postgres', 'aurora-postgresql']),
      storageEncrypted: random() >= 0.1,
      autoMinorVersionUpgrade: random() >= 0.12,
      publiclyAccessible: random() < 0.06,
      multiAz: random() < 0.6,
      // Set as the sandbox reads them (cloud/sandbox/databases.ts).
      vpcId: null,
      certificateValidTill: null,
      // Set as the sandbox reads them (cloud/sandbox/rds-hardening.ts).
      arn: '',
      engineVersion: '',
      clusterId: null,
      tlsEnforced: false,
      engineVersionOffered: false,
    }),
  );
  const efs = ['shared-uploads', 'build-cache'].slice(0, int(random, 0, 2)).map(
    (name): EfsFileSystem => ({
      id: `fs-${hexId(17, id, 'efs', name)}`,
      region: pick(random, regions),
      name,
      encrypted: random() >= 0.15,
    }),
  );
  const kms = Array.from({ length: int(random, 1, 4) }, (_, i): KmsKey => {
    const region = pick(random, regions);
    const keyId = [8, 4, 4, 4, 12].map((length, part) => hexId(length, id, 'kms', i, part)).join('-');
    return { id: keyId, arn: `arn:aws:kms:${region}:${id}:key/${keyId}`, region, rotationEnabled: random() >= 0.12 };
  });
  return { rds, efs, kms };
}

// --- Baseline issues: the account's standing misconfigurations ----------------------------------------------

interface BaselineIssue {
  name: string;
  apply: (account: SandboxAccount) => void;
}

const BASELINE_ISSUES: BaselineIssue[] = [
  {
    name: 'root without MFA',
    apply: (a) => {
      a.iam.rootMfaEnabled = false;
    },
  },
  {
    name: 'root access keys in use',
    apply: (a) => {
      a.iam.rootAccessKeysPresent = true;
      a.iam.rootLastUsedAt = ago(a.at, 30 * HOUR_MS);
    },
  },
  {
    name: 'console user without MFA',
    apply: (a) => {
      (a.iam.users.find((u) => u.hasConsolePassword && !u.adminAccess) as SandboxUser).mfaEnabled = false;
    },
  },
  {
    name: 'old, forgotten access key',
    apply: (a) => {
      ciUser(a).accessKeys.push({
        id: accessKeyId(a.id, 'ci-deploy', 'old'),
        status: 'Active',
        createdAt: ago(a.at, 540 * DAY_MS),
        lastUsedAt: ago(a.at, 260 * DAY_MS),
      });
    },
  },
  {
    name: 'CI user with admin rights',
    apply: (a) => {
      ciUser(a).adminAccess = true;
      ciUser(a).managedPolicies.push('AdministratorAccess');
    },
  },
  {
    name: 'deploy role with admin rights',
    apply: (a) => {
      (a.iam.roles.find((r) => r.name === 'github-actions-deploy') as IamRole).adminAccess = true;
    },
  },
  {
    name: 'weak password policy',
    apply: (a) => {
      a.iam.passwordPolicy = {
        minimumLength: 8,
        requireSymbols: false,
        requireNumbers: false,
        requireUppercase: false,
        requireLowercase: true,
        maxAgeDays: null,
        reusePrevention: null,
      };
    },
  },
  {
    // A static website served straight from S3 needs a public bucket policy, so its owner turned the blocks off.
    name: 'public website bucket',
    apply: (a) => {
      a.s3.accountBlockPublicAccess = null;
      a.s3.buckets.push({
        name: `${a.company}-website`,
        region: home(a),
        publicViaAcl: false,
        publicViaPolicy: true,
        blockPublicAccess: null,
        deniesInsecureTransport: false,
        ...PRIVATE_BUCKET,
      });
    },
  },
  {
    name: 'RDP open to the internet',
    apply: (a) => {
      a.ec2.securityGroups.push({
        id: `sg-${hexId(17, a.id, 'windows-jump')}`,
        name: 'windows-jump',
        region: secondary(a),
        openIngress: [{ protocol: 'tcp', fromPort: 3389, toPort: 3389, cidr: '0.0.0.0/0' }],
      });
    },
  },
  {
    name: 'public EBS snapshot',
    apply: (a) => {
      a.ec2.publicSnapshots.push({ id: `snap-${hexId(17, a.id, 'snapshot')}`, region: home(a) });
    },
  },
  {
    // A Windows file share opened "for the auditors" and never closed.
    name: 'SMB open to the internet',
    apply: (a) => {
      a.ec2.securityGroups.push({
        id: `sg-${hexId(17, a.id, 'file-share')}`,
        name: 'file-share',
        region: home(a),
        openIngress: [{ protocol: 'tcp', fromPort: 445, toPort: 445, cidr: '0.0.0.0/0' }],
      });
    },
  },
  {
    // Launched by hand before the team used roles and IMDSv2; its keys sit in a config file.
    name: 'legacy instance with IMDSv1 and no role',
    apply: (a) => {
      a.ec2.instances.push({
        id: `i-${hexId(17, a.id, 'legacy')}`,
        region: home(a),
        type: 't2.medium',
        state: 'running',
        launchedAt: ago(a.at, 1400 * DAY_MS),
        metadata: { httpTokens: 'optional', httpEndpoint: 'enabled' },
        instanceProfileArn: null,
        publicIp: publicIpOf((...keys) => hexId(17, a.id, ...keys), 'legacy'),
        securityGroupIds: [`sg-${hexId(17, a.id, home(a), 'default')}`],
      });
    },
  },
  {
    name: 'network ACL left allowing everything',
    apply: (a) => {
      openAcl(a.net, secondary(a));
    },
  },
  {
    name: 'default security group with its rules',
    apply: (a) => {
      const region = home(a);
      defaultGroupAsCreated(a.net, {
        idOf: (...keys) => hexId(17, a.id, ...keys),
        region,
        groupId: `sg-${hexId(17, a.id, region, 'default')}`,
      });
    },
  },
  {
    name: 'VPC without flow logs',
    apply: (a) => {
      unloggedStagingVpc(a.net, { idOf: (...keys) => hexId(17, a.id, ...keys), region: secondary(a) });
    },
  },
  {
    name: 'EBS encryption by default only where used',
    apply: (a) => {
      ebsEncryptionOnlyWhereUsed(a.net, a.regions);
    },
  },
  {
    name: 'CloudTrail logging stopped',
    apply: (a) => {
      (a.trails[0] as Trail).logging = false;
    },
  },
  {
    name: 'AWS Config recorder stopped',
    apply: (a) => {
      a.regionalServices.config = a.regionalServices.config.filter((r) => r !== home(a));
    },
  },
  {
    name: 'GuardDuty off in a region in use',
    apply: (a) => {
      (a.guardduty.find((g) => g.region === secondary(a)) as GuardDutyRegion).detectorEnabled = false;
    },
  },
  {
    // Set when the account spent less; its forecast, and late in the month its actual spend, go over.
    name: 'budget set too low',
    apply: (a) => {
      (a.budgets[0] as Budget).limitUsd = Math.floor((a.dailySpendUsd * 24) / 10) * 10;
    },
  },
  {
    name: 'no security contact',
    apply: (a) => {
      a.contacts = { security: false, billing: true, operations: false };
    },
  },
];

/** Identity and monitoring gaps, drawn from a stream of their own so the issues above stay as they were. */
const GOVERNANCE_ISSUES: BaselineIssue[] = [
  {
    name: 'developer with an inline policy',
    apply: (a) => {
      (a.iam.users.find((u) => u.hasConsolePassword && !u.adminAccess) as SandboxUser).inlinePolicies.push(
        's3-data-exports-write',
      );
    },
  },
  {
    name: 'no support role',
    apply: (a) => {
      a.iam.roles = a.iam.roles.filter((r) => r.name !== 'incident-support');
    },
  },
  {
    name: 'CloudShell for developers',
    apply: (a) => {
      (a.iam.groups.find((g) => g.name === 'Developers') as IamGroup).managedPolicies.push('AWSCloudShellFullAccess');
    },
  },
  {
    name: 'expired certificate left in IAM',
    apply: (a) => {
      const name = `${a.company}-legacy-elb`;
      a.iam.certificates.push({
        name,
        arn: iamArn(a.id, `server-certificate/${name}`),
        expiresAt: ago(a.at, 200 * DAY_MS),
      });
    },
  },
  {
    name: 'root MFA on a phone',
    apply: (a) => {
      a.iam.rootVirtualMfa = iamArn(a.id, 'mfa/root-account-mfa-device');
    },
  },
  {
    name: 'CloudTrail not sent to CloudWatch Logs',
    apply: (a) => {
      (a.trails[0] as Trail).cloudWatchLogsLogGroupArn = null;
    },
  },
  {
    // The alarms someone set up once: root use and IAM policy changes only.
    name: 'few CloudTrail alarms',
    apply: (a) => {
      const kept = new Set(['cis-5.3-root-usage', 'cis-5.4-iam-policy-changes']);
      a.monitoring.alarmedMetrics = a.monitoring.alarmedMetrics.filter((m) => kept.has(m.name));
    },
  },
];

// --- Drifting issues: changes that appear and are undone --------------------------------------------------

interface DriftingIssue {
  name: string;
  /** The issue recurs every `periodSlots` six-hour slots and lasts `activeSlots` of them. */
  periodSlots: number;
  activeSlots: number;
  /** `since` is when this occurrence began; `occurrence` tells occurrences apart (new ids each time). */
  apply: (account: SandboxAccount, since: Date, occurrence: number) => void;
}

// A period of at most 27 slots means a week of six-hourly scans (28) always sees the issue open and close;
// the rarest issue takes longer.
const DRIFTING_ISSUES: DriftingIssue[] = [
  {
    // Someone opens SSH to the world "just for a moment" while travelling, and closes it a day or so later.
    name: 'SSH opened to the internet',
    periodSlots: 16,
    activeSlots: 6,
    apply: (a) => {
      const bastion = a.ec2.securityGroups.find((g) => g.name === 'bastion' && g.region === home(a)) as SecurityGroup;
      bastion.openIngress.push({ protocol: 'tcp', fromPort: 22, toPort: 22, cidr: '0.0.0.0/0' });
    },
  },
  {
    // A bucket is made public to share a file, which takes switching off both the bucket's and the account's blocks.
    name: 'bucket made public',
    periodSlots: 24,
    activeSlots: 4,
    apply: (a) => {
      const bucket = a.s3.buckets.find((b) => b.name === bucketName(a.company, a.id, 'data-exports')) as Bucket;
      a.s3.accountBlockPublicAccess = null;
      bucket.blockPublicAccess = null;
      bucket.publicViaAcl = true;
    },
  },
  {
    name: 'GuardDuty high-severity finding',
    periodSlots: 20,
    activeSlots: 3,
    apply: (a, _since, occurrence) => {
      (a.guardduty[0] as GuardDutyRegion).highSeverityFindings.push({
        id: hexId(32, a.id, 'finding', occurrence),
        type: 'UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.OutsideAWS',
        severity: 8,
        title: 'Credentials for instance role app-instance-role used from an external IP address.',
      });
    },
  },
  {
    // An admin user created in a hurry, with a key and no MFA; it is deleted once someone notices.
    name: 'new admin user',
    periodSlots: 24,
    activeSlots: 8,
    apply: (a, since, occurrence) => {
      a.iam.users.push({
        name: 'support-temp',
        arn: iamArn(a.id, 'user/support-temp'),
        createdAt: iso(since),
        hasConsolePassword: false,
        mfaEnabled: false,
        adminAccess: true,
        managedPolicies: ['AdministratorAccess'],
        inlinePolicies: [],
        groups: [],
        accessKeys: [
          {
            id: accessKeyId(a.id, 'support-temp', String(occurrence)),
            status: 'Active',
            createdAt: iso(since),
            lastUsedAt: ago(a.at, HOUR_MS),
          },
        ],
      });
    },
  },
  {
    // Stolen keys at work: GPU instances in a region the account never uses, where GuardDuty is not enabled.
    name: 'GPU instances in an unused region',
    periodSlots: 36,
    activeSlots: 2,
    apply: (a, since, occurrence) => {
      const region = pick(
        randomFor(a.id, 'mining', occurrence),
        ENABLED_REGIONS.filter((r) => !a.regions.includes(r)),
      );
      for (let i = 0; i < 3; i++) {
        a.ec2.instances.push({
          id: `i-${hexId(17, a.id, 'mining', occurrence, i)}`,
          region,
          type: 'p3.2xlarge',
          state: 'running',
          launchedAt: iso(since),
          // Launched with the attacker's defaults: no role, IMDSv1 still answered.
          metadata: { httpTokens: 'optional', httpEndpoint: 'enabled' },
          instanceProfileArn: null,
          publicIp: publicIpOf((...keys) => hexId(17, a.id, ...keys), 'mining', occurrence, i),
          securityGroupIds: [`sg-${hexId(17, a.id, region, 'default')}`],
        });
      }
      (a.guardduty.find((g) => g.region === region) as GuardDutyRegion).detectorEnabled = false;
    },
  },
];

/** The current occurrence of an issue at `at`, if it is active then; each account has its own phase. */
function activeOccurrence(
  accountId: string,
  issue: DriftingIssue,
  at: Date,
): { since: Date; occurrence: number } | null {
  const phase = hash(`${accountId}:${issue.name}`) % issue.periodSlots;
  const slot = Math.floor(at.getTime() / SLOT_MS) + phase;
  const position = slot % issue.periodSlots;
  if (position >= issue.activeSlots) return null;
  return { since: new Date((slot - position - phase) * SLOT_MS), occurrence: Math.floor(slot / issue.periodSlots) };
}

// --- Alarms that tell nobody --------------------------------------------------------------------------------

/**
 * The account's alarms that tell nobody: a billing alarm whose actions were switched off for a migration and never
 * switched on again, and a CPU alarm made for a dashboard with no action; each on some neglected accounts.
 */
function silentAlarms(id: string, region: string, neglect: number): SilentAlarm[] {
  const random = randomFor(id, 'silent-alarms');
  const alarm = (name: string, actionsEnabled: boolean, alarmActions: number): SilentAlarm => ({
    name,
    arn: `arn:aws:cloudwatch:${region}:${id}:alarm:${name}`,
    region,
    actionsEnabled,
    alarmActions,
  });
  return [
    ...(random() < 0.3 * neglect ? [alarm('billing-over-budget', false, 1)] : []),
    ...(random() < 0.4 * neglect ? [alarm('api-high-cpu', true, 0)] : []),
  ];
}

// --- Partial coverage -----------------------------------------------------------------------------------------

/** The sandbox's demo of partial coverage: it verifies, but an SCP denies two regions and a bucket policy one bucket. */
export const SANDBOX_PARTIAL_ACCOUNT_ID = '888888888888';

/**
 * How neglected the account is (cloud/sandbox/upkeep.ts): the partly readable demo account is kept, so that its
 * walkthrough has a score that accepting a finding moves.
 */
export function neglectFor(id: string): number {
  return id === SANDBOX_PARTIAL_ACCOUNT_ID ? NEGLECT.kept : neglectOf(randomFor(id, 'upkeep')());
}

const scpDenied = (service: string) =>
  `AWS denied Sentinel's role ${service} (AccessDenied, explicit deny in a service control ` +
  "policy). This is the sandbox's demo of partial coverage: an SCP that denies these regions.";
const BUCKET_DENIED =
  "AWS denied Sentinel's role S3 GetBucketAcl (AccessDenied): the bucket's policy denies every principal " +
  "outside the account's own roles. This is the sandbox's demo of a bucket Sentinel may not read.";

/** What an account cannot show: nothing, or for the partial-coverage demo two regions and one bucket. */
function deniedTo(account: SandboxAccount): { regions: string[]; bucket: string | null } {
  if (account.id !== SANDBOX_PARTIAL_ACCOUNT_ID) return { regions: [], bucket: null };
  const regions = ENABLED_REGIONS.filter((r) => !account.regions.includes(r)).slice(-2);
  return { regions, bucket: bucketName(account.company, account.id, 'backups') };
}

// --- Assembly -----------------------------------------------------------------------------------------------

const ok = <T>(value: T, unread: Unread[] = []): Collected<T> =>
  unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };
const valueOf = <T>(part: Collected<T>): T | null => (part.status === 'ok' ? part.value : null);

const recorder = (account: SandboxAccount, region: string) => ({
  name: 'default',
  lastStatus: 'Success',
  allSupported: true,
  includeGlobalResourceTypes: region === home(account),
});

/**
 * When each console password last signed in, from a stream of its own (the other draws stay as they were): the
 * people within the last fortnight, except, in some accounts, a developer who left months ago and whose password
 * nobody removed. Passwords were set when their users were created.
 */
function passwordUse(
  account: SandboxAccount,
  user: SandboxUser,
): { lastUsedAt: string | null; changedAt: string | null } {
  if (!user.hasConsolePassword) return { lastUsedAt: null, changedAt: null };
  const random = randomFor(account.id, 'console', user.name);
  const dormant = !user.adminAccess && randomFor(account.id, 'dormant-password')() < 0.2;
  const daysAgo = dormant ? int(random, 60, 200) : int(random, 0, 14);
  return {
    lastUsedAt: ago(
      account.at,
      Math.min(daysAgo * DAY_MS + int(random, 1, 20) * HOUR_MS, account.at.getTime() - Date.parse(user.createdAt)),
    ),
    changedAt: user.createdAt,
  };
}

/** The AWS managed policies attached to a user, group or role: AdministratorAccess alone allows everything. */
function attachedAwsPolicies({ users, roles, groups }: SandboxAccount['iam']) {
  const names = [...new Set([...users, ...roles, ...groups].flatMap((p) => p.managedPolicies))].sort();
  return names.map((name) => ({
    name,
    arn: `arn:aws:iam::aws:policy/${name}`,
    fullAdmin: name === 'AdministratorAccess',
  }));
}

/** AWS Config, Security Hub and Access Analyzer in the regions Sentinel may read. */
function regionalServiceParts(account: SandboxAccount, regions: string[], regional: (service: string) => Unread[]) {
  const { config, securityHub, accessAnalyzer } = account.regionalServices;
  return {
    configRecorders: ok(
      {
        regions: regions.map((region) => ({
          region,
          // Every supported resource type, the global ones in the home region only.
          recorders: config.includes(region)
            ? [{ ...recorder(account, region), recording: true }]
            : region === home(account)
              ? [{ ...recorder(account, region), recording: false }]
              : [],
        })),
      },
      regional('AWS Config DescribeConfigurationRecorders'),
    ),
    securityHub: ok(
      { regions: regions.map((region) => ({ region, enabled: securityHub.includes(region) })) },
      regional('Security Hub DescribeHub'),
    ),
    accessAnalyzers: ok(
      {
        regions: regions.map((region) => ({
          region,
          analyzers: accessAnalyzer.includes(region)
            ? [{ name: `${account.company}-external-access`, type: 'ACCOUNT', status: 'ACTIVE' }]
            : [],
        })),
      },
      regional('IAM Access Analyzer ListAnalyzers'),
    ),
  };
}

export function sandboxInventory({
  awsAccountId,
  at,
  eventForwarder,
}: {
  awsAccountId: string;
  at: Date;
  /** The forwarder Sentinel expects (CollectOptions.eventForwarder): the account has it, healthy; absent: not read. */
  eventForwarder?: ExpectedForwarder;
}): Inventory {
  const account = cleanAccount(awsAccountId, at);
  const neglect = neglectFor(awsAccountId);
  const random = randomFor(awsAccountId, 'issues');
  for (const issue of shuffled(random, BASELINE_ISSUES).slice(0, int(random, 2, 4))) issue.apply(account);
  const governance = randomFor(awsAccountId, 'governance');
  for (const issue of shuffled(governance, GOVERNANCE_ISSUES).slice(0, int(governance, 1, 2))) issue.apply(account);
  exposeNetwork(account.ec2, {
    idOf: (...keys) => hexId(17, awsAccountId, ...keys),
    region: home(account),
    launchedAt: ago(at, int(randomFor(awsAccountId, 'exposure-age'), 5, 200) * DAY_MS),
    instanceProfileArn: iamArn(awsAccountId, 'instance-profile/app-instance-role'),
    random: randomFor(awsAccountId, 'network-exposure'),
    neglect,
  });
  withLegacyWebServer(account.ec2.instances, {
    idOf: (...keys) => hexId(17, awsAccountId, ...keys),
    home: home(account),
    launchedAt: ago(at, int(randomFor(awsAccountId, 'legacy-web-age'), 30, 900) * DAY_MS),
    instanceProfileArn: iamArn(awsAccountId, 'instance-profile/app-instance-role'),
    random: randomFor(awsAccountId, 'legacy-web'),
    neglect,
  });
  for (const issue of DRIFTING_ISSUES) {
    const active = activeOccurrence(awsAccountId, issue, at);
    if (active) issue.apply(account, active.since, active.occurrence);
  }
  // AWS Health needs a Business or Enterprise support plan, which only some accounts pay for.
  const businessSupport = randomFor(awsAccountId, 'support')() < 0.25;

  const denied = deniedTo(account);
  const readable = <T extends { region: string }>(items: T[]) =>
    items.filter((item) => !denied.regions.includes(item.region));
  const regional = (service: string): Unread[] =>
    denied.regions.map((scope) => ({ kind: 'region', scope, reason: scpDenied(service) }));
  const { iam, s3, ec2, net, dataStores: data } = account;
  const edges = vpcEdges({
    idOf: (...keys) => hexId(17, awsAccountId, ...keys),
    home: home(account),
    enabledRegions: ENABLED_REGIONS,
    random: randomFor(awsAccountId, 'vpc-edges'),
    neglect,
  });
  const seed: SandboxSeed = {
    id: awsAccountId,
    company: account.company,
    regions: account.regions,
    at,
    randomFor,
    hexId,
    neglect,
  };
  const loadBalancers = sandboxLoadBalancers({
    idOf: (...keys) => hexId(17, awsAccountId, ...keys),
    home: home(account),
    accountId: awsAccountId,
    random: randomFor(awsAccountId, 'load-balancers'),
    neglect,
  });
  const rds = withRdsHardening(seed, withNetworkAndCertificates(seed, data.rds));
  const databases = sandboxDatabases(seed, rds, readable, regional);
  const topology = sandboxNetworkTopology({
    idOf: (...keys) => hexId(17, awsAccountId, ...keys),
    regionsInUse: account.regions,
    securityGroups: ec2.securityGroups,
    instances: ec2.instances,
    net,
    loadBalancers,
    databases: rds,
    caches: valueOf(databases.elasticacheReplicationGroups)?.groups ?? [],
    searchDomains: valueOf(databases.opensearchDomains)?.domains ?? [],
  });
  const inventory = withGovernance(
    {
      collectedAt: iso(at),
      regions: { enabled: [...ENABLED_REGIONS] },
      iamSummary: ok({
        rootMfaEnabled: iam.rootMfaEnabled,
        rootAccessKeysPresent: iam.rootAccessKeysPresent,
        rootPasswordPresent: true,
      }),
      passwordPolicy: ok({ policy: iam.passwordPolicy }),
      credentialReport: ok({
        generatedAt: ago(at, 2 * HOUR_MS),
        root: { lastUsedAt: iam.rootLastUsedAt },
        users: iam.users.map((user) => ({
          arn: user.arn,
          passwordEnabled: user.hasConsolePassword,
          passwordLastUsedAt: passwordUse(account, user).lastUsedAt,
          passwordLastChangedAt: passwordUse(account, user).changedAt,
          mfaActive: user.mfaEnabled,
          keys: user.accessKeys.map((key) => ({
            active: key.status === 'Active',
            lastRotatedAt: key.createdAt,
            lastUsedAt: key.lastUsedAt,
          })),
        })),
      }),
      iamPrincipals: ok({
        users: iam.users.map(({ name, arn, createdAt, adminAccess, managedPolicies, inlinePolicies, accessKeys }) => ({
          name,
          arn,
          createdAt,
          adminAccess,
          managedPolicies,
          directPolicies: [...managedPolicies, ...inlinePolicies],
          accessKeys: accessKeys.map(({ id, status, createdAt: created }) => ({ id, status, createdAt: created })),
          fullAdminPolicies: [],
        })),
        roles: iam.roles,
        groups: iam.groups,
        riskyPolicies: [],
      }),
      awsManagedPolicies: ok({ policies: attachedAwsPolicies(iam) }),
      instanceProfiles: ok({
        profiles: [
          {
            name: 'app-instance-role',
            arn: iamArn(awsAccountId, 'instance-profile/app-instance-role'),
            roles: ['app-instance-role'],
          },
        ],
      }),
      serverCertificates: ok({ certificates: iam.certificates }),
      rootVirtualMfa: ok({ serialNumber: iam.rootMfaEnabled ? iam.rootVirtualMfa : null, userArns: [] }),
      s3AccountBlockPublicAccess: ok({ settings: s3.accountBlockPublicAccess }),
      s3Buckets: ok(
        { buckets: s3.buckets.filter((b) => b.name !== denied.bucket) },
        denied.bucket ? [{ kind: 'resource', scope: denied.bucket, reason: BUCKET_DENIED }] : [],
      ),
      securityGroups: ok(
        { groups: readable(ec2.securityGroups), defaultGroups: readable(net.defaultGroups) },
        regional('EC2 DescribeSecurityGroups'),
      ),
      instances: ok({ instances: readable(ec2.instances) }, regional('EC2 DescribeInstances')),
      publicSnapshots: ok({ snapshots: readable(ec2.publicSnapshots) }, regional('EC2 DescribeSnapshots')),
      publicImages: ok({ images: readable(ec2.publicImages) }, regional('EC2 DescribeImages')),
      ebsEncryptionByDefault: ok({ regions: readable(net.ebs) }, regional('EC2 GetEbsEncryptionByDefault')),
      networkAcls: ok({ acls: readable(net.acls) }, regional('EC2 DescribeNetworkAcls')),
      vpcFlowLogs: ok({ unloggedVpcs: readable(unloggedVpcs(net)) }, regional('EC2 DescribeVpcs')),
      cloudtrail: ok({ trails: account.trails }, regional('CloudTrail DescribeTrails')),
      metricAlarms: ok(
        {
          filters: readable(account.monitoring.filters),
          alarmedMetrics: readable(account.monitoring.alarmedMetrics),
          silentAlarms: readable(silentAlarms(awsAccountId, home(account), neglect)),
        },
        regional('CloudWatch Logs DescribeMetricFilters'),
      ),
      guardduty: ok({ regions: readable(account.guardduty) }, regional('GuardDuty ListDetectors')),
      ...regionalServiceParts(
        account,
        readable(ENABLED_REGIONS.map((region) => ({ region }))).map((r) => r.region),
        regional,
      ),
      costs: ok({ daily: account.daily }),
      anomalies: ok({ anomalies: account.anomalies }),
      budgets: ok({ budgets: account.budgets }),
      alternateContacts: ok(account.contacts),
      health: businessSupport
        ? ok({ events: [] })
        : { status: 'not_evaluated', reason: 'AWS Health needs a Business or Enterprise support plan' },
      rdsInstances: ok({ instances: readable(rds) }, regional('RDS DescribeDBInstances')),
      efsFileSystems: ok({ fileSystems: readable(data.efs) }, regional('EFS DescribeFileSystems')),
      kmsKeys: ok({ keys: readable(data.kms) }, regional('KMS ListKeys')),
      // The monitor of AWS services that AWS sets up for accounts that open Cost Explorer.
      anomalyMonitors: ok({
        monitors: [
          {
            arn: `arn:aws:ce::${awsAccountId}:anomalymonitor/${hexId(36, awsAccountId, 'monitor')}`,
            name: 'Default-Services-Monitor',
            type: 'DIMENSIONAL',
          },
        ],
      }),
      eventForwarder: ok(
        healthyForwarder({
          awsAccountId,
          regions: readable(ENABLED_REGIONS.map((region) => ({ region }))).map((r) => r.region),
          endpoint: eventForwarder?.endpoint,
        }),
        eventForwarder ? regional('EventBridge DescribeConnection') : [],
      ),
      ...computeParts({
        accountId: awsAccountId,
        home: home(account),
        instances: readable(ec2.instances),
        random: randomFor(awsAccountId, 'compute'),
        neglect,
        regional,
      }),
      instanceMetadataDefaults: ok(
        { regions: readable(edges.metadataDefaults) },
        regional('EC2 GetInstanceMetadataDefaults'),
      ),
      publicIpSubnets: ok({ subnets: readable(edges.subnets) }, regional('EC2 DescribeSubnets')),
      transitGateways: ok({ gateways: readable(edges.gateways) }, regional('EC2 DescribeTransitGateways')),
      vpcEndpoints: ok(
        { endpoints: readable(edges.endpoints), services: readable(edges.services) },
        regional('EC2 DescribeVpcEndpoints'),
      ),
      loadBalancers: ok(
        { loadBalancers: readable(loadBalancers) },
        regional('Elastic Load Balancing DescribeLoadBalancers'),
      ),
      networkTopology: ok(readableTopology(topology, readable), regional('EC2 DescribeRouteTables')),
      ...databases,
      ...sandboxContainers({
        accountId: awsAccountId,
        at,
        home: home(account),
        regions: ENABLED_REGIONS.filter((region) => !denied.regions.includes(region)),
        random: randomFor(awsAccountId, 'containers'),
        neglect,
        user: ciUser(account).name,
        readable,
        regional,
      }),
      ...resourcePolicyParts(awsAccountId, home(account), at, neglect, readable, regional),
      ...sandboxWorkloads({
        awsAccountId,
        company: account.company,
        regions: account.regions.filter((region) => !denied.regions.includes(region)),
        random: (purpose) => randomFor(awsAccountId, purpose),
        neglect,
        regional,
      }),
      ...sandboxDnsAndPackages({
        awsAccountId,
        company: account.company,
        regions: account.regions.filter((region) => !denied.regions.includes(region)),
        random: (purpose) => randomFor(awsAccountId, purpose),
        neglect,
        regional,
      }),
      ...sandboxEdge(seed, readable, regional),
      backupSelections: sandboxBackupSelections(seed, withRdsHardening(seed, data.rds), readable, regional),
      // Derived below from the principals as the governance issues leave them.
      iamAuthorization: { status: 'not_evaluated', reason: 'Derived once the governance issues are applied.' },
    },
    awsAccountId,
    neglect,
    { readable: readable(ENABLED_REGIONS.map((region) => ({ region }))).map((r) => r.region), unread: regional },
  );
  const groupsOf = (name: string) => account.iam.users.find((u) => u.name === name)?.groups ?? [];
  return {
    ...inventory,
    iamAuthorization: sandboxIamAuthorization({ accountId: awsAccountId, inventory, groupsOf }),
  };
}
