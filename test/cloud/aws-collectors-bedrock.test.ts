import {
  BedrockClient,
  CreateModelCustomizationJobCommand,
  PutModelInvocationLoggingConfigurationCommand,
} from '@aws-sdk/client-bedrock';
import { CloudWatchLogsClient, CreateLogGroupCommand } from '@aws-sdk/client-cloudwatch-logs';
import { AttachRolePolicyCommand, CreateRoleCommand, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import {
  bedrockApiKeysPart,
  bedrockCustomModelsPart,
  bedrockGuardrailsPart,
  bedrockInvocationLoggingPart,
} from '../../cloud/aws/collectors/bedrock';
import { bedrockAgentsPart } from '../../cloud/aws/collectors/bedrock-agent';
import { type AnyReader, sharedReads } from '../../cloud/aws/collectors/reader';
import { sagemakerNotebooksPart } from '../../cloud/aws/collectors/sagemaker';
import { openSession } from '../../cloud/aws/collectors/session';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
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
  TEST_CREDENTIALS,
} from '../helpers/aws';
import { inTwoPages, ok, useCollectorSuite } from '../helpers/collector-suite';

// The Bedrock parts end to end: invocation logging and custom models seeded in moto through the SDK, collected
// through Sentinel's role and the front, and evaluated by the checks. moto 5.2 has no guardrails, no IAM
// service-specific credentials, and answers Bedrock Agents (agents, knowledge bases) with timestamps as numbers,
// which the SDK rejects (they are date-time strings in AWS's answers), and without data sources or agent
// guardrails: the front answers those (ListGuardrails, GetGuardrail, ListAgents, GetAgent, ListKnowledgeBases,
// ListDataSources, GetDataSource, ListServiceSpecificCredentials) in AWS's documented shape. Its custom models
// come back with times the SDK rejects ("2026-12-07 07:41:35", where AWS writes RFC 3339), nulls for what AWS
// leaves out, and a made-up KMS key in place of the one given, or of none: the front rewrites those answers as
// AWS gives them, the key kept for the models these tests create with one (named sealed-…).

const OTHER_REGION = 'eu-west-1';
const BEDROCK_TRUST = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'bedrock.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});
const INVOKE_ONLY = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: 'bedrock:InvokeModel', Resource: '*' }],
});
const ROLE = 'arn:aws:iam::123456789012:role/bedrock';
const BASE_MODEL = 'arn:aws:bedrock:us-east-1::foundation-model/amazon.titan-text-express-v1';
const json = (body: unknown): CannedAnswer => ({
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** The failing resources of a check as `resource@region`, or its status when it does not fail. */
function outcome(inventory: Inventory, checkId: string): string[] | string {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  return result.status === 'fail'
    ? result.resources.map((r) => `${r.resource}@${r.region ?? 'global'}`).sort()
    : result.status;
}

/** A guardrail as GetGuardrail describes it: `strong` has every filter the checks ask for, the other none. */
function guardrail(accountId: string, id: string, strong: boolean) {
  const at = '2026-11-01T00:00:00Z';
  return {
    name: id,
    guardrailId: id,
    guardrailArn: `arn:aws:bedrock:${REGION}:${accountId}:guardrail/${id}`,
    version: 'DRAFT',
    status: 'READY',
    createdAt: at,
    updatedAt: at,
    blockedInputMessaging: 'Sorry.',
    blockedOutputsMessaging: 'Sorry.',
    contentPolicy: {
      filters: [{ type: 'PROMPT_ATTACK', inputStrength: strong ? 'HIGH' : 'LOW', outputStrength: 'NONE' }],
    },
    ...(strong
      ? {
          sensitiveInformationPolicy: { piiEntities: [{ type: 'EMAIL', action: 'ANONYMIZE' }] },
          contextualGroundingPolicy: {
            filters: [
              { type: 'GROUNDING', threshold: 0.7, action: 'BLOCK', enabled: true },
              { type: 'RELEVANCE', threshold: 0.7, action: 'BLOCK', enabled: true },
            ],
          },
        }
      : {}),
  };
}

/** ListServiceSpecificCredentials (IAM, query protocol) for `keys`, one page per call from `marker`. */
function apiKeysPage(request: AwsRequest, keys: { id: string; user: string; expires?: string }[], perPage: number) {
  const params = new URLSearchParams(request.body);
  const from = Number(params.get('Marker') ?? '0');
  const page = keys.slice(from, from + perPage);
  const more = from + perPage < keys.length;
  const members = page
    .map(
      (k) =>
        `<member><UserName>${k.user}</UserName><Status>Active</Status><ServiceUserName>${k.user}-at-bedrock</ServiceUserName>` +
        `<CreateDate>2026-11-01T00:00:00Z</CreateDate>${k.expires ? `<ExpirationDate>${k.expires}</ExpirationDate>` : ''}` +
        `<ServiceSpecificCredentialId>${k.id}</ServiceSpecificCredentialId><ServiceName>bedrock.amazonaws.com</ServiceName></member>`,
    )
    .join('');
  return {
    status: 200,
    contentType: 'text/xml',
    body:
      '<ListServiceSpecificCredentialsResponse xmlns="https://iam.amazonaws.com/doc/2010-05-08/"><ListServiceSpecificCredentialsResult>' +
      `<ServiceSpecificCredentials>${members}</ServiceSpecificCredentials><IsTruncated>${more}</IsTruncated>` +
      `${more ? `<Marker>${from + perPage}</Marker>` : ''}</ListServiceSpecificCredentialsResult>` +
      '<ResponseMetadata><RequestId>front</RequestId></ResponseMetadata></ListServiceSpecificCredentialsResponse>',
  };
}

/** moto's ListCustomModels and GetCustomModel answers as AWS gives them (see above). */
function asAwsModels(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  if (request.service !== 'bedrock' || !request.path.startsWith('/custom-models') || answer.status !== 200)
    return motoDifferences(request, answer);
  const sealed = /^\/custom-models\/sealed-/.test(request.path);
  const times = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(times);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, v]) => v !== null && !(key === 'modelKmsKeyArn' && !sealed))
        .map(([key, v]) => [key, /Time$/.test(key) && typeof v === 'string' ? `${v.replace(' ', 'T')}Z` : times(v)]),
    );
  };
  return { ...answer, body: JSON.stringify(times(JSON.parse(answer.body))) };
}

