import { policyExposure } from '../../domain/policies/resource-policy';
import type { Collected, Inventory, PolicyReading, Unread } from '../../domain/scans/inventory';

// The sandbox account's queues, keys, repositories, vaults, topics, secrets, sending identities, event buses and
// log policies, with their resource policies written as AWS stores them and read by the same code as a real
// scan's (domain/policies/resource-policy.ts). A clean account keeps them private and well kept; each account
// draws a few of the issues below from its id, so the demo estate shows every check failing somewhere and passing
// elsewhere, the same at every scan.

type ResourcePolicyParts = Pick<
  Inventory,
  | 'sqsQueues'
  | 'kmsKeyPolicies'
  | 'ecrRepositories'
  | 'glacierVaults'
  | 'snsTopics'
  | 'secrets'
  | 'sesIdentities'
  | 'eventBuses'
  | 'logResourcePolicies'
>;
type Values = { [K in keyof ResourcePolicyParts]: ResourcePolicyParts[K] extends Collected<infer T> ? T : never };

const DAY_MS = 86_400_000;
/** An account the issues below share resources with: a partner's, not one of the sandbox's. */
const PARTNER = '999988887777';

/** A number in [0, 1) from the keys (FNV-1a, then an avalanche), so draws are stable per account and issue. */
function draw(...keys: string[]): number {
  let h = 2166136261;
  for (const c of keys.join(':')) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  h ^= h >>> 15;
  h = Math.imul(h, 2246822507);
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296;
}

function reading(accountId: string, statements: object[]): PolicyReading {
  const document = { Version: '2012-10-17', Statement: statements };
  const exposure = policyExposure(document, accountId);
  if (!exposure) throw new Error('sandbox policy is not a policy document');
  // The document too, as a scan keeps it for the attack-path analysis; none for a resource without a policy.
  return statements.length > 0 ? { read: true, exposure, document } : { read: true, exposure };
}

/** What AWS writes on a new topic: everyone, limited to the account by aws:SourceOwner (so not public). */
const defaultTopicPolicy = (accountId: string, arn: string) =>
  reading(accountId, [
    {
      Sid: '__default_statement_ID',
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Action: ['SNS:Publish', 'SNS:Subscribe', 'SNS:GetTopicAttributes'],
      Resource: arn,
      Condition: { StringEquals: { 'AWS:SourceOwner': accountId } },
    },
  ]);
const ownAccountOnly = (accountId: string, action: string) =>
  reading(accountId, [
    {
      Sid: 'Owner',
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${accountId}:root` },
      Action: action,
      Resource: '*',
    },
  ]);
const openToAll = (accountId: string, action: string) =>
  reading(accountId, [{ Sid: 'Anyone', Effect: 'Allow', Principal: '*', Action: action, Resource: '*' }]);
const sharedWithPartner = (accountId: string, action: string) =>
  reading(accountId, [
    {
      Sid: 'Partner',
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${PARTNER}:root` },
      Action: action,
      Resource: '*',
    },
  ]);

