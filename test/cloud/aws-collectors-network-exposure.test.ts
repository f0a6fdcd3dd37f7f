import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  DescribeSubnetsCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import { accessDenied, createSentinelRole, customerConfig, motoGaps, REGION } from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// What the internet reaches on EC2, end to end: instances launched in moto with and without a public address, in
// security groups that open a service's ports to everyone, collected through Sentinel's role and judged by the
// instance and group checks.

const AMI = 'ami-12c6146b';

/** A check's failing resources in the test region, 'pass' without any, or 'not_evaluated'. */
function failingHere(inventory: Inventory, checkId: string): string[] | 'pass' | 'not_evaluated' {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  if (result.status !== 'fail') return result.status;
  const here = result.resources.filter((r) => r.region === REGION).map((r) => r.resource);
  return here.length > 0 ? here.sort() : 'pass';
}

describe('EC2 network exposure collection against moto', () => {
  const suite = useCollectorSuite();

  async function seeded() {
    const { customer, target } = await suite.connectedCustomer();
    const ec2 = suite.client(new EC2Client(customerConfig(customer)));
    const group = async (name: string, ports: number[]) => {
      const { GroupId } = await ec2.send(new CreateSecurityGroupCommand({ GroupName: name, Description: name }));
      await ec2.send(
        new AuthorizeSecurityGroupIngressCommand({
          GroupId,
          IpPermissions: ports.map((port) => ({
            IpProtocol: 'tcp',
            FromPort: port,
            ToPort: port,
            IpRanges: [{ CidrIp: '0.0.0.0/0' }],
          })),
        }),
      );
      return GroupId!;
    };
    // The default VPC's subnets give instances a public address, as AWS's do; an interface without one keeps it private.
    const { Subnets = [] } = await ec2.send(
      new DescribeSubnetsCommand({ Filters: [{ Name: 'default-for-az', Values: ['true'] }] }),
    );
    const subnet = Subnets[0]!.SubnetId!;
    const launch = async (groups: string[], publicAddress: boolean) =>
      (
        await ec2.send(
          new RunInstancesCommand({
            ImageId: AMI,
            InstanceType: 't3.micro',
            MinCount: 1,
            MaxCount: 1,
            NetworkInterfaces: [
              { DeviceIndex: 0, SubnetId: subnet, Groups: groups, AssociatePublicIpAddress: publicAddress },
            ],
          }),
        )
      ).Instances![0]!.InstanceId!;
    return { customer, target, ec2, group, launch };
  }

  it('finds a public database server, and neither a private one in the same group nor a public web server', async () => {
    const { customer, target, group, launch } = await seeded();
    const postgres = await group('postgres-contractor', [5432]);
    const web = await group('web', [443]);
    const exposed = await launch([postgres], true);
    const internal = await launch([postgres], false);
    const frontend = await launch([web], true);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    const instances = new Map(ok(inventory.instances).instances.map((i) => [i.id, i]));
    expect(instances.get(exposed)).toMatchObject({
      publicIp: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      securityGroupIds: [postgres],
    });
    expect(instances.get(internal)).toMatchObject({ publicIp: null, securityGroupIds: [postgres] });
    expect(instances.get(frontend)).toMatchObject({ securityGroupIds: [web] });
    expect(failingHere(inventory, 'exposure.instance_postgresql_exposed')).toEqual([exposed]);
    expect(failingHere(inventory, 'exposure.sg_postgresql_open')).toEqual([postgres]);
    expect(failingHere(inventory, 'exposure.instance_ssh_exposed')).toBe('pass');
    expect(failingHere(inventory, 'exposure.sg_unauthorized_port_open')).toEqual([postgres]);
    // The addresses and groups come with DescribeInstances, already read for the instances.
    expect(
      new Set(suite.front.requests.filter((r) => r.service === 'ec2' && r.region === REGION).map((r) => r.operation)),
    ).not.toContain('DescribeNetworkInterfaces');
  });

  it('leaves a public instance unread where its security groups are refused, and judges the other regions', async () => {
    const { customer, target, group, launch } = await seeded();
    const redis = await group('redis', [6379]);
    const exposed = await launch([redis], true);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) =>
      request.service === 'ec2' && request.operation === 'DescribeSecurityGroups' && request.region === REGION
        ? accessDenied(request)
        : motoGaps(request);

    const inventory = await suite.provider.collectInventory(target);

    const result = checkById('exposure.instance_redis_exposed')!.evaluate(inventory, { now: inventory.collectedAt });
    expect(result.status).toBe('pass');
    expect(result.unread).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'resource', scope: exposed }),
        expect.objectContaining({
          kind: 'region',
          scope: REGION,
          reason: expect.stringMatching(/^AWS denied Sentinel's role EC2 DescribeSecurityGroups/),
        }),
      ]),
    );
  });
});