describe('Bedrock collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  beforeEach(() => {
    suite.front.rewrite = asAwsModels;
  });

  const bedrock = (customer: CustomerAccount, region: string) =>
    client(new BedrockClient(customerConfig(customer, region)));
  const customModel = async (customer: CustomerAccount, region: string, name: string, key?: string) => {
    await bedrock(customer, region).send(
      new CreateModelCustomizationJobCommand({
        jobName: `${name}-job`,
        customModelName: name,
        roleArn: ROLE,
        baseModelIdentifier: BASE_MODEL,
        customModelKmsKeyId: key,
        trainingDataConfig: { s3Uri: 's3://training/data.jsonl' },
        outputDataConfig: { s3Uri: 's3://training/output/' },
        hyperParameters: { epochCount: '1' },
      }),
    );
    return `arn:aws:bedrock:${region}:${customer.accountId}:custom-model/${name}`;
  };

  const logTo = async (customer: CustomerAccount, region: string, logGroup: string, kmsKeyId?: string) => {
    await client(new CloudWatchLogsClient(customerConfig(customer, region))).send(
      new CreateLogGroupCommand({ logGroupName: logGroup, kmsKeyId }),
    );
    await bedrock(customer, region).send(
      new PutModelInvocationLoggingConfigurationCommand({
        loggingConfig: { cloudWatchConfig: { logGroupName: logGroup, roleArn: ROLE }, textDataDeliveryEnabled: true },
      }),
    );
  };

  /**
   * The front's answers for what moto lacks: two guardrails and `agents` (named guarded-… when they have a
   * guardrail; each acting with the role `agentRoles` names, or one of its own) in REGION, with a knowledge base of
   * two data sources; API keys `perPage` at a time.
   */
  function answerGaps(
    customer: CustomerAccount,
    {
      keys = [],
      perPage = 1000,
      agents = ['loose-agent'],
      agentsPerPage = 100,
      agentRoles = {},
    }: {
      keys?: { id: string; user: string; expires?: string }[];
      perPage?: number;
      agents?: string[];
      agentsPerPage?: number;
      agentRoles?: Record<string, string>;
    } = {},
  ) {
    const agentIdOf = (name: string) =>
      `AGENT${name
        .replace(/[^a-z]/g, '')
        .toUpperCase()
        .slice(0, 10)}`;
    const guardrails = ['gr-strong', 'gr-weak'].map((id) => guardrail(customer.accountId, id, id === 'gr-strong'));
    const at = '2026-11-01T00:00:00Z';
    return (request: AwsRequest): CannedAnswer | undefined => {
      if (request.service === 'bedrock' && request.region === REGION && request.method === 'POST') {
        if (request.path === '/agents/') {
          const from = Number((JSON.parse(request.body || '{}') as { nextToken?: string }).nextToken ?? '0');
          const page = agents.slice(from, from + agentsPerPage);
          return json({
            agentSummaries: page.map((name) => ({
              agentId: agentIdOf(name),
              agentName: name,
              agentStatus: 'PREPARED',
              updatedAt: at,
              ...(name.startsWith('guarded-')
                ? { guardrailConfiguration: { guardrailIdentifier: 'gr-strong', guardrailVersion: '1' } }
                : {}),
            })),
            ...(from + agentsPerPage < agents.length ? { nextToken: String(from + agentsPerPage) } : {}),
          });
        }
        if (request.path === '/knowledgebases/')
          return json({
            knowledgeBaseSummaries: [
              { knowledgeBaseId: 'KBHANDBOOK', name: 'handbook', status: 'ACTIVE', updatedAt: at },
            ],
          });
      }
      if (request.service === 'bedrock' && request.region === REGION && request.method === 'GET') {
        const agentPath = /^\/agents\/([^/]+)\/?$/.exec(request.path);
        const name = agentPath && agents.find((n) => agentIdOf(n) === agentPath[1]);
        if (name)
          return json({
            agent: {
              agentId: agentIdOf(name),
              agentName: name,
              agentArn: `arn:aws:bedrock:${REGION}:${customer.accountId}:agent/${agentIdOf(name)}`,
              agentVersion: 'DRAFT',
              agentStatus: 'PREPARED',
              agentResourceRoleArn: `arn:aws:iam::${customer.accountId}:role/${agentRoles[name] ?? `agent-${name}`}`,
              foundationModel: 'anthropic.claude-3-haiku-20240307-v1:0',
              idleSessionTTLInSeconds: 600,
              createdAt: at,
              updatedAt: at,
            },
          });
        if (request.path === '/guardrails')
          return json({
            guardrails: guardrails.map((g) => ({
              id: g.guardrailId,
              arn: g.guardrailArn,
              name: g.name,
              status: g.status,
              version: g.version,
              createdAt: g.createdAt,
              updatedAt: g.updatedAt,
            })),
          });
        const described = guardrails.find((g) => request.path === `/guardrails/${g.guardrailId}`);
        if (described) return json(described);
      }
      const sources = /^\/knowledgebases\/([^/]+)\/datasources\/?$/.exec(request.path);
      if (request.service === 'bedrock' && sources)
        return json({
          dataSourceSummaries: [
            {
              knowledgeBaseId: sources[1],
              dataSourceId: 'DSPLAIN001',
              name: 'plain',
              status: 'AVAILABLE',
              updatedAt: '2026-11-01T00:00:00Z',
            },
            {
              knowledgeBaseId: sources[1],
              dataSourceId: 'DSSEALED01',
              name: 'sealed',
              status: 'AVAILABLE',
              updatedAt: '2026-11-01T00:00:00Z',
            },
          ],
        });
      const source = /^\/knowledgebases\/([^/]+)\/datasources\/([^/]+)$/.exec(request.path);
      if (request.service === 'bedrock' && source && request.method === 'GET') {
        const sealed = source[2] === 'DSSEALED01';
        return json({
          dataSource: {
            knowledgeBaseId: source[1],
            dataSourceId: source[2],
            name: sealed ? 'sealed' : 'plain',
            status: 'AVAILABLE',
            dataSourceConfiguration: { type: 'S3', s3Configuration: { bucketArn: 'arn:aws:s3:::handbook' } },
            ...(sealed
              ? {
                  serverSideEncryptionConfiguration: {
                    kmsKeyArn: `arn:aws:kms:${request.region}:${customer.accountId}:key/kb`,
                  },
                }
              : {}),
            createdAt: '2026-11-01T00:00:00Z',
            updatedAt: '2026-11-01T00:00:00Z',
          },
        });
      }
      if (request.service === 'iam' && request.operation === 'ListServiceSpecificCredentials')
        return apiKeysPage(request, keys, perPage);
      return motoGaps(request);
    };
  }

  it('finds logging off, unencrypted logs, models and data sources without a key, weak guardrails, an unguarded agent and a long-term key', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await logTo(customer, REGION, 'bedrock-invocations');
    await logTo(
      customer,
      OTHER_REGION,
      'bedrock-invocations',
      `arn:aws:kms:${OTHER_REGION}:${customer.accountId}:key/logs`,
    );
    const plain = await customModel(customer, REGION, 'plain-model');
    await customModel(
      customer,
      OTHER_REGION,
      'sealed-model',
      `arn:aws:kms:${OTHER_REGION}:${customer.accountId}:key/m`,
    );
    await createSentinelRole({ customer, externalId: target.externalId });
    // The loose and guarded agents share a role that has AdministratorAccess; the helper has one of its own that
    // may only invoke a model.
    for (const [role, policy] of [
      ['agent-admin', 'AdministratorAccess'],
      ['agent-helper', null],
    ] as const) {
      await customer.iam.send(new CreateRoleCommand({ RoleName: role, AssumeRolePolicyDocument: BEDROCK_TRUST }));
      if (policy)
        await customer.iam.send(
          new AttachRolePolicyCommand({ RoleName: role, PolicyArn: `arn:aws:iam::aws:policy/${policy}` }),
        );
      else
        await customer.iam.send(
          new PutRolePolicyCommand({ RoleName: role, PolicyName: 'invoke', PolicyDocument: INVOKE_ONLY }),
        );
    }
    suite.front.answer = answerGaps(customer, {
      agents: ['loose-agent', 'guarded-agent', 'guarded-helper'],
      agentRoles: { 'loose-agent': 'agent-admin', 'guarded-agent': 'agent-admin', 'guarded-helper': 'agent-helper' },
      keys: [
        { id: 'ACCANEVEREXPIRES0001', user: 'alice' },
        { id: 'ACCAEXPIREDKEY000001', user: 'bob', expires: '2026-01-01T00:00:00Z' },
      ],
    });

    const inventory = await suite.provider.collectInventory(target);

    const logging = ok(inventory.bedrockInvocationLogging).regions;
    expect(logging.find((r) => r.region === REGION)).toEqual({
      region: REGION,
      destination: { s3Bucket: null, logGroup: { name: 'bedrock-invocations', kmsKeyId: null } },
    });
    const loggingOff = outcome(inventory, 'detection.bedrock_invocation_logging_off') as string[];
    expect(loggingOff).toContain('model-invocation-logging@us-west-2');
    expect(loggingOff.filter((r) => r.endsWith(`@${REGION}`) || r.endsWith(`@${OTHER_REGION}`))).toEqual([]);
    expect(outcome(inventory, 'detection.bedrock_invocation_logs_unencrypted')).toEqual([
      `model-invocation-logging@${REGION}`,
    ]);
    expect(outcome(inventory, 'exposure.bedrock_custom_model_not_cmk')).toEqual([`${plain}@${REGION}`]);
    const weak = `arn:aws:bedrock:${REGION}:${customer.accountId}:guardrail/gr-weak@${REGION}`;
    expect(
      [
        'exposure.bedrock_guardrail_no_prompt_attack_filter',
        'exposure.bedrock_guardrail_no_sensitive_info_filter',
        'exposure.bedrock_guardrail_no_grounding_filter',
      ].map((id) => outcome(inventory, id)),
    ).toEqual([[weak], [weak], [weak]]);
    expect(outcome(inventory, 'exposure.bedrock_agent_without_guardrail')).toEqual([`AGENTLOOSEAGENT@${REGION}`]);
    expect(ok(inventory.bedrockAgents).agents.map((a) => [a.name, a.roleArn])).toEqual([
      ['loose-agent', `arn:aws:iam::${customer.accountId}:role/agent-admin`],
      ['guarded-agent', `arn:aws:iam::${customer.accountId}:role/agent-admin`],
      ['guarded-helper', `arn:aws:iam::${customer.accountId}:role/agent-helper`],
    ]);
    for (const id of ['iam.bedrock_agent_role_privileged', 'iam.bedrock_agent_role_shared'])
      expect([id, outcome(inventory, id)]).toEqual([id, [`AGENTGUARDEDAGE@${REGION}`, `AGENTLOOSEAGENT@${REGION}`]]);
    expect(outcome(inventory, 'exposure.bedrock_knowledge_base_not_cmk')).toEqual([`KBHANDBOOK/DSPLAIN001@${REGION}`]);
    expect(ok(inventory.bedrockApiKeys).keys.map((k) => [k.id, k.userName, k.expiresAt])).toEqual([
      ['ACCANEVEREXPIRES0001', 'alice', null],
      ['ACCAEXPIREDKEY000001', 'bob', '2026-01-01T00:00:00.000Z'],
    ]);
    expect(outcome(inventory, 'iam.bedrock_long_term_api_key')).toEqual(['ACCANEVEREXPIRES0001@global']);
    // Bedrock API keys are listed for every user at once, not user by user.
    expect(
      suite.front.requests
        .filter((r) => r.operation === 'ListServiceSpecificCredentials')
        .map((r) => Object.fromEntries(new URLSearchParams(r.body))),
    ).toEqual([expect.objectContaining({ AllUsers: 'true', ServiceName: 'bedrock.amazonaws.com' })]);
    for (const part of ['bedrockCustomModels', 'bedrockGuardrails', 'bedrockAgents', 'bedrockApiKeys'] as const)
      expect(inventory[part].unread).toBeUndefined();
  });

  it('leaves unread a model, a guardrail and an agent AWS refuses to describe, a log group it hides and a region an SCP denies', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await logTo(customer, REGION, 'hidden-invocations');
    const hidden = await customModel(customer, REGION, 'hidden-model');
    const plain = await customModel(customer, REGION, 'plain-model');
    await customModel(customer, OTHER_REGION, 'denied-model');
    await createSentinelRole({ customer, externalId: target.externalId });
    const gaps = answerGaps(customer, { agents: ['loose-agent', 'hidden-agent'] });
    suite.front.answer = (request) => {
      if (request.service === 'bedrock' && request.path === '/custom-models/hidden-model') return accessDenied(request);
      // Its role is what the agent checks judge: refused, the agent is unread rather than passed.
      if (request.service === 'bedrock' && /^\/agents\/AGENTHIDDENAGEN\/?$/.test(request.path))
        return accessDenied(request);
      if (request.service === 'bedrock' && request.path === '/guardrails/gr-weak') return accessDenied(request);
      if (request.service === 'logs' && request.operation === 'DescribeLogGroups' && request.region === REGION)
        return accessDenied(request);
      if (request.service === 'bedrock' && request.region === OTHER_REGION) return accessDenied(request);
      return gaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.bedrockCustomModels).models.map((m) => m.arn)).toEqual([plain]);
    expect(inventory.bedrockCustomModels.unread).toEqual([
      {
        kind: 'region',
        scope: OTHER_REGION,
        reason: expect.stringMatching(/^AWS denied Sentinel's role Bedrock ListCustomModels/),
      },
      {
        kind: 'resource',
        scope: hidden,
        reason: expect.stringMatching(/^AWS denied Sentinel's role Bedrock GetCustomModel/),
      },
    ]);
    expect(ok(inventory.bedrockGuardrails).guardrails.map((g) => g.name)).toEqual(['gr-strong']);
    expect(inventory.bedrockGuardrails.unread?.map((u) => u.scope)).toEqual([
      OTHER_REGION,
      `arn:aws:bedrock:${REGION}:${customer.accountId}:guardrail/gr-weak`,
    ]);
    expect(inventory.bedrockInvocationLogging.unread?.map((u) => u.scope)).toEqual([
      OTHER_REGION,
      `hidden-invocations@${REGION}`,
    ]);
    expect(
      checkById('exposure.bedrock_guardrail_no_prompt_attack_filter')!.evaluate(inventory, {
        now: inventory.collectedAt,
      }),
    ).toMatchObject({
      status: 'pass',
      unread: [{ scope: OTHER_REGION }, { scope: expect.stringContaining('gr-weak') }],
    });
    expect(ok(inventory.bedrockAgents).agents.map((a) => a.name)).toEqual(['loose-agent']);
    expect(inventory.bedrockAgents.unread).toEqual([
      expect.objectContaining({ kind: 'region', scope: OTHER_REGION }),
      {
        kind: 'resource',
        scope: 'AGENTHIDDENAGEN',
        reason: expect.stringMatching(/^AWS denied Sentinel's role BedrockAgent GetAgent/),
      },
    ]);
    expect(
      checkById('iam.bedrock_agent_role_shared')!.evaluate(inventory, { now: inventory.collectedAt }),
    ).toMatchObject({ status: 'pass', unread: [{ scope: OTHER_REGION }, { scope: 'AGENTHIDDENAGEN' }] });
  });

  it('follows the pages of the custom model, agent and API key lists', async () => {
    const { customer, target } = await suite.connectedCustomer();
    for (const name of ['model-a', 'model-b', 'model-c']) await customModel(customer, REGION, name);
    await createSentinelRole({ customer, externalId: target.externalId });
    const gaps = answerGaps(customer, {
      keys: ['KEY1', 'KEY2', 'KEY3'].map((id) => ({ id: `ACCA${id}0000000000000`, user: 'carol' })),
      perPage: 2,
      agents: ['agent-a', 'guarded-agent-b'],
      agentsPerPage: 1,
    });
    inTwoPages(suite, {
      is: (r) => r.service === 'bedrock' && r.method === 'GET' && r.path === '/custom-models',
      items: 'modelSummaries',
      token: 'nextToken',
      rewrite: asAwsModels,
    });
    const models = suite.front.answer;
    suite.front.answer = (r) => (r.service === 'bedrock' && r.path === '/custom-models' ? models(r) : gaps(r));

    const inventory = await suite.provider.collectInventory(target);

    expect(
      ok(inventory.bedrockCustomModels)
        .models.map((m) => m.name)
        .sort(),
    ).toEqual(['model-a', 'model-b', 'model-c']);
    expect(
      ok(inventory.bedrockAgents)
        .agents.map((a) => [a.name, a.guardrailId])
        .sort(),
    ).toEqual([
      ['agent-a', null],
      ['guarded-agent-b', 'gr-strong'],
    ]);
    expect(ok(inventory.bedrockApiKeys).keys).toHaveLength(3);
    const calls = (is: (r: AwsRequest) => boolean) => suite.front.requests.filter((r) => is(r)).length;
    expect(calls((r) => r.region === REGION && r.path === '/custom-models')).toBe(2);
    expect(calls((r) => r.region === REGION && r.path === '/agents/')).toBe(2);
    expect(calls((r) => r.operation === 'ListServiceSpecificCredentials')).toBe(2);
  });

  it('reads a region where AWS does not offer Bedrock or SageMaker as empty: their endpoint name does not resolve', async () => {
    // The real SDK against an endpoint whose name does not resolve, as bedrock.REGION.amazonaws.com does not where
    // AWS has not launched Bedrock (.invalid names never resolve).
    const session = openSession({
      credentials: async () => TEST_CREDENTIALS,
      endpointUrl: 'https://bedrock.nowhere.invalid',
      accountId: '111122223333',
      roleName: 'SentinelRole',
      maxAttempts: 1,
    });
    const regional = (part: AnyReader) => {
      if (part.scope !== 'regional') throw new Error('a regional part');
      return part.reader;
    };
    try {
      const ctx = { session, now: new Date(), shared: sharedReads() };
      const slices = await Promise.all(
        [
          bedrockInvocationLoggingPart,
          bedrockCustomModelsPart,
          bedrockGuardrailsPart,
          bedrockAgentsPart,
          sagemakerNotebooksPart,
        ].map(async (part) => {
          const reader = regional(part);
          const slice = await reader.read(ctx, 'ap-east-2');
          return { part: reader.part, value: reader.assemble([slice]), unread: reader.unreadIn?.(slice) ?? [] };
        }),
      );
      expect(slices).toEqual([
        { part: 'bedrockInvocationLogging', value: { regions: [] }, unread: [] },
        { part: 'bedrockCustomModels', value: { models: [] }, unread: [] },
        { part: 'bedrockGuardrails', value: { guardrails: [] }, unread: [] },
        { part: 'bedrockAgents', value: { agents: [], dataSources: [] }, unread: [] },
        { part: 'sagemakerNotebooks', value: { notebooks: [] }, unread: [] },
      ]);
      // The global part is not read region by region.
      expect(bedrockApiKeysPart.scope).toBe('global');
    } finally {
      session.close();
    }
  });
});