function cleanValues(accountId: string, home: string, at: Date): Values {
  const arn = (service: string, path: string, region = home) => `arn:aws:${service}:${region}:${accountId}:${path}`;
  const keyId = `${accountId.slice(0, 8)}-5a1e-4c0d-9e2f-${accountId}`;
  const ago = (days: number) => new Date(at.getTime() - days * DAY_MS).toISOString();
  return {
    sqsQueues: {
      queues: ['orders', 'orders-dlq'].map((name) => ({
        name,
        arn: arn('sqs', name),
        region: home,
        policy: reading(accountId, []),
        encrypted: true,
      })),
    },
    kmsKeyPolicies: {
      keys: [
        {
          id: keyId,
          arn: arn('kms', `key/${keyId}`),
          region: home,
          state: 'Enabled',
          deletionDate: null,
          policy: ownAccountOnly(accountId, 'kms:*'),
        },
      ],
    },
    ecrRepositories: {
      repositories: ['api', 'worker'].map((name) => ({
        name,
        arn: arn('ecr', `repository/${name}`),
        region: home,
        scanOnPush: true,
        tagsImmutable: true,
        policy: reading(accountId, []),
      })),
    },
    glacierVaults: {
      vaults: [
        {
          name: 'yearly-archives',
          arn: arn('glacier', 'vaults/yearly-archives'),
          region: home,
          policy: reading(accountId, []),
        },
      ],
    },
    snsTopics: {
      topics: ['alerts', 'deployments'].map((name) => ({
        name,
        arn: arn('sns', name),
        region: home,
        policy: defaultTopicPolicy(accountId, arn('sns', name)),
        encrypted: true,
      })),
      subscriptions: [
        {
          arn: arn('sns', 'alerts:6c1f0a52-0d7e-4f39-8a51-0c2b4d9e7a10'),
          topicArn: arn('sns', 'alerts'),
          region: home,
          protocol: 'https',
          endpointHost: 'hooks.pagerduty.example',
        },
      ],
    },
    secrets: {
      secrets: ['prod/db-password', 'prod/payments-api-key'].map((name, i) => ({
        name,
        arn: arn('secretsmanager', `secret:${name}-${accountId.slice(-6)}`),
        region: home,
        rotationEnabled: true,
        createdAt: ago(300 + i * 40),
        lastAccessedAt: ago(1),
        policy: reading(accountId, []),
      })),
    },
    sesIdentities: {
      identities: [
        {
          name: `mail.${accountId}.example.com`,
          arn: arn('ses', `identity/mail.${accountId}.example.com`),
          region: home,
          policy: reading(accountId, []),
        },
      ],
    },
    eventBuses: {
      buses: [
        { name: 'default', arn: arn('events', 'event-bus/default'), region: home, policy: reading(accountId, []) },
      ],
    },
    logResourcePolicies: {
      policies: [
        {
          name: 'AWSLogDeliveryWrite20150319',
          region: home,
          policy: reading(accountId, [
            {
              Effect: 'Allow',
              Principal: { Service: 'delivery.logs.amazonaws.com' },
              Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
              Resource: '*',
              Condition: { StringEquals: { 'aws:SourceAccount': accountId } },
            },
          ]),
        },
      ],
    },
  };
}

/** One misconfiguration of the kind these checks find, and how it is applied to a clean account. */
interface Issue {
  name: string;
  apply(v: Values, accountId: string, at: Date): void;
}

const ISSUES: Issue[] = [
  {
    name: 'queue open to all',
    apply: (v, a) => void (v.sqsQueues.queues[0]!.policy = openToAll(a, 'sqs:SendMessage')),
  },
  { name: 'queue unencrypted', apply: (v) => void (v.sqsQueues.queues[1]!.encrypted = false) },
  {
    name: 'queue shared',
    apply: (v, a) => void (v.sqsQueues.queues[1]!.policy = sharedWithPartner(a, 'sqs:SendMessage')),
  },
  { name: 'key open to all', apply: (v, a) => void (v.kmsKeyPolicies.keys[0]!.policy = openToAll(a, 'kms:Decrypt')) },
  {
    name: 'key scheduled for deletion',
    apply: (v, _a, at) =>
      void Object.assign(v.kmsKeyPolicies.keys[0]!, {
        state: 'PendingDeletion',
        deletionDate: new Date(at.getTime() + 12 * DAY_MS).toISOString(),
      }),
  },
  {
    name: 'key shared',
    apply: (v, a) => void (v.kmsKeyPolicies.keys[0]!.policy = sharedWithPartner(a, 'kms:Decrypt')),
  },
  {
    name: 'repository open to all',
    apply: (v, a) => void (v.ecrRepositories.repositories[1]!.policy = openToAll(a, 'ecr:BatchGetImage')),
  },
  {
    name: 'repository shared',
    apply: (v, a) => void (v.ecrRepositories.repositories[0]!.policy = sharedWithPartner(a, 'ecr:BatchGetImage')),
  },
  { name: 'repository not scanned', apply: (v) => void (v.ecrRepositories.repositories[1]!.scanOnPush = false) },
  { name: 'repository tags mutable', apply: (v) => void (v.ecrRepositories.repositories[0]!.tagsImmutable = false) },
  {
    name: 'vault open to all',
    apply: (v, a) => void (v.glacierVaults.vaults[0]!.policy = openToAll(a, 'glacier:InitiateJob')),
  },
  {
    name: 'vault shared',
    apply: (v, a) => void (v.glacierVaults.vaults[0]!.policy = sharedWithPartner(a, 'glacier:InitiateJob')),
  },
  { name: 'topic open to all', apply: (v, a) => void (v.snsTopics.topics[1]!.policy = openToAll(a, 'sns:Publish')) },
  { name: 'topic unencrypted', apply: (v) => void (v.snsTopics.topics[1]!.encrypted = false) },
  {
    name: 'subscription over http',
    apply: (v) =>
      void v.snsTopics.subscriptions.push({
        ...v.snsTopics.subscriptions[0]!,
        arn: `${v.snsTopics.topics[1]!.arn}:0b7d9c3e-52aa-4e0f-9d11-7e6a2c4f8b21`,
        topicArn: v.snsTopics.topics[1]!.arn,
        protocol: 'http',
        endpointHost: 'deploy-hook.internal.example',
      }),
  },
  {
    name: 'topic shared',
    apply: (v, a) => void (v.snsTopics.topics[0]!.policy = sharedWithPartner(a, 'sns:Subscribe')),
  },
  {
    name: 'secret open to all',
    apply: (v, a) => void (v.secrets.secrets[1]!.policy = openToAll(a, 'secretsmanager:GetSecretValue')),
  },
  {
    name: 'secret shared',
    apply: (v, a) => void (v.secrets.secrets[0]!.policy = sharedWithPartner(a, 'secretsmanager:GetSecretValue')),
  },
  { name: 'secret never rotated', apply: (v) => void (v.secrets.secrets[1]!.rotationEnabled = false) },
  {
    name: 'secret unused',
    apply: (v, _a, at) =>
      void (v.secrets.secrets[0]!.lastAccessedAt = new Date(at.getTime() - 140 * DAY_MS).toISOString()),
  },
  {
    name: 'identity open to all',
    apply: (v, a) => void (v.sesIdentities.identities[0]!.policy = openToAll(a, 'ses:SendEmail')),
  },
  {
    name: 'identity shared',
    apply: (v, a) => void (v.sesIdentities.identities[0]!.policy = sharedWithPartner(a, 'ses:SendEmail')),
  },
  { name: 'bus open to all', apply: (v, a) => void (v.eventBuses.buses[0]!.policy = openToAll(a, 'events:PutEvents')) },
  {
    name: 'bus shared',
    apply: (v, a) => void (v.eventBuses.buses[0]!.policy = sharedWithPartner(a, 'events:PutEvents')),
  },
  {
    name: 'log policy open to all',
    apply: (v, a) => void (v.logResourcePolicies.policies[0]!.policy = openToAll(a, 'logs:PutLogEvents')),
  },
];

