import { healthyForwarder } from '../../cloud/sandbox/event-forwarder';
import { checkById } from '../../domain/checks/catalog';
import { MONITORED_ACTIVITIES } from '../../domain/checks/cis-metric-filters';
import type { EvaluationContext } from '../../domain/checks/types';
import type {
  AccessKey,
  Collected,
  IamUser,
  Inventory,
  PartName,
  ReportedKey,
  ReportedUser,
  Trail,
  TrailDelivery,
  Unread,
} from '../../domain/scans/inventory';

// Inventories for check tests: a clean account on which every check passes, and small helpers to break one thing.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const ACCOUNT = '111122223333';
export const ECS_TASK_ARN = `arn:aws:ecs:us-east-1:${ACCOUNT}:task-definition/web:7`;
export const STACK_ID = `arn:aws:cloudformation:us-east-1:${ACCOUNT}:stack/network/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab`;
export const STATE_MACHINE_ARN = `arn:aws:states:us-east-1:${ACCOUNT}:stateMachine:order-flow`;
export const LAYER_ARN = `arn:aws:lambda:us-east-1:${ACCOUNT}:layer:shared-libs:4`;
export const LAMBDA_ARN = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:orders-api`;
/** The ingestion URL the clean account's event forwarder posts to, and Sentinel expects. */
export const FORWARDER_ENDPOINT = 'https://sentinel.example.com/ingest/aws/events';

/** How the clean account's instances are set up: a role, and a metadata service that requires IMDSv2. */
export const WELL_RUN_INSTANCE = {
  metadata: { httpTokens: 'required', httpEndpoint: 'enabled' },
  instanceProfileArn: `arn:aws:iam::${ACCOUNT}:instance-profile/app-server`,
};

export const hoursAgo = (now: string, hours: number) => new Date(Date.parse(now) - hours * HOUR_MS).toISOString();
export const daysAgo = (now: string, days: number) => new Date(Date.parse(now) - days * DAY_MS).toISOString();
const dateDaysAgo = (now: string, days: number) => daysAgo(now, days).slice(0, 10);

const ok = <T>(value: T): Collected<T> => ({ status: 'ok', value });

/** The value of a collected part, to edit in place. */
export function part<T>(collected: Collected<T>): T {
  if (collected.status !== 'ok') throw new Error(`part not collected: ${collected.reason}`);
  return collected.value;
}

/** The same inventory with one part unreadable, as when the role lacks a permission. */
export function withoutPart(inventory: Inventory, name: PartName, reason = `AccessDenied reading ${name}`): Inventory {
  return { ...inventory, [name]: { status: 'not_evaluated', reason } };
}

/** Marks regions or resources of a part unread (their data is expected to be left out by the caller). */
export function withUnread(inventory: Inventory, name: PartName, unread: Unread[]): Inventory {
  const collected = inventory[name];
  if (collected.status !== 'ok') throw new Error(`part ${name} is not collected`);
  return { ...inventory, [name]: { ...collected, unread: [...(collected.unread ?? []), ...unread] } };
}

/** An IAM user of the clean inventory, as the principals list it. */
export function iamUser(inventory: Inventory, name: string): IamUser {
  const user = part(inventory.iamPrincipals).users.find((u) => u.name === name);
  if (!user) throw new Error(`no user ${name}`);
  return user;
}

/** A user's row of the credential report. */
export function reportRow(inventory: Inventory, name: string): ReportedUser {
  const arn = iamUser(inventory, name).arn;
  const row = part(inventory.credentialReport).users.find((u) => u.arn === arn);
  if (!row) throw new Error(`no report row for ${name}`);
  return row;
}

/** The credential-report slot of an access key (matched by its creation time, as the checks do). */
export function reportedKey(inventory: Inventory, keyId: string): ReportedKey {
  const user = part(inventory.iamPrincipals).users.find((u) => u.accessKeys.some((k) => k.id === keyId));
  const key = user?.accessKeys.find((k) => k.id === keyId) as AccessKey;
  const slot = user && reportRow(inventory, user.name).keys.find((k) => k.lastRotatedAt === key.createdAt);
  if (!slot) throw new Error(`no report slot for ${keyId}`);
  return slot;
}

/** Changes a key's creation time in both the principals and the credential report. */
export function setKeyCreated(inventory: Inventory, keyId: string, createdAt: string): void {
  const slot = reportedKey(inventory, keyId);
  const key = part(inventory.iamPrincipals)
    .users.flatMap((u) => u.accessKeys)
    .find((k) => k.id === keyId) as AccessKey;
  key.createdAt = createdAt;
  slot.lastRotatedAt = createdAt;
}

/** When the check tests scan: the default `now` of the helpers that need one. */
export const CHECKS_NOW = '2026-03-15T12:00:00.000Z';

/** A trail status's delivery as a healthy trail's reads at `now`: log files minutes ago, a digest within the hour. */
export function deliveringAt(now: string): TrailDelivery {
  return {
    error: null,
    lastDeliveredAt: hoursAgo(now, 0.1),
    lastDigestDeliveredAt: hoursAgo(now, 0.5),
    loggingStartedAt: daysAgo(now, 300),
    bucketMissing: false,
    cloudWatchLogsError: null,
  };
}

/**
 * The clean account's trail: multi-region, logging and delivering at `now`, validated, KMS-encrypted, recording
 * management events and S3 object reads and writes, its bucket's access logged.
 */
export function cleanTrail(overrides: Partial<Trail> = {}, now = CHECKS_NOW): Trail {
  return {
    name: 'management',
    homeRegion: 'us-east-1',
    logFileValidation: true,
    kmsKeyId: `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
    bucket: 'acme-cloudtrail-logs',
    events: { management: { read: true, write: true }, s3Objects: { read: true, write: true } },
    bucketLogging: { read: true, enabled: true },
    multiRegion: true,
    logging: true,
    cloudWatchLogsLogGroupArn: `arn:aws:logs:us-east-1:${ACCOUNT}:log-group:cloudtrail-management:*`,
    delivery: deliveringAt(now),
    ...overrides,
  };
}

