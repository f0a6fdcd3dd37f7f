import {
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateInternetGatewayCommand,
  CreateNetworkAclEntryCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeNetworkAclsCommand,
  DescribeRouteTablesCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  ElasticLoadBalancingV2Client,
  RegisterTargetsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { AddRoleToInstanceProfileCommand, CreateInstanceProfileCommand, CreateRoleCommand } from '@aws-sdk/client-iam';
import { internetExposures } from '../../domain/attack-paths/reachability';
import type { PartName } from '../../domain/scans/inventory';
import { accessDenied, createSentinelRole, customerConfig, motoGaps, REGION } from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// The network topology end to end: VPCs seeded in moto through the SDK (one whose own route table sends the internet
// to its gateway, one routed through its main table whose ACL denies SSH first, one without any gateway), groups,
// instances, and an internet-facing and an internal Application Load Balancer with target groups; collected through
// Sentinel's role, then read by the internet-exposure analysis.

const AMI = 'ami-12c6146b';
/** The parts the internet-exposure analysis reads. */
const PARTS: PartName[] = [
  'networkTopology',
  'instances',
  'loadBalancers',
  'instanceProfiles',
  'rdsInstances',
  'opensearchDomains',
  'lambdaFunctions',
  'apiGatewayStages',
];

describe('Network topology collection against moto', () => {
  const suite = useCollectorSuite();

  async function seeded() {
    const { customer, target } = await suite.connectedCustomer();
    const ec2 = suite.client(new EC2Client(customerConfig(customer)));
    const elb = suite.client(new ElasticLoadBalancingV2Client(customerConfig(customer)));

    const vpc = async (cidr: string, gateway: boolean) => {
      const { Vpc } = await ec2.send(new CreateVpcCommand({ CidrBlock: cidr }));
      const vpcId = Vpc!.VpcId!;
      const { RouteTables = [] } = await ec2.send(
        new DescribeRouteTablesCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }] }),
      );
      let igw: string | undefined;
      if (gateway) {
        const { InternetGateway } = await ec2.send(new CreateInternetGatewayCommand({}));
        igw = InternetGateway!.InternetGatewayId!;
        await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }));
      }
      return { vpcId, igw, mainTable: RouteTables[0]!.RouteTableId! };
    };
    const subnet = async (vpcId: string, cidr: string, zone = 'a') =>
      (await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: cidr, AvailabilityZone: `${REGION}${zone}` })))
        .Subnet!.SubnetId!;
    const group = async (vpcId: string, name: string, permissions: { port: number; from: string }[]) => {
      const { GroupId } = await ec2.send(
        new CreateSecurityGroupCommand({ VpcId: vpcId, GroupName: name, Description: name }),
      );
      if (permissions.length > 0)
        await ec2.send(
          new AuthorizeSecurityGroupIngressCommand({
            GroupId,
            IpPermissions: permissions.map(({ port, from }) => ({
              IpProtocol: 'tcp',
              FromPort: port,
              ToPort: port,
              ...(from.startsWith('sg-')
                ? { UserIdGroupPairs: [{ GroupId: from }] }
                : { IpRanges: [{ CidrIp: from }] }),
            })),
          }),
        );
      return GroupId!;
    };
    const trust = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    };
    const { Role } = await customer.iam.send(
      new CreateRoleCommand({ RoleName: 'web', AssumeRolePolicyDocument: JSON.stringify(trust) }),
    );
    const { InstanceProfile } = await customer.iam.send(
      new CreateInstanceProfileCommand({ InstanceProfileName: 'web' }),
    );
    await customer.iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'web', RoleName: 'web' }));
    const launch = async (subnetId: string, groups: string[], publicAddress: boolean) =>
      (
        await ec2.send(
          new RunInstancesCommand({
            ImageId: AMI,
            InstanceType: 't3.micro',
            MinCount: 1,
            MaxCount: 1,
            MetadataOptions: { HttpTokens: 'optional', HttpEndpoint: 'enabled' },
            IamInstanceProfile: { Arn: InstanceProfile!.Arn! },
            NetworkInterfaces: [
              { DeviceIndex: 0, SubnetId: subnetId, Groups: groups, AssociatePublicIpAddress: publicAddress },
            ],
          }),
        )
      ).Instances![0]!.InstanceId!;
    return { customer, target, ec2, elb, vpc, subnet, group, launch, roleArn: Role!.Arn! };
  }

  it('reads routes, ACLs, groups and placements, and the analysis reaches what they let the internet reach', async () => {
    const { customer, target, ec2, elb, vpc, subnet, group, launch, roleArn } = await seeded();
    // The application VPC: two public subnets on their own table, which routes to the gateway; private ones on the
    // main table, which does not.
    const app = await vpc('10.20.0.0/16', true);
    const publicTable = (await ec2.send(new CreateRouteTableCommand({ VpcId: app.vpcId }))).RouteTable!.RouteTableId!;
    await ec2.send(
      new CreateRouteCommand({ RouteTableId: publicTable, DestinationCidrBlock: '0.0.0.0/0', GatewayId: app.igw }),
    );
    const publicA = await subnet(app.vpcId, '10.20.1.0/24', 'a');
    const publicB = await subnet(app.vpcId, '10.20.2.0/24', 'b');
    const privateA = await subnet(app.vpcId, '10.20.3.0/24', 'a');
    const privateB = await subnet(app.vpcId, '10.20.4.0/24', 'b');
    for (const id of [publicA, publicB])
      await ec2.send(new AssociateRouteTableCommand({ RouteTableId: publicTable, SubnetId: id }));
    // A legacy VPC routed to its gateway by its main table, whose default ACL denies SSH ahead of its allow-all.
    const legacy = await vpc('10.30.0.0/16', true);
    await ec2.send(
      new CreateRouteCommand({
        RouteTableId: legacy.mainTable,
        DestinationCidrBlock: '0.0.0.0/0',
        GatewayId: legacy.igw,
      }),
    );
    const legacySubnet = await subnet(legacy.vpcId, '10.30.1.0/24');
    const { NetworkAcls = [] } = await ec2.send(
      new DescribeNetworkAclsCommand({ Filters: [{ Name: 'vpc-id', Values: [legacy.vpcId] }] }),
    );
    const legacyAcl = NetworkAcls[0]!.NetworkAclId!;
    await ec2.send(
      new CreateNetworkAclEntryCommand({
        NetworkAclId: legacyAcl,
        RuleNumber: 90,
        RuleAction: 'deny',
        Protocol: '6',
        Egress: false,
        CidrBlock: '0.0.0.0/0',
        PortRange: { From: 22, To: 22 },
      }),
    );
    // An isolated VPC without a gateway.
    const isolated = await vpc('10.40.0.0/16', false);
    const isolatedSubnet = await subnet(isolated.vpcId, '10.40.1.0/24');

    const ssh = await group(app.vpcId, 'ssh', [{ port: 22, from: '0.0.0.0/0' }]);
    const web = await group(app.vpcId, 'web', [{ port: 80, from: '0.0.0.0/0' }]);
    const appTier = await group(app.vpcId, 'app', [{ port: 8080, from: web }]);
    const unused = await group(app.vpcId, 'unused', [{ port: 3389, from: '0.0.0.0/0' }]);
    const legacyGroup = await group(legacy.vpcId, 'legacy', [
      { port: 22, from: '0.0.0.0/0' },
      { port: 443, from: '0.0.0.0/0' },
    ]);
    const isolatedGroup = await group(isolated.vpcId, 'isolated', [{ port: 22, from: '0.0.0.0/0' }]);

    const bastion = await launch(publicA, [ssh], true);
    const worker = await launch(privateA, [appTier], false);
    const reporting = await launch(privateB, [appTier], false);
    const old = await launch(legacySubnet, [legacyGroup], true);
    const walledOff = await launch(isolatedSubnet, [isolatedGroup], true);

    const balancer = async (name: string, scheme: 'internet-facing' | 'internal', subnets: string[], to: string) => {
      const { LoadBalancers = [] } = await elb.send(
        new CreateLoadBalancerCommand({
          Name: name,
          Type: 'application',
          Scheme: scheme,
          Subnets: subnets,
          SecurityGroups: [web],
        }),
      );
      const arn = LoadBalancers[0]!.LoadBalancerArn!;
      const { TargetGroups = [] } = await elb.send(
        new CreateTargetGroupCommand({
          Name: `${name}-app`,
          Protocol: 'HTTP',
          Port: 8080,
          VpcId: app.vpcId,
          TargetType: 'instance',
        }),
      );
      const targetGroup = TargetGroups[0]!.TargetGroupArn!;
      await elb.send(new RegisterTargetsCommand({ TargetGroupArn: targetGroup, Targets: [{ Id: to }] }));
      await elb.send(
        new CreateListenerCommand({
          LoadBalancerArn: arn,
          Protocol: 'HTTP',
          Port: 80,
          DefaultActions: [{ Type: 'forward', TargetGroupArn: targetGroup }],
        }),
      );
      return { arn, targetGroup };
    };
    const front = await balancer('front', 'internet-facing', [publicA, publicB], worker);
    const internal = await balancer('reports', 'internal', [privateA, privateB], reporting);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target, { parts: PARTS });

    const topology = ok(inventory.networkTopology);
    const here = <T extends { region: string }>(items: T[]) => items.filter((i) => i.region === REGION);
    const tables = new Map(here(topology.routeTables).map((t) => [t.id, t]));
    expect(tables.get(publicTable)).toEqual({
      id: publicTable,
      vpcId: app.vpcId,
      region: REGION,
      main: false,
      subnetIds: expect.arrayContaining([publicA, publicB]),
      internetRoutes: [{ destination: '0.0.0.0/0', gatewayId: app.igw }],
    });
    expect(tables.get(app.mainTable)).toMatchObject({ main: true, subnetIds: [], internetRoutes: [] });
    expect(tables.get(legacy.mainTable)).toMatchObject({
      main: true,
      internetRoutes: [{ destination: '0.0.0.0/0', gatewayId: legacy.igw }],
    });
    expect(tables.get(isolated.mainTable)?.internetRoutes).toEqual([]);
    expect(here(topology.subnets)).toEqual(
      expect.arrayContaining([
        { id: publicA, vpcId: app.vpcId, region: REGION },
        { id: legacySubnet, vpcId: legacy.vpcId, region: REGION },
      ]),
    );
    const acl = here(topology.networkAcls).find((a) => a.id === legacyAcl);
    expect(acl?.subnetIds).toEqual([legacySubnet]);
    expect(acl?.entries).toEqual(
      expect.arrayContaining([
        { ruleNumber: 90, egress: false, action: 'deny', protocol: '6', fromPort: 22, toPort: 22, cidr: '0.0.0.0/0' },
        {
          ruleNumber: 100,
          egress: true,
          action: 'allow',
          protocol: '-1',
          fromPort: null,
          toPort: null,
          cidr: '0.0.0.0/0',
        },
      ]),
    );
    // Only the groups something placed is in, with all their rules.
    const groups = new Map(here(topology.securityGroups).map((g) => [g.id, g]));
    expect([...groups.keys()].sort()).toEqual([ssh, web, appTier, legacyGroup, isolatedGroup].sort());
    expect(groups.has(unused)).toBe(false);
    expect(groups.get(appTier)?.rules).toEqual(
      expect.arrayContaining([{ direction: 'inbound', protocol: 'tcp', fromPort: 8080, toPort: 8080, peer: web }]),
    );
    expect(here(topology.instances)).toEqual(
      expect.arrayContaining([
        { id: bastion, region: REGION, subnetId: publicA, ipv6: false },
        { id: worker, region: REGION, subnetId: privateA, ipv6: false },
      ]),
    );
    // The internal load balancer is left out; the internet-facing one forwards to the worker, which passes its checks.
    expect(here(topology.loadBalancers)).toEqual([
      {
        arn: front.arn,
        region: REGION,
        subnetIds: expect.arrayContaining([publicA, publicB]),
        securityGroupIds: [web],
        ipv6: false,
        targetGroups: [
          {
            arn: front.targetGroup,
            name: 'front-app',
            protocol: 'HTTP',
            port: 8080,
            targets: [{ id: worker, port: 8080, health: 'healthy' }],
          },
        ],
      },
    ]);

    const { exposures } = internetExposures(inventory);
    const reached = Object.fromEntries(
      here(exposures).map((e) => [e.resource, { ports: e.ports, certainty: e.certainty }]),
    );
    expect(reached).toEqual({
      [bastion]: { ports: ['tcp/22'], certainty: 'certain' },
      // The legacy ACL's deny stops SSH; HTTPS gets through.
      [old]: { ports: ['tcp/443'], certainty: 'certain' },
      [front.arn]: { ports: ['tcp/80'], certainty: 'certain' },
      [worker]: { ports: ['tcp/8080'], certainty: 'certain' },
    });
    expect(reached[walledOff]).toBeUndefined();
    expect(reached[internal.arn]).toBeUndefined();
    expect(reached[reporting]).toBeUndefined();
    const exposure = exposures.find((e) => e.resource === bastion);
    expect(exposure).toMatchObject({ roleArn, imdsV1: true });
    expect(exposure?.edges[0]?.evidence).toEqual([
      `${publicTable} (associated with ${publicA}): 0.0.0.0/0 -> ${app.igw}`,
    ]);
    expect(exposures.find((e) => e.resource === worker)?.nodes.map((n) => n.id)).toContain(front.arn);
  });

  it('leaves a region unread when its network is refused, and the analysis takes its public instances as possible', async () => {
    const { customer, target, vpc, subnet, group, launch } = await seeded();
    const app = await vpc('10.50.0.0/16', true);
    const lonely = await launch(await subnet(app.vpcId, '10.50.1.0/24'), [await group(app.vpcId, 'closed', [])], true);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) =>
      request.operation === 'DescribeRouteTables' && request.region === REGION
        ? accessDenied(request)
        : motoGaps(request);

    const inventory = await suite.provider.collectInventory(target, { parts: PARTS });

    expect(inventory.networkTopology.unread).toEqual([
      { kind: 'region', scope: REGION, reason: expect.stringContaining('EC2 DescribeRouteTables') },
    ]);
    const { exposures, unread } = internetExposures(inventory);
    expect(exposures.find((e) => e.resource === lonely)).toMatchObject({ ports: ['all'], certainty: 'possible' });
    expect(unread).toContainEqual({
      kind: 'region',
      scope: REGION,
      reason: expect.stringMatching(/^Network topology: .*DescribeRouteTables/),
    });
  });
});
