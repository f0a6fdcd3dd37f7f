import {
  type ContainerDefinition,
  ECSClient,
  RegisterTaskDefinitionCommand,
  type RegisterTaskDefinitionCommandInput,
} from '@aws-sdk/client-ecs';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import {
  type AwsRequest,
  accessDenied,
  type CustomerAccount,
  createSentinelRole,
  customerConfig,
  motoDifferences,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';
import { inTwoPages } from '../helpers/pages';

// ECS task definitions against moto: the latest ACTIVE revision of each family is read, its containers'
// environment searched for secrets at collection time (only the kind and variable name enter the inventory), and
// its isolation and logging settings judged.

const ECS_CHECKS = [
  'exposure.ecs_secrets_in_environment',
  'exposure.ecs_privileged_container',
  'exposure.ecs_host_network_root',
  'exposure.ecs_host_namespace_shared',
  'exposure.ecs_writable_root_filesystem',
  'detection.ecs_container_logging_off',
];
const OTHER_REGION = 'eu-west-1';
const FAKE_GITHUB_TOKEN = `ghp_${'Zx9Qw7Er5Ty3Ui1Op8As6Df4Gh2Jk0LmNbVcXz'.slice(0, 36)}`;

function outcomes(inventory: Inventory): Record<string, string | string[]> {
  return Object.fromEntries(
    ECS_CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [id, result.status === 'fail' ? result.resources.map((r) => r.resource).sort() : result.status];
    }),
  );
}

const isEcs = (operation: string) => (r: AwsRequest) => r.service === 'ecs' && r.operation === operation;

/** A container as a careful team writes it: unprivileged, read-only root, a user, logs. */
const careful = (name: string): ContainerDefinition => ({
  name,
  image: 'public.ecr.aws/nginx/nginx:latest',
  memory: 256,
  privileged: false,
  readonlyRootFilesystem: true,
  user: '1000',
  logConfiguration: { logDriver: 'awslogs', options: { 'awslogs-group': `/ecs/${name}` } },
  environment: [{ name: 'LOG_LEVEL', value: 'info' }],
});

