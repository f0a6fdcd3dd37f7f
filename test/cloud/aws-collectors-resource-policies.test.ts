import { CloudWatchLogsClient, PutResourcePolicyCommand as PutLogPolicyCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateRepositoryCommand, ECRClient, SetRepositoryPolicyCommand } from '@aws-sdk/client-ecr';
import { CreateEventBusCommand, EventBridgeClient, PutPermissionCommand } from '@aws-sdk/client-eventbridge';
import { CreateVaultCommand, GlacierClient } from '@aws-sdk/client-glacier';
import { CreateKeyCommand, KMSClient, ScheduleKeyDeletionCommand } from '@aws-sdk/client-kms';
import {
  CreateSecretCommand,
  PutResourcePolicyCommand as PutSecretPolicyCommand,
  RotateSecretCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { CreateEmailIdentityCommand, CreateEmailIdentityPolicyCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { checkById } from '../../domain/checks/catalog';
import { RESOURCE_POLICY_CHECKS } from '../../domain/checks/resource-policies';
import type { Inventory, PartName } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoDifferences,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The resource-policy parts (SQS queues, KMS key policies and states, ECR repositories, Glacier vaults, SNS topics
// and subscriptions, Secrets Manager secrets, SES identities, EventBridge buses, CloudWatch Logs resource policies)
// against moto: each test seeds a customer account through the SDK, connects it with the real CLI script, and
// collects those parts through the front (test/helpers/aws.ts), which refuses calls as a resource policy or an SCP
// would. moto 5.2 has no Glacier vault access policies: the front answers GetVaultAccessPolicy in AWS's documented
// shape (the policy as a JSON string under "Policy", or 404 ResourceNotFoundException for a vault without one).

const PARTS: PartName[] = [
  'sqsQueues',
  'kmsKeyPolicies',
  'ecrRepositories',
  'glacierVaults',
  'snsTopics',
  'secrets',
  'sesIdentities',
  'eventBuses',
  'logResourcePolicies',
];
const CHECKS = RESOURCE_POLICY_CHECKS.map((c) => c.id);
/** The regions the account has enabled: moto lists China's too, where it has no SES (AWS lists them to no account). */
const REGIONS = [REGION, 'eu-west-1', 'eu-west-2'];

/** DescribeRegions as for an account with only REGIONS enabled: the collection reads them alone. */
function onlyRegions(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  if (request.service !== 'ec2' || request.operation !== 'DescribeRegions') return motoDifferences(request, answer);
  const body = answer.body.replace(/<item>((?:(?!<\/item>)[\s\S])*)<\/item>/g, (item, inner: string) => {
    const name = /<regionName>([^<]+)<\/regionName>/.exec(inner)?.[1];
    return name && REGIONS.includes(name) ? item : '';
  });
  return { ...answer, body };
}

const SECOND_PAGE = 'second-page';

/** A listing call, how to recognise it, and the fields of its answer that hold the items and the next token. */
interface Listing {
  matches: (request: AwsRequest) => boolean;
  items: string;
  token: string;
  /** Fields the first page also carries (KMS's Truncated). */
  more?: Record<string, unknown>;
}

/**
 * moto answers these listings whole, in one page: the front cuts its answer in two as AWS pages it, the first item
 * with a next token, then the rest when the collector sends that token back (answered by the front: moto does not
 * know the token).
 */
function inTwoPages(listings: Listing[]) {
  const rest = new Map<Listing, unknown[]>();
  /** The listings whose second page was asked for, by their items' field. */
  const asked = new Set<string>();
  const second = (request: AwsRequest) => request.body.includes(SECOND_PAGE) || request.query.includes(SECOND_PAGE);
  return {
    asked,
    answer: (request: AwsRequest): CannedAnswer | undefined => {
      const listing = listings.find((l) => l.matches(request) && second(request));
      if (!listing) return undefined;
      asked.add(listing.items);
      return {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ [listing.items]: rest.get(listing) }),
      };
    },
    rewrite: (request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined => {
      const listing = listings.find((l) => l.matches(request) && !second(request));
      if (!listing || answer.status !== 200 || request.region !== REGION) return onlyRegions(request, answer);
      const page = JSON.parse(answer.body) as Record<string, unknown[]>;
      const [first, ...others] = page[listing.items] ?? [];
      rest.set(listing, others);
      const body = { ...page, [listing.items]: first ? [first] : [], [listing.token]: SECOND_PAGE, ...listing.more };
      return { ...answer, body: JSON.stringify(body) };
    },
  };
}
const PARTNER = '444455556666';

/** Each check's outcome: 'pass', 'not_evaluated', or its failing resources as `resource@region`. */
function outcomes(inventory: Inventory): Record<string, string | string[]> {
  return Object.fromEntries(
    CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region}`).sort() : result.status,
      ];
    }),
  );
}

const policy = (...statements: object[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements });
const toEveryone = (action: string, resource = '*') =>
  policy({ Sid: 'Anyone', Effect: 'Allow', Principal: '*', Action: action, Resource: resource });
const toPartner = (action: string, resource = '*') =>
  policy({
    Sid: 'Partner',
    Effect: 'Allow',
    Principal: { AWS: `arn:aws:iam::${PARTNER}:root` },
    Action: action,
    Resource: resource,
  });
const toOwnAccount = (account: string, action: string) =>
  policy({
    Sid: 'Owner',
    Effect: 'Allow',
    Principal: { AWS: `arn:aws:iam::${account}:root` },
    Action: action,
    Resource: '*',
  });

/** The vault name of a Glacier access-policy request (GET /-/vaults/NAME/access-policy). */
const vaultPolicyRequest = (request: AwsRequest) =>
  request.service === 'glacier' ? /^\/[^/]+\/vaults\/([^/]+)\/access-policy$/.exec(request.path)?.[1] : undefined;

/** What moto lacks for Glacier vault policies, answered as AWS does from `policies` (vault name to policy). */
function glacierPolicies(policies: Record<string, string>) {
  return (request: AwsRequest): CannedAnswer | undefined => {
    const vault = vaultPolicyRequest(request);
    if (vault === undefined) return motoGaps(request);
    const document = policies[decodeURIComponent(vault)];
    return document
      ? { status: 200, contentType: 'application/json', body: JSON.stringify({ Policy: document }) }
      : {
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 'ResourceNotFoundException',
            message: `No vault access policy is set for: ${vault}`,
            type: 'Client',
          }),
        };
  };
}

describe('AWS resource policy collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;
  beforeEach(() => {
    suite.front.rewrite = onlyRegions;
  });
  const collect = (target: Parameters<typeof suite.provider.collectInventory>[0]) =>
    suite.provider.collectInventory(target, { parts: PARTS });

  const clients = (customer: CustomerAccount, region = REGION) => ({
    account: customer.accountId,
    sqs: client(new SQSClient(customerConfig(customer, region))),
    kms: client(new KMSClient(customerConfig(customer, region))),
    ecr: client(new ECRClient(customerConfig(customer, region))),
    glacier: client(new GlacierClient(customerConfig(customer, region))),
    sns: client(new SNSClient(customerConfig(customer, region))),
    secrets: client(new SecretsManagerClient(customerConfig(customer, region))),
    ses: client(new SESv2Client(customerConfig(customer, region))),
    events: client(new EventBridgeClient(customerConfig(customer, region))),
    logs: client(new CloudWatchLogsClient(customerConfig(customer, region))),
  });
  type Clients = ReturnType<typeof clients>;

  const queue = async (c: Clients, name: string, attributes: Record<string, string>) =>
    (await c.sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl as string;
  const key = async (c: Clients, keyPolicy?: string) => {
    const { KeyMetadata } = await c.kms.send(new CreateKeyCommand({ Policy: keyPolicy }));
    return { id: KeyMetadata?.KeyId as string, arn: KeyMetadata?.Arn as string };
  };
  const repository = async (
    c: Clients,
    name: string,
    settings: { scanOnPush: boolean; immutable: boolean; policy?: string },
  ) => {
    const { repository: created } = await c.ecr.send(
      new CreateRepositoryCommand({
        repositoryName: name,
        imageScanningConfiguration: { scanOnPush: settings.scanOnPush },
        imageTagMutability: settings.immutable ? 'IMMUTABLE' : 'MUTABLE',
      }),
    );
    if (settings.policy)
      await c.ecr.send(new SetRepositoryPolicyCommand({ repositoryName: name, policyText: settings.policy }));
    return created?.repositoryArn as string;
  };
  const vault = async (c: Clients, name: string) => (
    await c.glacier.send(new CreateVaultCommand({ accountId: '-', vaultName: name })),
    `arn:aws:glacier:${REGION}:${c.account}:vaults/${name}`
  );
  const topic = async (c: Clients, name: string, attributes: Record<string, string>) =>
    (await c.sns.send(new CreateTopicCommand({ Name: name, Attributes: attributes }))).TopicArn as string;
  const secret = async (c: Clients, name: string, settings: { rotation: boolean; policy?: string }) => {
    const { ARN } = await c.secrets.send(new CreateSecretCommand({ Name: name, SecretString: 'not read by Sentinel' }));
    if (settings.policy)
      await c.secrets.send(new PutSecretPolicyCommand({ SecretId: ARN, ResourcePolicy: settings.policy }));
    // moto turns rotation on from the rules alone (AWS also needs a rotation function).
    if (settings.rotation)
      await c.secrets.send(new RotateSecretCommand({ SecretId: ARN, RotationRules: { AutomaticallyAfterDays: 30 } }));
    return ARN as string;
  };
  const identity = async (c: Clients, name: string, sendingPolicy?: string) => {
    await c.ses.send(new CreateEmailIdentityCommand({ EmailIdentity: name }));
    if (sendingPolicy)
      await c.ses.send(
        new CreateEmailIdentityPolicyCommand({ EmailIdentity: name, PolicyName: 'senders', Policy: sendingPolicy }),
      );
  };
  /** A bus opened by a whole policy (PutPermission's Policy) or to one account (its Principal). */
  const bus = async (c: Clients, name: string, grant?: { policy: (arn: string) => string } | { account: string }) => {
    const { EventBusArn } = await c.events.send(new CreateEventBusCommand({ Name: name }));
    if (grant && 'policy' in grant)
      await c.events.send(
        new PutPermissionCommand({ EventBusName: name, Policy: grant.policy(EventBusArn as string) }),
      );
    if (grant && 'account' in grant)
      await c.events.send(
        new PutPermissionCommand({
          EventBusName: name,
          Action: 'events:PutEvents',
          Principal: grant.account,
          StatementId: 'Partner',
        }),
      );
    return EventBusArn as string;
  };

  it('finds what is open to everyone or shared, unencrypted, unscanned, unrotated or scheduled for deletion, and passes the rest', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const account = customer.accountId;
    const c = clients(customer);
    const arn = (service: string, path: string) => `arn:aws:${service}:${REGION}:${account}:${path}`;

    const [openQueue, sharedQueue, quietQueue] = [uniqueName('open'), uniqueName('shared'), uniqueName('quiet')];
    await queue(c, openQueue, { Policy: toEveryone('sqs:SendMessage'), SqsManagedSseEnabled: 'false' });
    await queue(c, sharedQueue, { Policy: toPartner('sqs:SendMessage'), SqsManagedSseEnabled: 'true' });
    // Allowed to a service for one source: neither public nor another account's.
    await queue(c, quietQueue, {
      Policy: policy({
        Effect: 'Allow',
        Principal: { Service: 'sns.amazonaws.com' },
        Action: 'sqs:SendMessage',
        Resource: '*',
        Condition: { ArnEquals: { 'aws:SourceArn': arn('sns', 'alerts') } },
      }),
      KmsMasterKeyId: 'alias/aws/sqs',
    });

    const openKey = await key(c, toEveryone('kms:Decrypt'));
    const sharedKey = await key(c, toPartner('kms:Decrypt'));
    const ownKey = await key(c, toOwnAccount(account, 'kms:*'));
    const doomedKey = await key(c);
    await c.kms.send(new ScheduleKeyDeletionCommand({ KeyId: doomedKey.id, PendingWindowInDays: 7 }));

    const openRepo = await repository(c, uniqueName('open'), {
      scanOnPush: false,
      immutable: false,
      policy: toEveryone('ecr:BatchGetImage'),
    });
    const sharedRepo = await repository(c, uniqueName('shared'), {
      scanOnPush: true,
      immutable: true,
      policy: toPartner('ecr:BatchGetImage'),
    });
    await repository(c, uniqueName('private'), { scanOnPush: true, immutable: true });

    const [openVault, sharedVault, privateVault] = [uniqueName('open'), uniqueName('shared'), uniqueName('private')];
    for (const name of [openVault, sharedVault, privateVault]) await vault(c, name);
    suite.front.answer = glacierPolicies({
      [openVault]: toEveryone('glacier:InitiateJob'),
      [sharedVault]: toPartner('glacier:InitiateJob'),
    });

    const openTopic = await topic(c, uniqueName('open'), { Policy: toEveryone('sns:Publish') });
    const sharedTopic = await topic(c, uniqueName('shared'), {
      Policy: toPartner('sns:Subscribe'),
      KmsMasterKeyId: 'alias/aws/sns',
    });
    const httpSubscription = (
      await c.sns.send(
        new SubscribeCommand({ TopicArn: sharedTopic, Protocol: 'http', Endpoint: 'http://hooks.example.com/deploy' }),
      )
    ).SubscriptionArn as string;
    await c.sns.send(
      new SubscribeCommand({ TopicArn: sharedTopic, Protocol: 'https', Endpoint: 'https://hooks.example.com/alerts' }),
    );

    const openSecret = await secret(c, uniqueName('open'), {
      rotation: true,
      policy: toEveryone('secretsmanager:GetSecretValue'),
    });
    const sharedSecret = await secret(c, uniqueName('shared'), {
      rotation: false,
      policy: toPartner('secretsmanager:GetSecretValue'),
    });
    await secret(c, uniqueName('private'), { rotation: true });

    const [openDomain, sharedDomain] = [`${uniqueName('open')}.example.com`, `${uniqueName('shared')}.example.com`];
    await identity(c, openDomain, toEveryone('ses:SendEmail'));
    await identity(c, sharedDomain, toPartner('ses:SendEmail'));
    await identity(c, `${uniqueName('private')}.example.com`);

    const openBus = await bus(c, uniqueName('open'), { policy: (a) => toEveryone('events:PutEvents', a) });
    const sharedBus = await bus(c, uniqueName('shared'), { account: PARTNER });
    await bus(c, uniqueName('private'));

    await c.logs.send(
      new PutLogPolicyCommand({ policyName: 'open-to-all', policyDocument: toEveryone('logs:PutLogEvents') }),
    );
    await c.logs.send(
      new PutLogPolicyCommand({
        policyName: 'AWSLogDeliveryWrite',
        policyDocument: policy({
          Effect: 'Allow',
          Principal: { Service: 'delivery.logs.amazonaws.com' },
          Action: 'logs:PutLogEvents',
          Resource: '*',
          Condition: { StringEquals: { 'aws:SourceAccount': account } },
        }),
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await collect(target);

    const at = (resource: string) => [`${resource}@${REGION}`];
    expect(outcomes(inventory)).toEqual({
      'exposure.sqs_queue_public': at(arn('sqs', openQueue)),
      'exposure.sqs_queue_unencrypted': at(arn('sqs', openQueue)),
      'exposure.sqs_queue_cross_account': at(arn('sqs', sharedQueue)),
      'exposure.kms_key_public': at(openKey.arn),
      'threat.kms_key_pending_deletion': at(doomedKey.arn),
      'exposure.kms_key_cross_account': at(sharedKey.arn),
      'exposure.ecr_repository_public': at(openRepo),
      'exposure.ecr_repository_cross_account': at(sharedRepo),
      'exposure.ecr_scan_on_push_off': at(openRepo),
      'exposure.ecr_tags_mutable': at(openRepo),
      'exposure.glacier_vault_public': at(arn('glacier', `vaults/${openVault}`)),
      'exposure.glacier_vault_cross_account': at(arn('glacier', `vaults/${sharedVault}`)),
      'exposure.sns_topic_public': at(openTopic),
      'exposure.sns_topic_unencrypted': at(openTopic),
      'exposure.sns_http_subscription': at(httpSubscription),
      'exposure.sns_topic_cross_account': at(sharedTopic),
      'exposure.secret_public': at(openSecret),
      'exposure.secret_cross_account': at(sharedSecret),
      'exposure.secret_rotation_off': at(sharedSecret),
      'exposure.secret_unused': 'pass',
      'exposure.ses_identity_public': at(arn('ses', `identity/${openDomain}`)),
      'exposure.ses_identity_cross_account': at(arn('ses', `identity/${sharedDomain}`)),
      'exposure.eventbridge_bus_public': at(openBus),
      'exposure.eventbridge_bus_cross_account': at(sharedBus),
      'exposure.log_resource_policy_public': at('open-to-all'),
    });
    // The key kept for its own account is read, and passes; only customer managed keys are kept.
    expect(
      ok(inventory.kmsKeyPolicies)
        .keys.map((k) => k.id)
        .sort(),
    ).toEqual([openKey.id, sharedKey.id, ownKey.id, doomedKey.id].sort());
    // The finding says what the policy allows, and to whom.
    const shared = checkById('exposure.kms_key_cross_account')!.evaluate(inventory, { now: inventory.collectedAt });
    expect(shared).toMatchObject({
      resources: [
        { detail: expect.stringContaining(`grants account ${PARTNER} access: Statement Partner allows kms:Decrypt`) },
      ],
    });
    expect(PARTS.map((p) => inventory[p].unread)).toEqual(PARTS.map(() => undefined));
  });

  it('leaves unread a resource whose policy or attributes are refused, and a region that refuses the listing', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const account = customer.accountId;
    const c = clients(customer);
    const arn = (service: string, path: string) => `arn:aws:${service}:${REGION}:${account}:${path}`;
    const [hiddenQueue, openQueue] = [uniqueName('hidden'), uniqueName('open')];
    await queue(c, hiddenQueue, { Policy: toEveryone('sqs:SendMessage') });
    await queue(c, openQueue, { Policy: toEveryone('sqs:SendMessage') });
    const hiddenKey = await key(c, toEveryone('kms:Decrypt'));
    const hiddenRepo = await repository(c, uniqueName('hidden'), { scanOnPush: false, immutable: true });
    const hiddenVault = uniqueName('hidden');
    await vault(c, hiddenVault);
    const hiddenTopic = await topic(c, uniqueName('hidden'), {});
    const hiddenSecret = await secret(c, uniqueName('hidden'), { rotation: false });
    const hiddenDomain = `${uniqueName('hidden')}.example.com`;
    await identity(c, hiddenDomain);
    await createSentinelRole({ customer, externalId: target.externalId });
    const glacier = glacierPolicies({});
    suite.front.answer = (request) => {
      const refused =
        (request.operation === 'GetQueueAttributes' && request.body.includes(hiddenQueue)) ||
        (request.operation === 'GetKeyPolicy' && request.body.includes(hiddenKey.id)) ||
        request.operation === 'GetRepositoryPolicy' ||
        vaultPolicyRequest(request) === hiddenVault ||
        (request.operation === 'GetTopicAttributes' && request.body.includes(encodeURIComponent(hiddenTopic))) ||
        request.operation === 'GetResourcePolicy' ||
        (request.service === 'ses' && request.path.endsWith('/policies')) ||
        // An SCP that denies EventBridge and CloudWatch Logs in one region.
        (['events', 'logs'].includes(request.service) && request.region === 'eu-west-2');
      return refused ? accessDenied(request) : glacier(request);
    };

    const inventory = await collect(target);

    const refusal = (service: string, operation: string) =>
      expect.stringMatching(new RegExp(`^AWS denied Sentinel's role ${service} ${operation} \\(AccessDenied\\)`));
    expect(inventory.sqsQueues).toEqual({
      status: 'ok',
      value: { queues: [expect.objectContaining({ name: openQueue })] },
      unread: [{ kind: 'resource', scope: arn('sqs', hiddenQueue), reason: refusal('SQS', 'GetQueueAttributes') }],
    });
    expect(inventory.snsTopics.unread).toEqual([
      { kind: 'resource', scope: hiddenTopic, reason: refusal('SNS', 'GetTopicAttributes') },
    ]);
    // A refused policy leaves the resource's exposure unread, never private; its other settings are still judged.
    const result = (id: string) => checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
    expect(result('exposure.sqs_queue_public')).toMatchObject({
      status: 'fail',
      resources: [{ resource: arn('sqs', openQueue) }],
      unread: [{ scope: arn('sqs', hiddenQueue) }],
    });
    for (const [id, scope, service, operation] of [
      ['exposure.kms_key_public', hiddenKey.arn, 'KMS', 'GetKeyPolicy'],
      ['exposure.ecr_repository_public', hiddenRepo, 'ECR', 'GetRepositoryPolicy'],
      ['exposure.glacier_vault_public', arn('glacier', `vaults/${hiddenVault}`), 'S3 Glacier', 'GetVaultAccessPolicy'],
      ['exposure.secret_public', hiddenSecret, 'Secrets Manager', 'GetResourcePolicy'],
      ['exposure.ses_identity_public', arn('ses', `identity/${hiddenDomain}`), 'SES', 'GetEmailIdentityPolicies'],
    ] as const) {
      expect([id, result(id)]).toEqual([
        id,
        { status: 'pass', unread: [{ kind: 'resource', scope, reason: refusal(service, operation) }] },
      ]);
    }
    expect(result('exposure.ecr_scan_on_push_off')).toEqual({
      status: 'fail',
      resources: [expect.objectContaining({ resource: hiddenRepo })],
    });
    expect(result('exposure.secret_rotation_off')).toMatchObject({
      status: 'fail',
      resources: [{ resource: hiddenSecret }],
    });
    for (const part of ['eventBuses', 'logResourcePolicies'] as const)
      expect(inventory[part].unread).toEqual([
        { kind: 'region', scope: 'eu-west-2', reason: expect.stringMatching(/^AWS denied Sentinel's role/) },
      ]);
  });

  it('reads every page of every listing', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const c = clients(customer);
    const names = (prefix: string) => [uniqueName(prefix), uniqueName(prefix)];
    const queues = names('queue');
    for (const name of queues) await queue(c, name, {});
    const keys = [await key(c), await key(c)];
    const repositories = names('repo');
    for (const name of repositories) await repository(c, name, { scanOnPush: true, immutable: true });
    const vaults = names('vault');
    for (const name of vaults) await vault(c, name);
    const secrets = names('secret');
    for (const name of secrets) await secret(c, name, { rotation: true });
    const domains = names('mail').map((n) => `${n}.example.com`);
    for (const name of domains) await identity(c, name);
    const buses = names('bus');
    for (const name of buses) await bus(c, name);
    const logPolicies = names('policy');
    for (const name of logPolicies)
      await c.logs.send(
        new PutLogPolicyCommand({ policyName: name, policyDocument: toOwnAccount(c.account, 'logs:*') }),
      );
    // SNS pages by 100 in moto as in AWS: 101 topics take two pages.
    const topics: string[] = [];
    for (let i = 0; i < 101; i += 1)
      topics.push(await topic(c, `t${String(i).padStart(3, '0')}-${uniqueName('x')}`, {}));
    await createSentinelRole({ customer, externalId: target.externalId });
    const json = (operation: string) => (r: AwsRequest) => r.operation === operation;
    const pages = inTwoPages([
      { matches: json('ListQueues'), items: 'QueueUrls', token: 'NextToken' },
      { matches: json('ListKeys'), items: 'Keys', token: 'NextMarker', more: { Truncated: true } },
      { matches: json('DescribeRepositories'), items: 'repositories', token: 'nextToken' },
      { matches: json('ListSecrets'), items: 'SecretList', token: 'NextToken' },
      { matches: json('ListEventBuses'), items: 'EventBuses', token: 'NextToken' },
      { matches: json('DescribeResourcePolicies'), items: 'resourcePolicies', token: 'nextToken' },
      {
        matches: (r) => r.service === 'ses' && r.path === '/v2/email/list-identities',
        items: 'EmailIdentities',
        token: 'NextToken',
      },
      {
        matches: (r) => r.service === 'glacier' && r.method === 'GET' && /^\/[^/]+\/vaults$/.test(r.path),
        items: 'VaultList',
        token: 'Marker',
      },
    ]);
    const glacier = glacierPolicies({});
    suite.front.answer = (request) => pages.answer(request) ?? glacier(request);
    suite.front.rewrite = pages.rewrite;

    const inventory = await collect(target);

    const inRegion = <T extends { region: string }>(items: T[]) => items.filter((i) => i.region === REGION);
    expect({
      queues: inRegion(ok(inventory.sqsQueues).queues)
        .map((q) => q.name)
        .sort(),
      keys: inRegion(ok(inventory.kmsKeyPolicies).keys)
        .map((k) => k.id)
        .sort(),
      repositories: inRegion(ok(inventory.ecrRepositories).repositories)
        .map((r) => r.name)
        .sort(),
      vaults: inRegion(ok(inventory.glacierVaults).vaults)
        .map((v) => v.name)
        .sort(),
      secrets: inRegion(ok(inventory.secrets).secrets)
        .map((x) => x.name)
        .sort(),
      domains: inRegion(ok(inventory.sesIdentities).identities)
        .map((i) => i.name)
        .sort(),
      buses: inRegion(ok(inventory.eventBuses).buses)
        .map((b) => b.name)
        .filter((n) => n !== 'default')
        .sort(),
      logPolicies: inRegion(ok(inventory.logResourcePolicies).policies)
        .map((p) => p.name)
        .sort(),
      topics: inRegion(ok(inventory.snsTopics).topics).length,
    }).toEqual({
      queues: queues.sort(),
      keys: keys.map((k) => k.id).sort(),
      repositories: repositories.sort(),
      vaults: vaults.sort(),
      secrets: secrets.sort(),
      domains: domains.sort(),
      buses: buses.sort(),
      logPolicies: logPolicies.sort(),
      topics: 101,
    });
    expect([...pages.asked].sort()).toEqual(
      [
        'QueueUrls',
        'Keys',
        'repositories',
        'SecretList',
        'EventBuses',
        'resourcePolicies',
        'EmailIdentities',
        'VaultList',
      ].sort(),
    );
    const listings = suite.front.requests.filter(
      (r) => r.region === REGION && r.service === 'sns' && r.operation === 'ListTopics',
    );
    expect(listings).toHaveLength(2);
  });
});