/** How often a neglected account has each issue. */
const ISSUE_RATE = 0.12;

/**
 * The parts for an account whose resources live in `home`; `readable` drops what lives in regions Sentinel is
 * denied, and `regional(service)` names those regions unread.
 */
export function resourcePolicyParts(
  accountId: string,
  home: string,
  at: Date,
  /** The multiplier on each issue's odds (cloud/sandbox/upkeep.ts): how neglected the account is. */
  neglect: number,
  readable: <T extends { region: string }>(items: T[]) => T[],
  regional: (service: string) => Unread[],
): ResourcePolicyParts {
  const v = cleanValues(accountId, home, at);
  for (const issue of ISSUES) if (draw(accountId, issue.name) < ISSUE_RATE * neglect) issue.apply(v, accountId, at);
  const ok = <T>(value: T, service: string): Collected<T> => {
    const unread = regional(service);
    return unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };
  };
  return {
    sqsQueues: ok({ queues: readable(v.sqsQueues.queues) }, 'SQS ListQueues'),
    kmsKeyPolicies: ok({ keys: readable(v.kmsKeyPolicies.keys) }, 'KMS ListKeys'),
    ecrRepositories: ok({ repositories: readable(v.ecrRepositories.repositories) }, 'ECR DescribeRepositories'),
    glacierVaults: ok({ vaults: readable(v.glacierVaults.vaults) }, 'S3 Glacier ListVaults'),
    snsTopics: ok(
      { topics: readable(v.snsTopics.topics), subscriptions: readable(v.snsTopics.subscriptions) },
      'SNS ListTopics',
    ),
    secrets: ok({ secrets: readable(v.secrets.secrets) }, 'Secrets Manager ListSecrets'),
    sesIdentities: ok({ identities: readable(v.sesIdentities.identities) }, 'SES ListEmailIdentities'),
    eventBuses: ok({ buses: readable(v.eventBuses.buses) }, 'EventBridge ListEventBuses'),
    logResourcePolicies: ok(
      { policies: readable(v.logResourcePolicies.policies) },
      'CloudWatch Logs DescribeResourcePolicies',
    ),
  };
}