/**
 * AWS Config recording every supported resource type (the global ones in us-east-1 only), Security Hub on and an
 * external access analyzer, in every region.
 */
function cleanLoggingServices(
  regions: string[],
): Pick<Inventory, 'configRecorders' | 'securityHub' | 'accessAnalyzers'> {
  return {
    configRecorders: ok({
      regions: regions.map((region) => ({
        region,
        recorders: [
          {
            name: 'default',
            recording: true,
            lastStatus: 'Success',
            allSupported: true,
            includeGlobalResourceTypes: region === 'us-east-1',
          },
        ],
      })),
    }),
    securityHub: ok({ regions: regions.map((region) => ({ region, enabled: true })) }),
    accessAnalyzers: ok({
      regions: regions.map((region) => ({
        region,
        // An unused-access analyzer next to the external-access one does not count for it, and does not hurt.
        analyzers: [
          { name: 'external-access', type: 'ACCOUNT', status: 'ACTIVE' },
          { name: 'unused-access', type: 'ACCOUNT_UNUSED_ACCESS', status: 'ACTIVE' },
        ],
      })),
    }),
  };
}

/**
 * A well-run account: root locked away, users with MFA and fresh keys, nothing public, a multi-region trail that
 * delivers, GuardDuty in every enabled region, flat spend under a budget with alerts and watched by Cost Anomaly
 * Detection, all contacts set, instances with roles and IMDSv2,
 * EBS encryption by default and flow logs everywhere, encrypted and private data stores, rotating keys. It also holds
 * near misses that must not fail (a closed abuse event, a small anomaly, an HTTPS-only security group, a blocked public
 * policy, a network ACL whose denies shadow its allow-all for SSH and RDP, an instance whose metadata service is off).
 */
