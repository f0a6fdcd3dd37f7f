import {
  CreateClusterCommand as CreateEcsClusterCommand,
  CreateServiceCommand,
  CreateTaskSetCommand,
  ECSClient,
  RegisterTaskDefinitionCommand,
} from '@aws-sdk/client-ecs';
import { DescribeSecurityGroupsCommand, DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateClusterCommand, EKSClient } from '@aws-sdk/client-eks';
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
} from '../helpers/aws';
import { inTwoPages, ok, useCollectorSuite } from '../helpers/collector-suite';

// The EKS and ECS parts end to end: a customer account seeded in moto through the SDK, connected with the real CLI
// script, collected through the front and evaluated by the checks. moto 5.2 does not report an EKS cluster's
// deletion protection, which AWS reports for every cluster: the front adds it to moto's DescribeCluster answer
// (false unless the cluster is tagged deletion-protection=true), in AWS's shape. It lacks DescribeClusterVersions,
// which test/helpers/aws.ts answers (motoGaps).

const OTHER_REGION = 'eu-west-1';
const ROLE = 'arn:aws:iam::123456789012:role/eks-cluster';

/** The failing resources of a check, as `resource@region`, or its status when it does not fail. */
function outcome(inventory: Inventory, checkId: string): string[] | string {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  return result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region}`).sort() : result.status;
}

/** AWS reports deletionProtection on every cluster; moto does not: added here from the cluster's tag. */
function withDeletionProtection(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  if (request.service !== 'eks' || request.method !== 'GET' || !/^\/clusters\/[^/]+$/.test(request.path))
    return motoDifferences(request, answer);
  const body = JSON.parse(answer.body) as { cluster?: { tags?: Record<string, string> } };
  if (!body.cluster) return undefined;
  const deletionProtection = body.cluster.tags?.['deletion-protection'] === 'true';
  return { ...answer, body: JSON.stringify({ ...body, cluster: { ...body.cluster, deletionProtection } }) };
}

describe('EKS and ECS collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  beforeEach(() => {
    suite.front.rewrite = withDeletionProtection;
  });

  const cluster = (
    customer: CustomerAccount,
    region: string,
    name: string,
    setup: {
      open: boolean;
      privateAccess: boolean;
      audit: boolean;
      secrets: boolean;
      protected: boolean;
      version: string;
    },
  ) =>
    client(new EKSClient(customerConfig(customer, region))).send(
      new CreateClusterCommand({
        name,
        version: setup.version,
        roleArn: ROLE,
        resourcesVpcConfig: {
          subnetIds: ['subnet-0a1b2c3d'],
          endpointPublicAccess: true,
          endpointPrivateAccess: setup.privateAccess,
          publicAccessCidrs: setup.open ? ['0.0.0.0/0'] : ['203.0.113.0/24'],
        },
        logging: { clusterLogging: [{ types: setup.audit ? ['api', 'audit'] : ['api'], enabled: true }] },
        encryptionConfig: setup.secrets
          ? [{ resources: ['secrets'], provider: { keyArn: `arn:aws:kms:${region}:${customer.accountId}:key/k8s` } }]
          : undefined,
        tags: setup.protected ? { 'deletion-protection': 'true' } : undefined,
      }),
    );

  /** An ECS service in the region's default VPC, its tasks given a public IP or not. */
  async function service(
    customer: CustomerAccount,
    region: string,
    name: string,
    { publicIp, external = false }: { publicIp: boolean; external?: boolean },
  ) {
    const ec2 = client(new EC2Client(customerConfig(customer, region)));
    const { Subnets = [] } = await ec2.send(new DescribeSubnetsCommand({}));
    const { SecurityGroups = [] } = await ec2.send(new DescribeSecurityGroupsCommand({}));
    const network = {
      awsvpcConfiguration: {
        subnets: [Subnets[0]!.SubnetId!],
        securityGroups: [SecurityGroups[0]!.GroupId!],
        assignPublicIp: publicIp ? ('ENABLED' as const) : ('DISABLED' as const),
      },
    };
    const ecs = client(new ECSClient(customerConfig(customer, region)));
    await ecs.send(new CreateEcsClusterCommand({ clusterName: 'apps' }));
    const { taskDefinition } = await ecs.send(
      new RegisterTaskDefinitionCommand({
        family: 'web',
        networkMode: 'awsvpc',
        containerDefinitions: [{ name: 'web', image: 'nginx', memory: 256 }],
      }),
    );
    const { service: created } = await ecs.send(
      new CreateServiceCommand({
        cluster: 'apps',
        serviceName: name,
        taskDefinition: taskDefinition!.taskDefinitionArn,
        desiredCount: 1,
        networkConfiguration: external ? undefined : network,
        deploymentController: external ? { type: 'EXTERNAL' } : undefined,
      }),
    );
    if (!external) return { service: created!.serviceArn!, taskSet: undefined };
    const { taskSet } = await ecs.send(
      new CreateTaskSetCommand({
        cluster: 'apps',
        service: name,
        taskDefinition: taskDefinition!.taskDefinitionArn,
        networkConfiguration: network,
      }),
    );
    return { service: created!.serviceArn!, taskSet: taskSet!.taskSetArn! };
  }

  it('finds an open, unprotected, unlogged, old cluster and services that give tasks public IPs, and passes the rest', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const open = await cluster(customer, REGION, 'legacy', {
      open: true,
      privateAccess: false,
      audit: false,
      secrets: false,
      protected: false,
      version: '1.30',
    });
    await cluster(customer, OTHER_REGION, 'prod', {
      open: false,
      privateAccess: true,
      audit: true,
      secrets: true,
      protected: true,
      version: '1.33',
    });
    const exposed = await service(customer, REGION, 'public-web', { publicIp: true });
    await service(customer, OTHER_REGION, 'private-web', { publicIp: false });
    const deployed = await service(customer, REGION, 'canary', { publicIp: true, external: true });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    const legacy = open.cluster!.arn!;
    expect(ok(inventory.eksClusters).clusters.find((c) => c.name === 'legacy')).toEqual({
      name: 'legacy',
      arn: legacy,
      region: REGION,
      version: '1.30',
      versionStatus: 'EXTENDED_SUPPORT',
      endpointPublicAccess: true,
      publicAccessCidrs: ['0.0.0.0/0'],
      endpointPrivateAccess: false,
      enabledLogTypes: ['api'],
      secretsEncrypted: false,
      deletionProtection: false,
    });
    const eks = [
      'exposure.eks_endpoint_public',
      'exposure.eks_private_endpoint_off',
      'exposure.eks_deletion_protection_off',
      'exposure.eks_unsupported_version',
      'detection.eks_audit_logging_off',
      'exposure.eks_secrets_not_encrypted',
    ];
    expect(eks.map((id) => outcome(inventory, id))).toEqual(eks.map(() => [`${legacy}@${REGION}`]));
    expect(
      ok(inventory.ecsServices)
        .services.map((s) => [s.name, s.region, s.assignPublicIp])
        .sort(),
    ).toEqual([
      ['canary', REGION, false],
      ['private-web', OTHER_REGION, false],
      ['public-web', REGION, true],
    ]);
    expect(outcome(inventory, 'exposure.ecs_service_public_ip')).toEqual([`${exposed.service}@${REGION}`]);
    expect(outcome(inventory, 'exposure.ecs_task_set_public_ip')).toEqual([`${deployed.taskSet}@${REGION}`]);
    expect([inventory.eksClusters.unread, inventory.ecsServices.unread]).toEqual([undefined, undefined]);
  });

  it('leaves unread a cluster AWS refuses to describe, a region an SCP denies and an ECS cluster whose services it hides', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const setup = { open: true, privateAccess: true, audit: true, secrets: true, protected: true, version: '1.33' };
    await cluster(customer, REGION, 'hidden', setup);
    const visible = await cluster(customer, REGION, 'visible', { ...setup, protected: false });
    await cluster(customer, OTHER_REGION, 'denied', setup);
    await service(customer, REGION, 'web', { publicIp: true });
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => {
      if (request.service === 'eks' && request.path === '/clusters/hidden') return accessDenied(request);
      if (request.service === 'eks' && request.region === OTHER_REGION) return accessDenied(request);
      if (request.service === 'ecs' && request.operation === 'ListServices') return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.eksClusters).clusters.map((c) => c.name)).toEqual(['visible']);
    expect(inventory.eksClusters.unread).toEqual([
      {
        kind: 'region',
        scope: OTHER_REGION,
        reason: expect.stringMatching(/^AWS denied Sentinel's role EKS ListClusters/),
      },
      {
        kind: 'resource',
        scope: 'hidden',
        reason: expect.stringMatching(/^AWS denied Sentinel's role EKS DescribeCluster/),
      },
    ]);
    expect(
      checkById('exposure.eks_deletion_protection_off')!.evaluate(inventory, { now: inventory.collectedAt }),
    ).toMatchObject({
      status: 'fail',
      resources: [{ resource: visible.cluster!.arn }],
      unread: [{ scope: OTHER_REGION }, { scope: 'hidden' }],
    });
    expect(ok(inventory.ecsServices).services).toEqual([]);
    expect(inventory.ecsServices.unread).toEqual([
      {
        kind: 'resource',
        scope: `arn:aws:ecs:${REGION}:${customer.accountId}:cluster/apps`,
        reason: expect.stringMatching(/^AWS denied Sentinel's role ECS ListServices/),
      },
    ]);
    expect(
      checkById('exposure.ecs_service_public_ip')!.evaluate(inventory, { now: inventory.collectedAt }),
    ).toMatchObject({
      status: 'pass',
      unread: [{ scope: `arn:aws:ecs:${REGION}:${customer.accountId}:cluster/apps` }],
    });
  });

  it('follows the pages of EKS ListClusters and ECS ListServices, and describes ECS services ten at a time', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const setup = { open: false, privateAccess: true, audit: true, secrets: true, protected: true, version: '1.33' };
    await cluster(customer, REGION, 'first', setup);
    await cluster(customer, REGION, 'second', { ...setup, version: '1.23' });
    const names = Array.from({ length: 12 }, (_, i) => `svc-${i}`);
    for (const name of names) await service(customer, REGION, name, { publicIp: name === 'svc-11' });
    await createSentinelRole({ customer, externalId: target.externalId });
    inTwoPages(suite, {
      is: (r) =>
        (r.service === 'eks' && r.method === 'GET' && r.path === '/clusters') || r.operation === 'ListServices',
      items: 'clusters',
      token: 'nextToken',
      rewrite: withDeletionProtection,
    });
    // ListServices names its items serviceArns: a second split for it.
    const eksRewrite = suite.front.rewrite;
    const eksAnswer = suite.front.answer;
    inTwoPages(suite, { is: (r) => r.operation === 'ListServices', items: 'serviceArns', token: 'nextToken' });
    const ecsRewrite = suite.front.rewrite;
    const ecsAnswer = suite.front.answer;
    suite.front.rewrite = (r, a) => (r.service === 'ecs' ? ecsRewrite(r, a) : eksRewrite(r, a));
    suite.front.answer = (r) => (r.service === 'ecs' ? ecsAnswer(r) : eksAnswer(r));

    const inventory = await suite.provider.collectInventory(target);

    expect(
      ok(inventory.eksClusters)
        .clusters.map((c) => [c.name, c.versionStatus])
        .sort(),
    ).toEqual([
      ['first', 'STANDARD_SUPPORT'],
      ['second', 'UNSUPPORTED'],
    ]);
    expect(
      ok(inventory.ecsServices)
        .services.map((s) => s.name)
        .sort(),
    ).toEqual([...names].sort());
    expect(outcome(inventory, 'exposure.ecs_service_public_ip')).toEqual([
      `arn:aws:ecs:${REGION}:${customer.accountId}:service/apps/svc-11@${REGION}`,
    ]);
    const calls = (service: string, operation: (r: AwsRequest) => boolean) =>
      suite.front.requests.filter((r) => r.region === REGION && r.service === service && operation(r)).length;
    expect(calls('eks', (r) => r.path === '/clusters')).toBe(2);
    expect(calls('ecs', (r) => r.operation === 'ListServices')).toBe(2);
    expect(calls('ecs', (r) => r.operation === 'DescribeServices')).toBe(2);
  });
});