describe('ECS task definition collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  async function register(
    customer: CustomerAccount,
    region: string,
    input: Omit<RegisterTaskDefinitionCommandInput, 'containerDefinitions'> & { containers: ContainerDefinition[] },
  ): Promise<string> {
    const { containers, ...rest } = input;
    const { taskDefinition } = await client(new ECSClient(customerConfig(customer, region))).send(
      new RegisterTaskDefinitionCommand({ ...rest, containerDefinitions: containers }),
    );
    return taskDefinition?.taskDefinitionArn as string;
  }

  const collect = (target: Parameters<typeof suite.provider.collectInventory>[0]) =>
    suite.provider.collectInventory(target, { parts: ['ecsTaskDefinitions'] });

  it('reads the latest revision of each family, finds its secrets and unsafe settings, and keeps no secret', async () => {
    const { customer, target } = await suite.connectedCustomer();
    // The first revision was unsafe; only the latest counts.
    await register(customer, REGION, {
      family: 'web',
      containers: [{ ...careful('web'), privileged: true }],
    });
    const web = await register(customer, REGION, {
      family: 'web',
      networkMode: 'awsvpc',
      containers: [careful('web')],
    });
    const worker = await register(customer, REGION, {
      family: 'worker',
      networkMode: 'host',
      pidMode: 'host',
      containers: [
        {
          ...careful('worker'),
          privileged: true,
          readonlyRootFilesystem: false,
          user: undefined,
          logConfiguration: undefined,
          environment: [
            { name: 'GITHUB_TOKEN', value: FAKE_GITHUB_TOKEN },
            { name: 'QUEUE_URL', value: 'https://sqs.us-east-1.amazonaws.com/123456789012/jobs' },
          ],
        },
        // Root on the host network, not privileged.
        { ...careful('sidecar'), user: 'root' },
      ],
    });
    const api = await register(customer, OTHER_REGION, {
      family: 'api',
      networkMode: 'awsvpc',
      containers: [careful('api')],
    });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await collect(target);

    const definitions = ok(inventory.ecsTaskDefinitions).taskDefinitions.sort((a, b) =>
      a.family.localeCompare(b.family),
    );
    expect(definitions.map((td) => `${td.family}:${td.revision}@${td.region}`)).toEqual([
      `api:1@${OTHER_REGION}`,
      `web:2@${REGION}`,
      `worker:1@${REGION}`,
    ]);
    expect(definitions[2]).toEqual({
      family: 'worker',
      revision: 1,
      arn: worker,
      region: REGION,
      networkMode: 'host',
      pidMode: 'host',
      ipcMode: null,
      containers: [
        {
          name: 'worker',
          privileged: true,
          readonlyRootFilesystem: false,
          user: null,
          logDriver: null,
          environmentSecrets: [{ name: 'GITHUB_TOKEN', kind: 'github_token' }],
        },
        {
          name: 'sidecar',
          privileged: false,
          readonlyRootFilesystem: true,
          user: 'root',
          logDriver: 'awslogs',
          environmentSecrets: [],
        },
      ],
    });
    expect(outcomes(inventory)).toEqual(Object.fromEntries(ECS_CHECKS.map((id) => [id, [worker]])));
    expect(JSON.stringify(inventory)).not.toContain(FAKE_GITHUB_TOKEN);
    expect([web, api].every((arn) => definitions.some((td) => td.arn === arn))).toBe(true);
  });

  it('passes careful task definitions', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await register(customer, REGION, { family: 'web', networkMode: 'awsvpc', containers: [careful('web')] });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await collect(target);

    expect(Object.values(outcomes(inventory))).toEqual(ECS_CHECKS.map(() => 'pass'));
    expect(inventory.ecsTaskDefinitions.unread).toBeUndefined();
  });

  it('leaves unread a definition and a region AWS refuses, never clean', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const hidden = await register(customer, REGION, {
      family: 'hidden',
      containers: [{ ...careful('hidden'), privileged: true }],
    });
    await register(customer, REGION, { family: 'web', networkMode: 'awsvpc', containers: [careful('web')] });
    await register(customer, 'eu-west-2', { family: 'far', containers: [{ ...careful('far'), privileged: true }] });
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => {
      if (isEcs('DescribeTaskDefinition')(request) && request.body.includes('hidden')) return accessDenied(request);
      if (request.service === 'ecs' && request.region === 'eu-west-2') return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await collect(target);

    expect(ok(inventory.ecsTaskDefinitions).taskDefinitions.map((td) => td.family)).toEqual(['web']);
    expect(inventory.ecsTaskDefinitions.unread).toEqual([
      {
        kind: 'region',
        scope: 'eu-west-2',
        reason: expect.stringMatching(/^AWS denied Sentinel's role ECS ListTaskDefinitions \(AccessDenied\)/),
      },
      {
        kind: 'resource',
        scope: hidden,
        reason: expect.stringMatching(/^AWS denied Sentinel's role ECS DescribeTaskDefinition \(AccessDenied\)/),
      },
    ]);
    const privileged = checkById('exposure.ecs_privileged_container')!.evaluate(inventory, {
      now: inventory.collectedAt,
    });
    expect(privileged.status).toBe('pass');
    expect(privileged.unread?.map((u) => u.scope)).toEqual(['eu-west-2', hidden]);
  });

  it('reads every page of task definitions', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const families = ['a', 'b', 'c', 'd', 'e'];
    for (const family of families)
      await register(customer, REGION, { family, networkMode: 'awsvpc', containers: [careful(family)] });
    await createSentinelRole({ customer, externalId: target.externalId });
    // moto answers ListTaskDefinitions in one page: the front splits it.
    const pages = inTwoPages({
      matches: isEcs('ListTaskDefinitions'),
      items: 'taskDefinitionArns',
      tokenIn: { body: 'nextToken' },
      tokenOut: 'nextToken',
    });
    suite.front.rewrite = (request, answer) => pages(request, answer) ?? motoDifferences(request, answer);

    const inventory = await collect(target);

    expect(
      ok(inventory.ecsTaskDefinitions)
        .taskDefinitions.map((td) => td.family)
        .sort(),
    ).toEqual(families);
    expect(suite.front.requests.filter((r) => isEcs('ListTaskDefinitions')(r) && r.region === REGION)).toHaveLength(2);
  });
});