export function cleanInventory(now: string): Inventory {
  const alice = `arn:aws:iam::${ACCOUNT}:user/alice`;
  const ciDeploy = `arn:aws:iam::${ACCOUNT}:user/ci-deploy`;
  const aliceKeys: AccessKey[] = [
    { id: 'AKIAALICE0000000001', status: 'Active', createdAt: daysAgo(now, 30) },
    // Inactive keys are neither rotated nor used: the key checks ignore them.
    { id: 'AKIAALICE0000000002', status: 'Inactive', createdAt: daysAgo(now, 300) },
  ];
  const ciKeys: AccessKey[] = [{ id: 'AKIACIDEPLOY00000001', status: 'Active', createdAt: daysAgo(now, 60) }];
  return {
    collectedAt: now,
    regions: { enabled: ['us-east-1', 'us-west-2', 'eu-west-1'] },
    iamSummary: ok({ rootMfaEnabled: true, rootAccessKeysPresent: false, rootPasswordPresent: true }),
    passwordPolicy: ok({
      policy: {
        minimumLength: 14,
        requireSymbols: true,
        requireNumbers: true,
        requireUppercase: true,
        requireLowercase: true,
        maxAgeDays: 90,
        reusePrevention: 24,
      },
    }),
    credentialReport: ok({
      generatedAt: hoursAgo(now, 1),
      root: { lastUsedAt: daysAgo(now, 200) },
      users: [
        {
          arn: alice,
          passwordEnabled: true,
          passwordLastUsedAt: daysAgo(now, 2),
          passwordLastChangedAt: daysAgo(now, 120),
          mfaActive: true,
          keys: [
            { active: true, lastRotatedAt: aliceKeys[0]!.createdAt, lastUsedAt: daysAgo(now, 1) },
            { active: false, lastRotatedAt: aliceKeys[1]!.createdAt, lastUsedAt: null },
          ],
        },
        {
          arn: ciDeploy,
          passwordEnabled: false,
          passwordLastUsedAt: null,
          passwordLastChangedAt: null,
          mfaActive: false,
          keys: [{ active: true, lastRotatedAt: ciKeys[0]!.createdAt, lastUsedAt: hoursAgo(now, 3) }],
        },
      ],
    }),
    iamPrincipals: ok({
      users: [
        {
          name: 'alice',
          arn: alice,
          createdAt: daysAgo(now, 400),
          adminAccess: false,
          managedPolicies: [],
          directPolicies: [],
          accessKeys: aliceKeys,
          fullAdminPolicies: [],
        },
        {
          name: 'ci-deploy',
          arn: ciDeploy,
          createdAt: daysAgo(now, 90),
          adminAccess: false,
          managedPolicies: [],
          directPolicies: [],
          accessKeys: ciKeys,
          fullAdminPolicies: [],
        },
      ],
      roles: [
        {
          name: 'app-server',
          arn: `arn:aws:iam::${ACCOUNT}:role/app-server`,
          adminAccess: false,
          managedPolicies: [],
          fullAdminPolicies: [],
        },
        {
          name: 'incident-support',
          arn: `arn:aws:iam::${ACCOUNT}:role/incident-support`,
          adminAccess: false,
          managedPolicies: ['AWSSupportAccess'],
          fullAdminPolicies: [],
        },
      ],
      // Users get their permissions from groups.
      groups: [
        {
          name: 'developers',
          arn: `arn:aws:iam::${ACCOUNT}:group/developers`,
          managedPolicies: ['ReadOnlyAccess'],
          fullAdminPolicies: [],
        },
      ],
    }),
    // The AWS managed policies attached above, none of which allows everything.
    awsManagedPolicies: ok({
      policies: ['ReadOnlyAccess', 'AWSSupportAccess'].map((name) => ({
        name,
        arn: `arn:aws:iam::aws:policy/${name}`,
        fullAdmin: false,
      })),
    }),
    // The instances' profile, holding their role.
    instanceProfiles: ok({
      profiles: [{ name: 'app-server', arn: WELL_RUN_INSTANCE.instanceProfileArn, roles: ['app-server'] }],
    }),
    // A certificate that expires next year; the root user's MFA is a hardware device.
    serverCertificates: ok({
      certificates: [
        {
          name: 'legacy-elb',
          arn: `arn:aws:iam::${ACCOUNT}:server-certificate/legacy-elb`,
          expiresAt: daysAgo(now, -300),
        },
      ],
    }),
    rootVirtualMfa: ok({ serialNumber: null }),
    s3AccountBlockPublicAccess: ok({
      settings: { blockPublicAcls: true, ignorePublicAcls: true, blockPublicPolicy: true, restrictPublicBuckets: true },
    }),
    s3Buckets: ok({
      buckets: [
        {
          name: 'acme-assets',
          region: 'us-east-1',
          publicViaAcl: false,
          publicViaPolicy: false,
          blockPublicAccess: null,
          deniesInsecureTransport: true,
        },
        {
          name: 'acme-legacy-site',
          region: 'eu-west-1',
          publicViaAcl: false,
          publicViaPolicy: true,
          blockPublicAccess: {
            blockPublicAcls: true,
            ignorePublicAcls: true,
            blockPublicPolicy: true,
            restrictPublicBuckets: true,
          },
          deniesInsecureTransport: true,
        },
      ],
    }),
    securityGroups: ok({
      groups: [
        {
          id: 'sg-0web',
          name: 'web',
          region: 'us-east-1',
          openIngress: [{ protocol: 'tcp', fromPort: 443, toPort: 443, cidr: '0.0.0.0/0' }],
        },
        { id: 'sg-0default', name: 'default', region: 'eu-west-1', openIngress: [] },
      ],
      // The VPCs' default groups were emptied: none is left with a rule.
      defaultGroups: [],
    }),
    instances: ok({
      instances: [
        {
          id: 'i-0web',
          region: 'us-east-1',
          type: 't3.large',
          state: 'running',
          launchedAt: daysAgo(now, 100),
          ...WELL_RUN_INSTANCE,
        },
        {
          id: 'i-0worker',
          region: 'eu-west-1',
          type: 'm7g.xlarge',
          state: 'running',
          launchedAt: daysAgo(now, 40),
          ...WELL_RUN_INSTANCE,
        },
        // A new instance next to an established one is ordinary growth. Its metadata service is off altogether, so
        // that it would accept IMDSv1 does not matter.
        {
          id: 'i-0worker2',
          region: 'eu-west-1',
          type: 'm7g.xlarge',
          state: 'running',
          launchedAt: daysAgo(now, 1),
          ...WELL_RUN_INSTANCE,
          metadata: { httpTokens: 'optional', httpEndpoint: 'disabled' },
        },
      ],
    }),
    publicSnapshots: ok({ snapshots: [] }),
    publicImages: ok({ images: [] }),
    ebsEncryptionByDefault: ok({
      regions: ['us-east-1', 'us-west-2', 'eu-west-1'].map((region) => ({ region, enabled: true })),
    }),
    networkAcls: ok({
      acls: [
        {
          // Everything from the internet but SSH and RDP (TCP and UDP), which lower-numbered entries deny first.
          id: 'acl-0web',
          vpcId: 'vpc-0main',
          region: 'us-east-1',
          internetIngress: [
            { ruleNumber: 10, action: 'deny', protocol: '6', fromPort: 22, toPort: 22, cidr: '0.0.0.0/0' },
            { ruleNumber: 11, action: 'deny', protocol: '6', fromPort: 3389, toPort: 3389, cidr: '0.0.0.0/0' },
            { ruleNumber: 12, action: 'deny', protocol: '6', fromPort: 0, toPort: 4000, cidr: '::/0' },
            { ruleNumber: 13, action: 'deny', protocol: '17', fromPort: 22, toPort: 22, cidr: '0.0.0.0/0' },
            { ruleNumber: 14, action: 'deny', protocol: '17', fromPort: 3389, toPort: 3389, cidr: '0.0.0.0/0' },
            { ruleNumber: 15, action: 'deny', protocol: '17', fromPort: 0, toPort: 4000, cidr: '::/0' },
            { ruleNumber: 100, action: 'allow', protocol: '-1', fromPort: null, toPort: null, cidr: '0.0.0.0/0' },
            { ruleNumber: 101, action: 'allow', protocol: '-1', fromPort: null, toPort: null, cidr: '::/0' },
            { ruleNumber: 32767, action: 'deny', protocol: '-1', fromPort: null, toPort: null, cidr: '0.0.0.0/0' },
          ],
        },
      ],
    }),
    vpcFlowLogs: ok({ unloggedVpcs: [] }),
    cloudtrail: ok({ trails: [cleanTrail({}, now)] }),
    // Every CIS 5.x activity has a metric filter on the trail's log group and an alarm on its metric.
    metricAlarms: ok({
      filters: MONITORED_ACTIVITIES.map((a) => ({
        name: a.resource,
        region: 'us-east-1',
        logGroup: 'cloudtrail-management',
        pattern: a.recommended,
        metrics: [{ name: a.resource, namespace: 'CISBenchmark' }],
      })),
      alarmedMetrics: MONITORED_ACTIVITIES.map((a) => ({
        region: 'us-east-1',
        name: a.resource,
        namespace: 'CISBenchmark',
      })),
    }),
    guardduty: ok({
      regions: [
        { region: 'us-east-1', detectorEnabled: true, highSeverityFindings: [] },
        { region: 'eu-west-1', detectorEnabled: true, highSeverityFindings: [] },
        { region: 'us-west-2', detectorEnabled: true, highSeverityFindings: [] },
      ],
    }),
    ...cleanLoggingServices(['us-east-1', 'us-west-2', 'eu-west-1']),
    costs: ok({
      // Ten flat days, yesterday's still-growing figure and today's partial one.
      daily: Array.from({ length: 11 }, (_, i) => ({
        date: dateDaysAgo(now, i),
        amountUsd: i <= 1 ? 8 : 20 + (i % 3),
      })),
    }),
    anomalies: ok({
      anomalies: [{ id: 'anomaly-small', impactUsd: 3.5, startDate: dateDaysAgo(now, 5), service: 'Amazon S3' }],
    }),
    budgets: ok({
      budgets: [
        {
          name: 'monthly',
          limitUsd: 1000,
          actualSpendUsd: 300,
          forecastedSpendUsd: 650,
          alerts: { read: true, notifies: true },
        },
      ],
    }),
    alternateContacts: ok({ security: true, billing: true, operations: true }),
    health: ok({
      events: [
        {
          arn: `arn:aws:health:us-east-1:${ACCOUNT}:event/ABUSE/AWS_ABUSE_DOS_REPORT/old`,
          eventTypeCode: 'AWS_ABUSE_DOS_REPORT',
          service: 'ABUSE',
          region: 'us-east-1',
          startTime: daysAgo(now, 90),
          statusCode: 'closed',
        },
      ],
    }),
    rdsInstances: ok({
      instances: [
        {
          id: 'orders-db',
          region: 'us-east-1',
          engine: 'postgres',
          storageEncrypted: true,
          autoMinorVersionUpgrade: true,
          publiclyAccessible: false,
          multiAz: true,
        },
        // Single-AZ is the manual control 3.2.4: no check fails on it.
        {
          id: 'reporting-replica',
          region: 'eu-west-1',
          engine: 'mysql',
          storageEncrypted: true,
          autoMinorVersionUpgrade: true,
          publiclyAccessible: false,
          multiAz: false,
        },
      ],
    }),
    efsFileSystems: ok({
      fileSystems: [{ id: 'fs-0shared', region: 'us-east-1', name: 'shared-uploads', encrypted: true }],
    }),
    kmsKeys: ok({
      keys: [
        {
          id: '1234abcd-12ab-34cd-56ef-1234567890ab',
          arn: `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
          region: 'us-east-1',
          rotationEnabled: true,
        },
      ],
    }),
    anomalyMonitors: ok({
      monitors: [
        {
          arn: `arn:aws:ce::${ACCOUNT}:anomalymonitor/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab`,
          name: 'Default-Services-Monitor',
          type: 'DIMENSIONAL',
        },
      ],
    }),
    eventForwarder: ok(
      healthyForwarder({
        awsAccountId: ACCOUNT,
        regions: ['us-east-1', 'us-west-2', 'eu-west-1'],
        endpoint: FORWARDER_ENDPOINT,
      }),
    ),
    lambdaFunctions: ok({
      functions: [
        {
          name: 'orders-api',
          arn: LAMBDA_ARN,
          region: 'us-east-1',
          runtime: 'nodejs22.x',
          environment: { read: true, secrets: [] },
          code: { read: true, secrets: [] },
          policy: { read: true, publicStatements: [] },
          urls: { read: true, urls: [{ url: 'https://abc123.lambda-url.us-east-1.on.aws/', authType: 'AWS_IAM' }] },
          layers: [LAYER_ARN],
        },
        {
          name: 'thumbnailer',
          arn: `arn:aws:lambda:eu-west-1:${ACCOUNT}:function:thumbnailer`,
          region: 'eu-west-1',
          runtime: null,
          environment: { read: true, secrets: [] },
          code: null,
          policy: { read: true, publicStatements: [] },
          urls: { read: true, urls: [] },
          layers: [],
        },
      ],
      layers: [{ arn: LAYER_ARN, region: 'us-east-1', content: { read: true, secrets: [] } }],
    }),
    ecsTaskDefinitions: ok({
      taskDefinitions: [
        {
          family: 'web',
          revision: 7,
          arn: ECS_TASK_ARN,
          region: 'us-east-1',
          networkMode: 'awsvpc',
          pidMode: null,
          ipcMode: null,
          containers: [
            {
              name: 'app',
              privileged: false,
              readonlyRootFilesystem: true,
              user: '1000',
              logDriver: 'awslogs',
              environmentSecrets: [],
            },
          ],
        },
      ],
    }),
    cloudformationStacks: ok({
      stacks: [
        {
          name: 'network',
          id: STACK_ID,
          region: 'us-east-1',
          outputSecrets: [],
          terminationProtection: true,
          nested: false,
        },
      ],
    }),
    stateMachines: ok({
      machines: [
        {
          name: 'order-flow',
          arn: STATE_MACHINE_ARN,
          region: 'us-east-1',
          definitionSecrets: [],
          logLevel: 'ERROR',
        },
      ],
    }),
    ssmDocuments: ok({ documents: [{ name: 'Patch-Fleet', region: 'us-east-1', contentSecrets: [], public: false }] }),
    apiGatewayStages: ok({
      stages: [
        {
          apiId: 'a1b2c3d4e5',
          apiName: 'orders',
          stage: 'prod',
          region: 'us-east-1',
          variableSecrets: [],
          logging: true,
          webAclArn: `arn:aws:wafv2:us-east-1:${ACCOUNT}:regional/webacl/api/0a1b2c3d`,
        },
      ],
    }),
  };
}

/**
 * Runs one check at the inventory's collection time: 'pass', 'not_evaluated', or the failing resources as
 * `resource@region` strings, compact enough to assert with one toEqual. `context` adds what a scan knows of the
 * account beyond the inventory (its previous scan's time, its region baseline).
 */
export function outcome(
  checkId: string,
  inventory: Inventory,
  context: Omit<EvaluationContext, 'now'> = {},
): 'pass' | 'not_evaluated' | string[] {
  const check = checkById(checkId);
  if (!check) throw new Error(`unknown check ${checkId}`);
  const result = check.evaluate(inventory, { ...context, now: inventory.collectedAt });
  if (result.status !== 'fail') return result.status;
  return result.resources.map(({ resource, region = 'global' }) => `${resource}@${region}`);
}

/** The regions and resources a check reports it could not read, as `scope` strings. */
export function unreadBy(checkId: string, inventory: Inventory): string[] {
  const check = checkById(checkId);
  if (!check) throw new Error(`unknown check ${checkId}`);
  return (check.evaluate(inventory, { now: inventory.collectedAt }).unread ?? []).map((u) => u.scope);
}
