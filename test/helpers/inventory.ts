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
  PolicyReading,
  ReportedKey,
  ReportedUser,
  Trail,
  TrailDelivery,
  Unread,
} from '../../domain/scans/inventory';
import type { IamAuthorization, InlinePolicy } from '../../domain/scans/iam-authorization';

// Inventories for check tests: a clean account on which every check passes, and small helpers to break one thing.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const ACCOUNT = '111122223333';
/** The role the clean account's Bedrock agent acts with. */
export const BEDROCK_AGENT_ROLE = `arn:aws:iam::${ACCOUNT}:role/bedrock-agent-support`;
export const WORKERS_GROUP = `arn:aws:autoscaling:us-east-1:${ACCOUNT}:autoScalingGroup:0a1b:autoScalingGroupName/workers`;
export const DEPLOY_PROJECT = `arn:aws:codebuild:us-east-1:${ACCOUNT}:project/deploy`;
export const RENDER_JOB = `arn:aws:batch:us-east-1:${ACCOUNT}:job-definition/render:2`;
/** The clean organization's security tooling account. */
export const SECURITY_ACCOUNT = '444455556666';
const FULL_BLOCK = {
  blockPublicAcls: true,
  ignorePublicAcls: true,
  blockPublicPolicy: true,
  restrictPublicBuckets: true,
};
/** A role's trust in the clean account: nobody outside it, services bound to it. */
const OWN_TRUST = { externalPrincipals: [], servicesWithoutSourceCondition: [] };
/** Every GuardDuty protection plan, on. */
export const ALL_PLANS: Record<string, string> = Object.fromEntries(
  ['S3_DATA_EVENTS', 'EKS_AUDIT_LOGS', 'EBS_MALWARE_PROTECTION', 'RDS_LOGIN_EVENTS', 'LAMBDA_NETWORK_LOGS'].map((p) => [
    p,
    'ENABLED',
  ]),
);
export const ECS_TASK_ARN = `arn:aws:ecs:us-east-1:${ACCOUNT}:task-definition/web:7`;
export const STACK_ID = `arn:aws:cloudformation:us-east-1:${ACCOUNT}:stack/network/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab`;
export const STATE_MACHINE_ARN = `arn:aws:states:us-east-1:${ACCOUNT}:stateMachine:order-flow`;
export const LAYER_ARN = `arn:aws:lambda:us-east-1:${ACCOUNT}:layer:shared-libs:4`;
export const LAMBDA_ARN = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:orders-api`;
/** The ingestion URL the clean account's event forwarder posts to, and Sentinel expects. */
export const FORWARDER_ENDPOINT = 'https://sentinel.example.com/ingest/aws/events';

/**
 * How the clean account's instances are set up: a role, a metadata service that requires IMDSv2, and no public
 * address (the internet reaches them through a load balancer).
 */
export const WELL_RUN_INSTANCE: {
  metadata: { httpTokens: string; httpEndpoint: string };
  instanceProfileArn: string;
  publicIp: string | null;
  securityGroupIds: string[];
} = {
  metadata: { httpTokens: 'required', httpEndpoint: 'enabled' },
  instanceProfileArn: `arn:aws:iam::${ACCOUNT}:instance-profile/app-server`,
  publicIp: null,
  securityGroupIds: [],
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

const document = (...Statement: Record<string, unknown>[]) => ({ Version: '2012-10-17', Statement });
const trusting = (Principal: Record<string, string>) =>
  document({ Effect: 'Allow', Principal, Action: 'sts:AssumeRole' });

/**
 * The clean account's principals as documents (the iamAuthorization part): its users in the developers group, which
 * reads (ReadOnlyAccess, abridged), its roles trusting their service or the account, nothing that escalates. It is
 * the organization's management account, which service control policies do not bound.
 */
export function cleanIamAuthorization(): IamAuthorization {
  const role = (
    name: string,
    trust: Record<string, unknown>,
    attached: string[] = [],
    inline: InlinePolicy[] = [],
  ) => ({
    name,
    arn: `arn:aws:iam::${ACCOUNT}:role/${name}`,
    attached,
    inline,
    boundary: null,
    trust,
    instanceProfiles: name === 'app-server' ? [WELL_RUN_INSTANCE.instanceProfileArn] : [],
  });
  const user = (name: string) => ({
    name,
    arn: `arn:aws:iam::${ACCOUNT}:user/${name}`,
    attached: [],
    inline: [],
    groups: ['developers'],
    boundary: null,
  });
  return {
    users: [user('alice'), user('ci-deploy')],
    groups: [
      {
        name: 'developers',
        arn: `arn:aws:iam::${ACCOUNT}:group/developers`,
        attached: ['arn:aws:iam::aws:policy/ReadOnlyAccess'],
        inline: [],
      },
    ],
    roles: [
      role(
        'app-server',
        trusting({ Service: 'ec2.amazonaws.com' }),
        [],
        [
          {
            name: 'app-assets-read',
            document: document({ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::acme-app-assets/*' }),
          },
        ],
      ),
      role('incident-support', trusting({ AWS: `arn:aws:iam::${ACCOUNT}:root` }), [
        'arn:aws:iam::aws:policy/AWSSupportAccess',
      ]),
      // The orders-api function's execution role: its own table, nothing more.
      role(
        'orders-api',
        trusting({ Service: 'lambda.amazonaws.com' }),
        [],
        [
          {
            name: 'orders-table',
            document: document({
              Effect: 'Allow',
              Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
              Resource: `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/orders`,
            }),
          },
        ],
      ),
      role(
        'bedrock-agent-support',
        trusting({ Service: 'bedrock.amazonaws.com' }),
        [],
        [
          {
            name: 'knowledge-base-read',
            document: document({ Effect: 'Allow', Action: 'bedrock:Retrieve', Resource: '*' }),
          },
        ],
      ),
    ],
    policies: [
      {
        arn: 'arn:aws:iam::aws:policy/ReadOnlyAccess',
        name: 'ReadOnlyAccess',
        document: document({
          Effect: 'Allow',
          Action: ['ec2:Describe*', 's3:Get*', 's3:List*', 'iam:Get*', 'iam:List*', 'cloudtrail:Describe*'],
          Resource: '*',
        }),
      },
      {
        arn: 'arn:aws:iam::aws:policy/AWSSupportAccess',
        name: 'AWSSupportAccess',
        document: document({ Effect: 'Allow', Action: 'support:*', Resource: '*' }),
      },
    ],
    serviceControlPolicies: { read: true, levels: [] },
    resourceControlPolicies: { read: true, levels: [] },
  };
}

/**
 * A well-run account: root locked away, users with MFA and fresh keys, nothing public, a multi-region trail that
 * delivers, GuardDuty in every enabled region, flat spend under a budget with alerts and watched by Cost Anomaly
 * Detection, all contacts set, instances with roles and IMDSv2,
 * EBS encryption by default and flow logs everywhere, encrypted and private data stores, rotating keys. It also holds
 * near misses that must not fail (a closed abuse event, a small anomaly, an HTTPS-only security group, a blocked public
 * policy, a network ACL whose denies shadow its TCP and UDP allows for SSH and RDP, an instance whose metadata service is off).
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
          trust: OWN_TRUST,
        },
        {
          name: 'incident-support',
          arn: `arn:aws:iam::${ACCOUNT}:role/incident-support`,
          adminAccess: false,
          managedPolicies: ['AWSSupportAccess'],
          fullAdminPolicies: [],
          trust: OWN_TRUST,
        },
        // The Bedrock agent's own role, with only what the agent needs (inline, not risky).
        {
          name: 'bedrock-agent-support',
          arn: BEDROCK_AGENT_ROLE,
          adminAccess: false,
          managedPolicies: [],
          fullAdminPolicies: [],
          trust: OWN_TRUST,
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
      riskyPolicies: [],
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
    iamAuthorization: ok(cleanIamAuthorization()),
    networkTopology: ok({
      subnets: [],
      routeTables: [],
      networkAcls: [],
      securityGroups: [],
      instances: [],
      loadBalancers: [],
      databases: [],
      caches: [],
      searchDomains: [],
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
    rootVirtualMfa: ok({ serialNumber: null, userArns: [] }),
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
          publicAclPermissions: [],
          publicWriteStatements: [],
          crossAccountPrincipals: [],
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
          publicAclPermissions: [],
          publicWriteStatements: [],
          crossAccountPrincipals: [],
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
        // A partner's office, a /24: narrow enough.
        {
          id: 'sg-0partner',
          name: 'partner',
          region: 'us-east-1',
          openIngress: [],
          wideRanges: [],
        },
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
          // In the group open to HTTPS, but without a public address: nothing reaches it from the internet directly.
          securityGroupIds: ['sg-0web'],
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
          // TCP and UDP from the internet but SSH and RDP, which lower-numbered entries deny first; no allow-all.
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
            { ruleNumber: 100, action: 'allow', protocol: '6', fromPort: 0, toPort: 65535, cidr: '0.0.0.0/0' },
            { ruleNumber: 101, action: 'allow', protocol: '6', fromPort: 0, toPort: 65535, cidr: '::/0' },
            { ruleNumber: 102, action: 'allow', protocol: '17', fromPort: 0, toPort: 65535, cidr: '0.0.0.0/0' },
            { ruleNumber: 103, action: 'allow', protocol: '17', fromPort: 0, toPort: 65535, cidr: '::/0' },
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
      silentAlarms: [],
    }),
    guardduty: ok({
      regions: [
        { region: 'us-east-1', detectorEnabled: true, highSeverityFindings: [], features: { ...ALL_PLANS } },
        { region: 'eu-west-1', detectorEnabled: true, highSeverityFindings: [], features: { ...ALL_PLANS } },
        { region: 'us-west-2', detectorEnabled: true, highSeverityFindings: [], features: { ...ALL_PLANS } },
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
          vpcId: 'vpc-0app',
          certificateValidTill: daysAgo(now, -400),

          arn: `arn:aws:rds:us-east-1:${ACCOUNT}:db:orders-db`,
          engineVersion: '16.4',
          clusterId: null,
          tlsEnforced: true,
          engineVersionOffered: true,
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
          vpcId: 'vpc-0eu',
          certificateValidTill: daysAgo(now, -400),

          arn: `arn:aws:rds:eu-west-1:${ACCOUNT}:db:reporting-replica`,
          engineVersion: '8.0.39',
          clusterId: null,
          tlsEnforced: true,
          engineVersionOffered: true,
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
    ...cleanCompute(),
    // IMDSv2 required by default everywhere; no subnet hands out public addresses; a transit gateway that reviews
    // attachments; an S3 endpoint whose policy names only the account, and an endpoint service nobody outside reaches.
    instanceMetadataDefaults: ok({
      regions: ['us-east-1', 'us-west-2', 'eu-west-1'].map((region) => ({ region, httpTokens: 'required' })),
    }),
    publicIpSubnets: ok({ subnets: [] }),
    transitGateways: ok({
      gateways: [{ id: 'tgw-0core', region: 'us-east-1', autoAcceptSharedAttachments: false }],
    }),
    vpcEndpoints: ok({
      endpoints: [
        {
          id: 'vpce-0s3',
          vpcId: 'vpc-0main',
          region: 'us-east-1',
          serviceName: 'com.amazonaws.us-east-1.s3',
          beyondAccount: [],
        },
      ],
      services: [
        {
          id: 'vpce-svc-0api',
          region: 'us-east-1',
          serviceName: 'com.amazonaws.vpce.us-east-1.vpce-svc-0api',
          outsidePrincipals: [],
        },
      ],
    }),
    // The web tier's load balancer redirects HTTP to HTTPS on TLS 1.2+, refuses ambiguous requests and cannot be
    // deleted by one call; an internal NLB terminates TLS on a current policy.
    loadBalancers: ok({
      loadBalancers: [
        {
          arn: `arn:aws:elasticloadbalancing:us-east-1:${ACCOUNT}:loadbalancer/app/web/0a1b2c3d4e5f6a7b`,
          name: 'web',
          region: 'us-east-1',
          type: 'application',
          internetFacing: true,
          attributes: { deletionProtection: true, dropInvalidHeaderFields: true, desyncMitigationMode: 'defensive' },
          listeners: [
            { arn: 'listener/app/web/80', port: 80, protocol: 'HTTP', sslPolicy: null, redirectsToHttps: true },
            {
              arn: 'listener/app/web/443',
              port: 443,
              protocol: 'HTTPS',
              sslPolicy: 'ELBSecurityPolicy-TLS13-1-2-2021-06',
              redirectsToHttps: false,
            },
          ],
        },
        {
          arn: `arn:aws:elasticloadbalancing:eu-west-1:${ACCOUNT}:loadbalancer/net/queue/1a2b3c4d5e6f7a8b`,
          name: 'queue',
          region: 'eu-west-1',
          type: 'network',
          internetFacing: false,
          attributes: { deletionProtection: true, dropInvalidHeaderFields: false, desyncMitigationMode: null },
          listeners: [
            {
              arn: 'listener/net/queue/5671',
              port: 5671,
              protocol: 'TLS',
              sslPolicy: 'ELBSecurityPolicy-TLS13-1-2-2021-06',
              redirectsToHttps: false,
            },
          ],
        },
      ],
    }),
    bedrockInvocationLogging: ok({
      regions: [
        {
          region: 'us-east-1',
          destination: {
            s3Bucket: 'acme-bedrock-logs',
            logGroup: { name: 'bedrock-invocations', kmsKeyId: `arn:aws:kms:us-east-1:${ACCOUNT}:key/logs` },
          },
        },
        { region: 'eu-west-1', destination: { s3Bucket: 'acme-bedrock-logs-eu', logGroup: null } },
      ],
    }),
    bedrockCustomModels: ok({
      models: [
        {
          name: 'support-tuned',
          arn: `arn:aws:bedrock:us-east-1:${ACCOUNT}:custom-model/support-tuned`,
          region: 'us-east-1',
          kmsKeyArn: `arn:aws:kms:us-east-1:${ACCOUNT}:key/models`,
        },
      ],
    }),
    bedrockGuardrails: ok({
      guardrails: [
        {
          id: 'gr-support',
          arn: `arn:aws:bedrock:us-east-1:${ACCOUNT}:guardrail/gr-support`,
          name: 'support',
          region: 'us-east-1',
          promptAttackStrength: 'HIGH',
          sensitiveInformation: true,
          groundingFilters: [
            { type: 'GROUNDING', threshold: 0.7, action: 'BLOCK', enabled: true },
            { type: 'RELEVANCE', threshold: 0.7, action: 'BLOCK', enabled: true },
          ],
        },
      ],
    }),
    bedrockAgents: ok({
      agents: [
        {
          id: 'AGENT12345',
          name: 'support-agent',
          region: 'us-east-1',
          guardrailId: 'gr-support',
          roleArn: BEDROCK_AGENT_ROLE,
        },
      ],
      dataSources: [
        {
          id: 'DS12345678',
          name: 'handbook',
          knowledgeBaseId: 'KB12345678',
          knowledgeBaseName: 'support-kb',
          region: 'us-east-1',
          kmsKeyArn: `arn:aws:kms:us-east-1:${ACCOUNT}:key/kb`,
        },
      ],
    }),
    bedrockApiKeys: ok({
      keys: [
        {
          id: 'ACCAEXPIREDKEY000001',
          userName: 'alice',
          status: 'Expired',
          createdAt: daysAgo(now, 40),
          expiresAt: daysAgo(now, 10),
        },
      ],
    }),
    sagemakerNotebooks: ok({
      notebooks: [
        {
          name: 'research',
          arn: `arn:aws:sagemaker:us-east-1:${ACCOUNT}:notebook-instance/research`,
          region: 'us-east-1',
          status: 'InService',
          directInternetAccess: false,
          rootAccess: false,
          kmsKeyId: `arn:aws:kms:us-east-1:${ACCOUNT}:key/notebooks`,
          subnetId: 'subnet-0private',
          lifecycleSecrets: [],
        },
      ],
    }),
    sagemakerTrainingJobs: ok({
      jobs: [
        {
          name: 'churn-2026-03',
          arn: `arn:aws:sagemaker:us-east-1:${ACCOUNT}:training-job/churn-2026-03`,
          region: 'us-east-1',
          createdAt: daysAgo(now, 3),
          networkIsolation: true,
          volumeKmsKeyId: `arn:aws:kms:us-east-1:${ACCOUNT}:key/training`,
          outputKmsKeyId: `arn:aws:kms:us-east-1:${ACCOUNT}:key/training`,
          subnets: ['subnet-0private'],
        },
      ],
    }),
    sagemakerModels: ok({
      models: [
        {
          name: 'churn',
          arn: `arn:aws:sagemaker:us-east-1:${ACCOUNT}:model/churn`,
          region: 'us-east-1',
          networkIsolation: true,
        },
      ],
    }),
    eksClusters: ok({
      clusters: [
        {
          name: 'prod',
          arn: `arn:aws:eks:us-east-1:${ACCOUNT}:cluster/prod`,
          region: 'us-east-1',
          version: '1.33',
          versionStatus: 'STANDARD_SUPPORT',
          endpointPublicAccess: true,
          publicAccessCidrs: ['203.0.113.0/24'],
          endpointPrivateAccess: true,
          enabledLogTypes: ['api', 'audit', 'authenticator'],
          secretsEncrypted: true,
          deletionProtection: true,
        },
      ],
    }),
    ecsServices: ok({
      services: [
        {
          name: 'web',
          arn: `arn:aws:ecs:us-east-1:${ACCOUNT}:service/prod/web`,
          cluster: `arn:aws:ecs:us-east-1:${ACCOUNT}:cluster/prod`,
          region: 'us-east-1',
          assignPublicIp: false,
        },
      ],
      taskSets: [
        {
          id: 'ecs-svc/1234567890123456789',
          arn: `arn:aws:ecs:us-east-1:${ACCOUNT}:task-set/prod/web/ecs-svc/1234567890123456789`,
          service: `arn:aws:ecs:us-east-1:${ACCOUNT}:service/prod/web`,
          region: 'us-east-1',
          assignPublicIp: false,
        },
      ],
    }),
    sqsQueues: ok({
      queues: [
        {
          name: 'orders',
          arn: `arn:aws:sqs:us-east-1:${ACCOUNT}:orders`,
          region: 'us-east-1',
          policy: PRIVATE,
          encrypted: true,
        },
      ],
    }),
    kmsKeyPolicies: ok({
      keys: [
        {
          id: '1234abcd-12ab-34cd-56ef-1234567890ab',
          arn: `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
          region: 'us-east-1',
          state: 'Enabled',
          deletionDate: null,
          policy: PRIVATE,
        },
      ],
    }),
    ecrRepositories: ok({
      repositories: [
        {
          name: 'api',
          arn: `arn:aws:ecr:us-east-1:${ACCOUNT}:repository/api`,
          region: 'us-east-1',
          scanOnPush: true,
          tagsImmutable: true,
          policy: PRIVATE,
        },
      ],
    }),
    glacierVaults: ok({
      vaults: [
        {
          name: 'archives',
          arn: `arn:aws:glacier:us-east-1:${ACCOUNT}:vaults/archives`,
          region: 'us-east-1',
          policy: PRIVATE,
        },
      ],
    }),
    snsTopics: ok({
      topics: [
        {
          name: 'alerts',
          arn: `arn:aws:sns:us-east-1:${ACCOUNT}:alerts`,
          region: 'us-east-1',
          policy: PRIVATE,
          encrypted: true,
        },
      ],
      subscriptions: [
        {
          arn: `arn:aws:sns:us-east-1:${ACCOUNT}:alerts:5f2c8a1e-1111-2222-3333-444455556666`,
          topicArn: `arn:aws:sns:us-east-1:${ACCOUNT}:alerts`,
          region: 'us-east-1',
          protocol: 'https',
          endpointHost: 'hooks.example.com',
        },
      ],
    }),
    secrets: ok({
      secrets: [
        {
          name: 'prod/db',
          arn: `arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:prod/db-AbCdEf`,
          region: 'us-east-1',
          rotationEnabled: true,
          createdAt: daysAgo(now, 400),
          lastAccessedAt: daysAgo(now, 1),
          policy: PRIVATE,
        },
      ],
    }),
    sesIdentities: ok({
      identities: [
        {
          name: 'example.com',
          arn: `arn:aws:ses:us-east-1:${ACCOUNT}:identity/example.com`,
          region: 'us-east-1',
          policy: PRIVATE,
        },
      ],
    }),
    eventBuses: ok({
      buses: [
        {
          name: 'default',
          arn: `arn:aws:events:us-east-1:${ACCOUNT}:event-bus/default`,
          region: 'us-east-1',
          policy: PRIVATE,
        },
      ],
    }),
    logResourcePolicies: ok({
      policies: [{ name: 'AWSLogDeliveryWrite', region: 'us-east-1', policy: PRIVATE }],
    }),
    ...cleanDataStores(),
    // An access point and a Multi-Region Access Point, both blocked.
    s3AccessPoints: ok({
      accessPoints: [{ name: 'analytics', region: 'us-east-1', bucket: 'acme-assets', blockPublicAccess: FULL_BLOCK }],
    }),
    s3MultiRegionAccessPoints: ok({
      accessPoints: [{ name: 'global-assets', buckets: ['acme-assets'], blockPublicAccess: FULL_BLOCK }],
    }),
    // The organization's management account: GuardDuty and Security Hub delegated to its security account, an SCP
    // confining it to its regions, centralized root access on.
    organization: ok({
      role: 'management',
      id: 'o-a1b2c3d4e5',
      delegatedAdministrators: [
        {
          accountId: SECURITY_ACCOUNT,
          name: 'security',
          services: ['guardduty.amazonaws.com', 'securityhub.amazonaws.com'],
        },
      ],
      serviceControlPolicies: [
        { id: 'p-FullAWSAccess', name: 'FullAWSAccess', restrictsRegions: false },
        { id: 'p-regions01', name: 'deny-other-regions', restrictsRegions: true },
      ],
      rootCredentialsManagement: true,
    }),
    // A few ordinary calls by a developer.
    cloudtrailActivity: ok({
      regions: ['us-east-1', 'us-west-2', 'eu-west-1'].map((region) => ({
        region,
        identities:
          region === 'us-east-1'
            ? [{ arn: alice, type: 'IAMUser', eventNames: ['AssumeRole', 'DescribeInstances', 'ListUsers'] }]
            : [],
        truncated: [],
      })),
    }),
    lambdaFunctions: ok({
      functions: [
        {
          name: 'orders-api',
          arn: LAMBDA_ARN,
          region: 'us-east-1',
          runtime: 'nodejs22.x',
          roleArn: `arn:aws:iam::${ACCOUNT}:role/orders-api`,
          environment: { read: true, secrets: [] },
          code: { read: true, secrets: [] },
          policy: { read: true, publicStatements: [] },
          urls: { read: true, urls: [{ url: 'https://abc123.lambda-url.us-east-1.on.aws/', authType: 'AWS_IAM' }] },
          layers: [LAYER_ARN],
          // Lambda polls the orders queue for it.
          eventSources: {
            read: true,
            mappings: [
              {
                uuid: '6f1c2b3a-0d4e-4f5a-8b9c-0a1b2c3d4e5f',
                sourceArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:orders`,
                state: 'Enabled',
              },
            ],
          },
        },
        {
          name: 'thumbnailer',
          arn: `arn:aws:lambda:eu-west-1:${ACCOUNT}:function:thumbnailer`,
          region: 'eu-west-1',
          runtime: null,
          roleArn: null,
          environment: { read: true, secrets: [] },
          code: null,
          policy: { read: true, publicStatements: [] },
          urls: { read: true, urls: [] },
          layers: [],
          eventSources: { read: true, mappings: [] },
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
    // A public package ingested from npmjs takes upstream versions, as it must: only internal ones must not.
    codeartifactPackages: ok({
      packages: [
        {
          arn: `${CODEARTIFACT_REPOSITORY}/lodash`,
          domain: 'acme',
          repository: 'npm-store',
          format: 'npm',
          namespace: null,
          name: 'lodash',
          region: 'us-east-1',
          latestOrigin: 'EXTERNAL',
        },
      ],
    }),
    registeredDomains: ok({ domains: [{ name: 'example.com', transferLock: true }] }),
    // One record names the account's Elastic IP, the other a private address: neither dangles.
    hostedZoneRecords: ok({
      records: [
        { zoneId: 'Z0EXAMPLE', zoneName: 'example.com.', name: 'www.example.com.', addresses: [ELASTIC_IP] },
        { zoneId: 'Z0EXAMPLE', zoneName: 'example.com.', name: 'intranet.example.com.', addresses: ['10.0.0.5'] },
      ],
    }),
    elasticIps: ok({ addresses: [{ publicIp: ELASTIC_IP, region: 'us-east-1' }] }),
    cloudfrontDistributions: ok({
      distributions: [
        {
          id: 'E2QWRUHAPOMQZL',
          arn: CLOUDFRONT_ARN,
          domainName: 'd111111abcdef8.cloudfront.net',
          defaultRootObject: 'index.html',
          s3Origins: [{ originId: 'site', bucket: 'acme-site', exists: true }],
          customOrigins: [{ originId: 'api', domainName: 'api.example.com', protocolPolicy: 'https-only' }],
          viewerProtocolPolicy: 'redirect-to-https',
          httpPathPatterns: [],
          webAclId: `arn:aws:wafv2:us-east-1:${ACCOUNT}:global/webacl/site/0a1b2c3d`,
        },
      ],
    }),
    acmCertificates: ok({
      certificates: [
        {
          arn: ACM_ARN,
          domainName: 'www.example.com',
          region: 'us-east-1',
          keyAlgorithm: 'RSA-2048',
          notAfter: new Date(Date.parse(now) + 200 * DAY_MS).toISOString(),
          inUse: true,
        },
      ],
    }),
    lightsailInstances: ok({
      instances: [
        {
          name: 'blog',
          arn: LIGHTSAIL_INSTANCE_ARN,
          region: 'eu-west-1',
          publicIp: '203.0.113.40',
          publicPorts: [],
        },
      ],
    }),
    lightsailDatabases: ok({
      databases: [
        {
          name: 'blog-db',
          arn: LIGHTSAIL_DATABASE_ARN,
          region: 'eu-west-1',
          engine: 'mysql',
          publiclyAccessible: false,
        },
      ],
    }),
    // The account's daily plan: its RDS instances by ARN, its clusters by the clusters' pattern.
    backupSelections: ok({
      selections: [
        {
          region: 'us-east-1',
          planId: 'a1b2c3d4-5678-90ab-cdef-111122223333',
          planName: 'daily',
          name: 'databases',
          resources: [`arn:aws:rds:us-east-1:${ACCOUNT}:db:orders-db`, 'arn:aws:rds:*:*:cluster:*'],
          notResources: [],
        },
        {
          region: 'eu-west-1',
          planId: 'b1b2c3d4-5678-90ab-cdef-111122223333',
          planName: 'daily-eu',
          name: 'everything',
          resources: ['*'],
          notResources: [],
        },
      ],
    }),
  };
}

/** The clean account's CodeArtifact repository, and the Elastic IP its website's record names. */
export const CODEARTIFACT_REPOSITORY = `arn:aws:codeartifact:us-east-1:${ACCOUNT}:repository/acme/npm-store`;
export const ELASTIC_IP = '52.1.2.3';

export const CLOUDFRONT_ARN = `arn:aws:cloudfront::${ACCOUNT}:distribution/E2QWRUHAPOMQZL`;
export const ACM_ARN = `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/12345678-1234-1234-1234-123456789012`;
export const LIGHTSAIL_INSTANCE_ARN = `arn:aws:lightsail:eu-west-1:${ACCOUNT}:Instance/0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f`;
export const LIGHTSAIL_DATABASE_ARN = `arn:aws:lightsail:eu-west-1:${ACCOUNT}:RelationalDatabase/1d2e3f4a-5b6c-7d8e-9f0a-1b2c3d4e5f6a`;

const arnOf = (service: string, region: string, resource: string) =>
  `arn:aws:${service}:${region}:${ACCOUNT}:${resource}`;

/** The databases and analytics stores of a well-run account: private, encrypted, backed up, patched. */
function cleanDataStores(): Pick<
  Inventory,
  | 'rdsClusters'
  | 'rdsSnapshots'
  | 'dms'
  | 'redshiftClusters'
  | 'opensearchDomains'
  | 'kafkaClusters'
  | 'elasticacheReplicationGroups'
  | 'kinesisStreams'
  | 'ebsVolumes'
  | 'ebsSnapshots'
  | 'ebsSnapshotBlockPublicAccess'
> {
  const cluster = (id: string, engine: string, region = 'us-east-1') => ({
    id,
    arn: arnOf('rds', region, `cluster:${id}`),
    region,
    engine,
    storageEncrypted: true,
    // DocumentDB and Neptune clusters are not read for it (cloud/aws/collectors/rds.ts).
    tlsEnforced: engine !== 'docdb' && engine !== 'neptune',
  });
  const snapshot = (id: string, kind: 'instance' | 'cluster', engine: string, type: string) => ({
    id,
    arn: arnOf('rds', 'us-east-1', `${kind === 'cluster' ? 'cluster-snapshot' : 'snapshot'}:${id}`),
    region: 'us-east-1',
    kind,
    engine,
    type,
    encrypted: true,
    public: false,
  });
  return {
    rdsClusters: ok({
      clusters: [
        cluster('orders-aurora', 'aurora-postgresql'),
        cluster('catalog-docs', 'docdb'),
        cluster('graph', 'neptune'),
      ],
    }),
    rdsSnapshots: ok({
      snapshots: [
        snapshot('orders-db-before-migration', 'instance', 'postgres', 'manual'),
        snapshot('rds:orders-db-2026-03-14', 'instance', 'postgres', 'automated'),
        snapshot('orders-aurora-release', 'cluster', 'aurora-postgresql', 'manual'),
        snapshot('catalog-docs-release', 'cluster', 'docdb', 'manual'),
        snapshot('graph-release', 'cluster', 'neptune', 'manual'),
      ],
    }),
    dms: ok({
      instances: [
        {
          id: 'migration',
          arn: arnOf('dms', 'us-east-1', 'rep:MIGRATION'),
          region: 'us-east-1',
          publiclyAccessible: false,
          autoMinorVersionUpgrade: true,
        },
      ],
      endpoints: [
        {
          id: 'orders-source',
          arn: arnOf('dms', 'us-east-1', 'endpoint:ORDERS'),
          region: 'us-east-1',
          engine: 'postgres',
          sslMode: 'verify-full',
        },
      ],
    }),
    redshiftClusters: ok({
      clusters: [
        {
          id: 'warehouse',
          region: 'us-east-1',
          publiclyAccessible: false,
          encrypted: true,
          automatedSnapshotRetentionDays: 7,
          requireSsl: true,
          allowVersionUpgrade: true,
        },
      ],
    }),
    opensearchDomains: ok({
      domains: [
        {
          name: 'search',
          arn: arnOf('es', 'us-east-1', 'domain/search'),
          region: 'us-east-1',
          inVpc: true,
          publicStatements: [],
          encryptedAtRest: true,
          nodeToNodeEncryption: true,
          enforceHttps: true,
          fineGrainedAccessControl: true,
          auditLogs: true,
          updateAvailable: false,
        },
        // Outside a VPC, but its policy names the account's own role: not public.
        {
          name: 'logs',
          arn: arnOf('es', 'eu-west-1', 'domain/logs'),
          region: 'eu-west-1',
          inVpc: false,
          publicStatements: [],
          encryptedAtRest: true,
          nodeToNodeEncryption: true,
          enforceHttps: true,
          fineGrainedAccessControl: true,
          auditLogs: true,
          updateAvailable: false,
        },
      ],
    }),
    kafkaClusters: ok({
      clusters: [
        {
          name: 'events',
          arn: arnOf('kafka', 'us-east-1', 'cluster/events/1'),
          region: 'us-east-1',
          serverless: false,
          publicAccess: false,
          unauthenticatedAccess: false,
          tlsAuthentication: true,
          clientBrokerEncryption: 'TLS',
          inClusterEncryption: true,
        },
        // Serverless: private, authenticated and encrypted by design, whatever else it reports.
        {
          name: 'clicks',
          arn: arnOf('kafka', 'us-east-1', 'cluster/clicks/2'),
          region: 'us-east-1',
          serverless: true,
          publicAccess: false,
          unauthenticatedAccess: false,
          tlsAuthentication: false,
          clientBrokerEncryption: null,
          inClusterEncryption: false,
        },
      ],
    }),
    elasticacheReplicationGroups: ok({
      groups: [
        {
          id: 'sessions',
          arn: arnOf('elasticache', 'us-east-1', 'replicationgroup:sessions'),
          region: 'us-east-1',
          engine: 'redis',
          snapshotRetentionDays: 7,
          atRestEncryption: true,
          transitEncryption: true,
          autoMinorVersionUpgrade: true,
        },
      ],
    }),
    kinesisStreams: ok({
      streams: [
        {
          name: 'clickstream',
          arn: arnOf('kinesis', 'us-east-1', 'stream/clickstream'),
          region: 'us-east-1',
          encrypted: true,
        },
      ],
    }),
    // Every volume has a snapshot.
    ebsVolumes: ok({ unencrypted: [], volumes: [{ id: 'vol-0data', region: 'us-east-1' }] }),
    ebsSnapshots: ok({
      regions: [
        { region: 'us-east-1', count: 12 },
        { region: 'eu-west-1', count: 0 },
      ],
      unencrypted: [],
      snapshottedVolumes: [{ id: 'vol-0data', region: 'us-east-1' }],
    }),
    ebsSnapshotBlockPublicAccess: ok({
      regions: [
        { region: 'us-east-1', state: 'block-all-sharing' },
        // No snapshots there: nothing to share.
        { region: 'eu-west-1', state: 'unblocked' },
      ],
    }),
  };
}

/** A resource policy that opens nothing beyond the account (or no policy at all). */
export const PRIVATE: PolicyReading = { read: true, exposure: { public: [], external: [] } };

/** A reading of a policy with one statement open to everyone, allowing `action`. */
export const publicReading = (action: string): PolicyReading => ({
  read: true,
  exposure: {
    public: [{ sid: 'Open', actions: [action], notActions: [], unknownConditions: [] }],
    external: [],
  },
});

/** A reading of a policy that names `account`, allowing `action`. */
export const sharedReading = (account: string, action: string): PolicyReading => ({
  read: true,
  exposure: {
    public: [],
    external: [{ account, statement: { sid: 'Partner', actions: [action], notActions: [], unknownConditions: [] } }],
  },
});

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

const REQUIRED_IMDSV2 = { httpTokens: 'required', httpEndpoint: 'enabled' };

/** The compute parts of the clean account: user data without secrets, IMDSv2 required, private builds and jobs. */
function cleanCompute() {
  return {
    instanceUserData: ok({ instances: [{ id: 'i-0web', region: 'us-east-1', secrets: [] }] }),
    launchTemplates: ok({
      templates: [
        {
          id: 'lt-0web',
          name: 'web',
          region: 'us-east-1',
          versions: [
            { number: 3, isDefault: true, metadata: REQUIRED_IMDSV2, publicIp: false, secrets: [] },
            { number: 4, isDefault: false, metadata: REQUIRED_IMDSV2, publicIp: false, secrets: [] },
          ],
        },
      ],
    }),
    autoScaling: ok({
      launchConfigurations: [
        { name: 'workers-v2', region: 'us-east-1', metadata: REQUIRED_IMDSV2, publicIp: false, secrets: [] },
      ],
      groups: [
        {
          name: 'workers',
          arn: WORKERS_GROUP,
          region: 'us-east-1',
          launchConfiguration: 'workers-v2',
          availabilityZones: ['us-east-1a', 'us-east-1b'],
          healthCheckType: 'ELB',
          loadBalanced: true,
        },
      ],
    }),
    codebuildProjects: ok({
      projects: [
        {
          name: 'deploy',
          arn: DEPLOY_PROJECT,
          region: 'us-east-1',
          visibility: 'PRIVATE',
          variableSecrets: [],
          sourceSecrets: [],
          unanchoredFilters: [],
        },
      ],
    }),
    glue: ok({
      jobs: [
        {
          name: 'nightly-etl',
          region: 'us-east-1',
          argumentSecrets: [],
          securityConfiguration: 'encrypted',
          sseS3Argument: false,
        },
      ],
      connections: [{ name: 'warehouse', region: 'us-east-1', type: 'JDBC', enforceSsl: true, propertySecrets: [] }],
      securityConfigurations: [
        {
          name: 'encrypted',
          region: 'us-east-1',
          s3Encryption: 'SSE-KMS',
          cloudWatchEncryption: 'SSE-KMS',
          bookmarksEncryption: 'CSE-KMS',
        },
      ],
      catalogs: [{ region: 'us-east-1', passwordsEncrypted: true, policy: { read: true, publicStatements: [] } }],
    }),
    batchJobDefinitions: ok({
      jobDefinitions: [{ name: 'render', revision: 2, arn: RENDER_JOB, region: 'us-east-1', secrets: [] }],
    }),
  } satisfies Partial<Inventory>;
}
