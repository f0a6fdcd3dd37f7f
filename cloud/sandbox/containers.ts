import type { Collected, Inventory, Unread } from '../../domain/scans/inventory';

// The sandbox account's containers, machine learning and generative AI: an EKS cluster, an ECS service, a
// SageMaker notebook, training job and model, and Bedrock (invocation logging, a custom model, a guardrail, an
// agent with a knowledge base, API keys), in its home region. Each account's seed decides what it has and which
// of it is misconfigured, so the demo estate shows these checks failing on some accounts and passing on others.

type Random = () => number;
type Parts = Pick<
  Inventory,
  | 'bedrockInvocationLogging'
  | 'bedrockCustomModels'
  | 'bedrockGuardrails'
  | 'bedrockAgents'
  | 'bedrockApiKeys'
  | 'sagemakerNotebooks'
  | 'sagemakerTrainingJobs'
  | 'sagemakerModels'
  | 'eksClusters'
  | 'ecsServices'
>;

const DAY_MS = 86_400_000;

export function sandboxContainers({
  accountId,
  at,
  home,
  regions,
  random,
  neglect,
  user,
  readable,
  regional,
}: {
  accountId: string;
  at: Date;
  /** The account's home region, where its workloads run. */
  home: string;
  /** The enabled regions Sentinel could read. */
  regions: string[];
  /** The account's own stream of draws for these parts. */
  random: Random;
  /** The multiplier on each issue's odds (cloud/sandbox/upkeep.ts): how neglected the account is. */
  neglect: number;
  /** An IAM user of the account, who may hold a Bedrock API key. */
  user: string;
  readable: <T extends { region: string }>(items: T[]) => T[];
  /** The unread regions of a regional part, refusing `call`. */
  regional: (call: string) => Unread[];
}): Parts {
  /** What the account has: drawn at the odds given. */
  const chance = (p: number) => random() < p;
  /** A misconfiguration: drawn at the odds given for a neglected account. */
  const issue = (p: number) => random() < p * neglect;
  const ok = <T>(value: T, unread: Unread[]): Collected<T> =>
    unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };
  const arn = (service: string, resource: string) => `arn:aws:${service}:${home}:${accountId}:${resource}`;
  const ago = (days: number) => new Date(at.getTime() - days * DAY_MS).toISOString();
  const key = (name: string) => arn('kms', `key/${name}`);

  // Invocation logging everywhere (an organization-wide setup), in the home region only, or nowhere.
  const logging = random();
  const everywhere = logging >= 0.7 * neglect;
  const homeOnly = !everywhere && logging >= 0.3 * neglect;
  const logGroup = { name: 'bedrock-invocations', kmsKeyId: issue(0.4) ? null : key('bedrock-logs') };
  const bedrockRegions = regions.map((region) => ({
    region,
    destination:
      everywhere || (homeOnly && region === home) ? { s3Bucket: `${accountId}-bedrock-logs`, logGroup } : null,
  }));
  const guardrail = {
    id: 'gr0support1',
    arn: arn('bedrock', 'guardrail/gr0support1'),
    name: 'support-assistant',
    region: home,
    promptAttackStrength: issue(0.4) ? 'MEDIUM' : 'HIGH',
    sensitiveInformation: !issue(0.3),
    groundingFilters: !issue(0.5)
      ? [
          { type: 'GROUNDING', threshold: 0.7, action: 'BLOCK', enabled: true },
          { type: 'RELEVANCE', threshold: 0.7, action: 'BLOCK', enabled: true },
        ]
      : [],
  };
  // The agents' role: their own, or (given to get a demo working) the account's administrator role.
  const agentRole = `arn:aws:iam::${accountId}:role/${issue(0.3) ? 'OrganizationAccountAccessRole' : 'bedrock-agent-support'}`;
  const salesAgent = issue(0.3);
  const notebook = chance(0.6);
  const cluster = chance(0.6);
  const service = chance(0.7);
  const publicTasks = issue(0.4);

  return {
    bedrockInvocationLogging: ok(
      { regions: readable(bedrockRegions) },
      regional('Bedrock GetModelInvocationLoggingConfiguration'),
    ),
    bedrockCustomModels: ok(
      {
        models: readable(
          chance(0.5)
            ? [
                {
                  name: 'support-tuned',
                  arn: arn('bedrock', 'custom-model/support-tuned'),
                  region: home,
                  kmsKeyArn: issue(0.5) ? null : key('bedrock-models'),
                },
              ]
            : [],
        ),
      },
      regional('Bedrock ListCustomModels'),
    ),
    bedrockGuardrails: ok({ guardrails: readable([guardrail]) }, regional('Bedrock ListGuardrails')),
    bedrockAgents: ok(
      {
        agents: readable([
          {
            id: 'AGENT0SUPP',
            name: 'support-agent',
            region: home,
            guardrailId: issue(0.4) ? null : guardrail.id,
            roleArn: agentRole,
          },
          // A second agent set up by copying the first, its role and all.
          ...(salesAgent
            ? [{ id: 'AGENT0SALE', name: 'sales-agent', region: home, guardrailId: guardrail.id, roleArn: agentRole }]
            : []),
        ]),
        dataSources: readable([
          {
            id: 'DS0HANDBK1',
            name: 'handbook',
            knowledgeBaseId: 'KB0SUPPORT',
            knowledgeBaseName: 'support-kb',
            region: home,
            kmsKeyArn: issue(0.5) ? null : key('bedrock-kb'),
          },
        ]),
      },
      regional('Bedrock Agents ListAgents'),
    ),
    bedrockApiKeys: ok(
      {
        // A key that never expires, or one tried out and left to expire.
        keys: chance(0.6)
          ? [
              issue(0.6)
                ? {
                    id: `ACCA${accountId.slice(0, 8)}BEDROCK`,
                    userName: user,
                    status: 'Active' as const,
                    createdAt: ago(20),
                    expiresAt: null,
                  }
                : {
                    id: `ACCA${accountId.slice(0, 8)}TRIALKEY`,
                    userName: user,
                    status: 'Expired' as const,
                    createdAt: ago(40),
                    expiresAt: ago(10),
                  },
            ]
          : [],
      },
      [],
    ),
    sagemakerNotebooks: ok(
      {
        notebooks: readable(
          notebook
            ? [
                {
                  name: 'research',
                  arn: arn('sagemaker', 'notebook-instance/research'),
                  region: home,
                  status: 'InService',
                  directInternetAccess: issue(0.5),
                  rootAccess: issue(0.5),
                  kmsKeyId: issue(0.5) ? null : key('notebooks'),
                  subnetId: issue(0.4) ? null : 'subnet-0a1b2c3d4e5f60718',
                  // A setup script that exports the warehouse password (line 4), on some neglected accounts.
                  lifecycleSecrets: issue(0.2)
                    ? [{ config: 'research-setup', script: 'OnStart' as const, line: 4, kind: 'named_secret' as const }]
                    : [],
                },
              ]
            : [],
        ),
      },
      regional('SageMaker ListNotebookInstances'),
    ),
    sagemakerTrainingJobs: ok(
      {
        jobs: readable(
          notebook
            ? [
                {
                  name: 'churn-model',
                  arn: arn('sagemaker', 'training-job/churn-model'),
                  region: home,
                  createdAt: ago(4),
                  networkIsolation: !issue(0.5),
                  volumeKmsKeyId: issue(0.6) ? null : key('training'),
                  outputKmsKeyId: issue(0.5) ? null : key('training'),
                  subnets: issue(0.5) ? [] : ['subnet-0a1b2c3d4e5f60718'],
                },
              ]
            : [],
        ),
      },
      regional('SageMaker ListTrainingJobs'),
    ),
    sagemakerModels: ok(
      {
        models: readable(
          notebook
            ? [{ name: 'churn', arn: arn('sagemaker', 'model/churn'), region: home, networkIsolation: !issue(0.5) }]
            : [],
        ),
      },
      regional('SageMaker ListModels'),
    ),
    eksClusters: ok(
      {
        clusters: readable(
          cluster
            ? [
                {
                  name: 'platform',
                  arn: arn('eks', 'cluster/platform'),
                  region: home,
                  ...(!issue(0.3)
                    ? { version: '1.33', versionStatus: 'STANDARD_SUPPORT' }
                    : { version: '1.30', versionStatus: 'EXTENDED_SUPPORT' }),
                  endpointPublicAccess: true,
                  publicAccessCidrs: issue(0.5) ? ['0.0.0.0/0'] : ['198.51.100.0/24'],
                  endpointPrivateAccess: !issue(0.3),
                  enabledLogTypes: issue(0.5) ? [] : ['api', 'audit', 'authenticator'],
                  secretsEncrypted: !issue(0.4),
                  deletionProtection: !issue(0.6),
                },
              ]
            : [],
        ),
      },
      regional('EKS ListClusters'),
    ),
    ecsServices: ok(
      {
        services: readable(
          service
            ? [
                {
                  name: 'web',
                  arn: arn('ecs', 'service/apps/web'),
                  cluster: arn('ecs', 'cluster/apps'),
                  region: home,
                  assignPublicIp: publicTasks,
                },
              ]
            : [],
        ),
        taskSets: readable(
          service && chance(0.5)
            ? [
                {
                  id: 'ecs-svc/4728374623749223847',
                  arn: arn('ecs', 'task-set/apps/web/ecs-svc/4728374623749223847'),
                  service: arn('ecs', 'service/apps/web'),
                  region: home,
                  assignPublicIp: publicTasks,
                },
              ]
            : [],
        ),
      },
      regional('ECS ListClusters'),
    ),
  };
}
