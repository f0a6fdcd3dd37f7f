import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateTransitGatewayCommand,
  CreateVpcCommand,
  CreateVpcEndpointCommand,
  CreateVpcEndpointServiceConfigurationCommand,
  DescribeRouteTablesCommand,
  DescribeSubnetsCommand,
  EC2Client,
  ModifyVpcEndpointServicePermissionsCommand,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CreateLoadBalancerCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import { accessDenied, type AwsRequest, createSentinelRole, customerConfig, motoGaps, REGION } from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// What the internet reaches on EC2, end to end: instances launched in moto with and without a public address, in
// security groups that open a service's ports to everyone, collected through Sentinel's role and judged by the
// instance and group checks.

const AMI = 'ami-12c6146b';
const OTHER_REGION = 'eu-west-1';
const EC2_XMLNS = 'http://ec2.amazonaws.com/doc/2016-11-15/';

/** An EC2 query-protocol answer, as AWS sends it. */
const ec2Answer = (action: string, inner: string) => ({
  status: 200,
  contentType: 'text/xml',
  body: `<${action}Response xmlns="${EC2_XMLNS}"><requestId>front</requestId>${inner}</${action}Response>`,
});

/** The NextToken an EC2 request carries (its form body), or '' on the first page. */
const nextTokenOf = (request: AwsRequest) => new URLSearchParams(request.body).get('NextToken') ?? '';

/** An endpoint policy that lets only the account's own principals through. */
const ownAccountOnly = (accountId: string) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${accountId}:root` }, Action: '*', Resource: '*' }],
  });

/** Text as it appears inside an XML element. */
const encodeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A check's failing resources in the test region, 'pass' without any, or 'not_evaluated'. */
function failingHere(inventory: Inventory, checkId: string): string[] | 'pass' | 'not_evaluated' {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  if (result.status !== 'fail') return result.status;
  const here = result.resources.filter((r) => r.region === REGION).map((r) => r.resource);
  return here.length > 0 ? here.sort() : 'pass';
}

describe('EC2 network exposure collection against moto', () => {
  const suite = useCollectorSuite();
  const client = (customer: Parameters<typeof customerConfig>[0], region: string) =>
    suite.client(new EC2Client(customerConfig(customer, region)));

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
    /** A Network Load Balancer in the default subnet: what an endpoint service fronts. */
    const networkLoadBalancer = async (name: string) => {
      const elb = suite.client(new ElasticLoadBalancingV2Client(customerConfig(customer)));
      const { LoadBalancers = [] } = await elb.send(
        new CreateLoadBalancerCommand({ Name: name, Type: 'network', Scheme: 'internal', Subnets: [subnet] }),
      );
      return LoadBalancers[0]!.LoadBalancerArn!;
    };
    return { customer, target, ec2, group, launch, networkLoadBalancer };
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

  describe('VPC edges', () => {
    it('finds the IMDSv1 default, public subnets, an auto-accepting transit gateway, a full-access endpoint and a service open to all', async () => {
      const { customer, target, ec2, networkLoadBalancer } = await seeded();
      const { TransitGateway: open } = await ec2.send(
        new CreateTransitGatewayCommand({ Options: { AutoAcceptSharedAttachments: 'enable' } }),
      );
      await ec2.send(new CreateTransitGatewayCommand({ Options: { AutoAcceptSharedAttachments: 'disable' } }));
      const { Vpc } = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.7.0.0/16' }));
      const { Subnet: privateSubnet } = await ec2.send(
        new CreateSubnetCommand({ VpcId: Vpc!.VpcId, CidrBlock: '10.7.1.0/24' }),
      );
      const { RouteTables = [] } = await ec2.send(
        new DescribeRouteTablesCommand({ Filters: [{ Name: 'vpc-id', Values: [Vpc!.VpcId!] }] }),
      );
      const endpoint = async (policy?: string) =>
        (
          await ec2.send(
            new CreateVpcEndpointCommand({
              VpcId: Vpc!.VpcId,
              ServiceName: `com.amazonaws.${REGION}.s3`,
              RouteTableIds: [RouteTables[0]!.RouteTableId!],
              PolicyDocument: policy,
            }),
          )
        ).VpcEndpoint!.VpcEndpointId!;
      // Created without a policy, an endpoint gets AWS's full-access one.
      const fullAccess = await endpoint();
      await endpoint(ownAccountOnly(customer.accountId));
      const { ServiceConfiguration } = await ec2.send(
        new CreateVpcEndpointServiceConfigurationCommand({
          NetworkLoadBalancerArns: [await networkLoadBalancer('api')],
          AcceptanceRequired: false,
        }),
      );
      const service = ServiceConfiguration!.ServiceId!;
      await ec2.send(
        new ModifyVpcEndpointServicePermissionsCommand({ ServiceId: service, AddAllowedPrincipals: ['*'] }),
      );
      await createSentinelRole({ customer, externalId: target.externalId });
      // The account requires IMDSv2 by default in one region; moto has no such setting (see motoGaps).
      suite.front.answer = (request) =>
        request.service === 'ec2' &&
        request.operation === 'GetInstanceMetadataDefaults' &&
        request.region === OTHER_REGION
          ? ec2Answer('GetInstanceMetadataDefaults', '<accountLevel><httpTokens>required</httpTokens></accountLevel>')
          : motoGaps(request);

      const inventory = await suite.provider.collectInventory(target);

      expect(ok(inventory.instanceMetadataDefaults).regions).toHaveLength(inventory.regions.enabled.length);
      expect(failingHere(inventory, 'exposure.imds_default_allows_v1')).toEqual(['instance-metadata-defaults']);
      const defaults = checkById('exposure.imds_default_allows_v1')!.evaluate(inventory, {
        now: inventory.collectedAt,
      });
      expect(defaults.status === 'fail' && defaults.resources.map((r) => r.region)).not.toContain(OTHER_REGION);
      // The default VPC's subnets give out public addresses, as AWS creates them; the new one does not.
      const subnets = ok(inventory.publicIpSubnets).subnets.filter((sub) => sub.region === REGION);
      expect(subnets.length).toBeGreaterThan(0);
      expect(subnets.every((sub) => sub.defaultForAz)).toBe(true);
      expect(subnets.map((sub) => sub.id)).not.toContain(privateSubnet!.SubnetId);
      expect(failingHere(inventory, 'exposure.transit_gateway_auto_accepts')).toEqual([open!.TransitGatewayId]);
      expect(ok(inventory.transitGateways).gateways).toHaveLength(2);
      expect(failingHere(inventory, 'exposure.vpc_endpoint_policy_open')).toEqual([fullAccess]);
      expect(ok(inventory.vpcEndpoints).endpoints.find((e) => e.id === fullAccess)?.beyondAccount).toEqual([
        'A statement allows * to every principal',
      ]);
      expect(failingHere(inventory, 'exposure.endpoint_service_open')).toEqual([service]);
    });

    it('leaves unread a service whose principals are refused and a region whose transit gateways are, and reads the rest', async () => {
      const { customer, target, ec2, networkLoadBalancer } = await seeded();
      const { TransitGateway } = await ec2.send(
        new CreateTransitGatewayCommand({ Options: { AutoAcceptSharedAttachments: 'enable' } }),
      );
      await client(customer, OTHER_REGION).send(
        new CreateTransitGatewayCommand({ Options: { AutoAcceptSharedAttachments: 'enable' } }),
      );
      const { ServiceConfiguration } = await ec2.send(
        new CreateVpcEndpointServiceConfigurationCommand({
          NetworkLoadBalancerArns: [await networkLoadBalancer('api')],
        }),
      );
      const service = ServiceConfiguration!.ServiceId!;
      await createSentinelRole({ customer, externalId: target.externalId });
      suite.front.answer = (request) => {
        if (request.service !== 'ec2') return motoGaps(request);
        if (request.operation === 'DescribeVpcEndpointServicePermissions') return accessDenied(request);
        if (request.operation === 'DescribeTransitGateways' && request.region === OTHER_REGION)
          return accessDenied(request);
        return motoGaps(request);
      };

      const inventory = await suite.provider.collectInventory(target);

      expect(inventory.vpcEndpoints.unread).toEqual([
        {
          kind: 'resource',
          scope: service,
          reason: expect.stringMatching(/^AWS denied Sentinel's role EC2 DescribeVpcEndpointServicePermissions/),
        },
      ]);
      expect(ok(inventory.vpcEndpoints).services).toEqual([]);
      const services = checkById('exposure.endpoint_service_open')!.evaluate(inventory, { now: inventory.collectedAt });
      expect(services).toMatchObject({ status: 'pass', unread: [{ scope: service }] });
      expect(inventory.transitGateways.unread?.map((u) => u.scope)).toEqual([OTHER_REGION]);
      expect(failingHere(inventory, 'exposure.transit_gateway_auto_accepts')).toEqual([
        TransitGateway!.TransitGatewayId,
      ]);
    });

    it('reads every page of subnets, transit gateways and endpoints', async () => {
      const { customer, target } = await seeded();
      await createSentinelRole({ customer, externalId: target.externalId });
      // moto answers these in one page whatever MaxResults says: the front answers them in two, as AWS may.
      const pages: Record<string, Record<string, string>> = {
        DescribeSubnets: {
          '': `<subnetSet><item><subnetId>subnet-0page1</subnetId><vpcId>vpc-0a</vpcId><mapPublicIpOnLaunch>true</mapPublicIpOnLaunch><defaultForAz>false</defaultForAz></item></subnetSet><nextToken>page-2</nextToken>`,
          'page-2': `<subnetSet><item><subnetId>subnet-0page2</subnetId><vpcId>vpc-0a</vpcId><mapPublicIpOnLaunch>true</mapPublicIpOnLaunch><defaultForAz>false</defaultForAz></item><item><subnetId>subnet-0private</subnetId><vpcId>vpc-0a</vpcId><mapPublicIpOnLaunch>false</mapPublicIpOnLaunch><defaultForAz>false</defaultForAz></item></subnetSet>`,
        },
        DescribeTransitGateways: {
          '': `<transitGatewaySet><item><transitGatewayId>tgw-0page1</transitGatewayId><state>available</state><options><autoAcceptSharedAttachments>disable</autoAcceptSharedAttachments></options></item></transitGatewaySet><nextToken>page-2</nextToken>`,
          'page-2': `<transitGatewaySet><item><transitGatewayId>tgw-0page2</transitGatewayId><state>available</state><options><autoAcceptSharedAttachments>enable</autoAcceptSharedAttachments></options></item></transitGatewaySet>`,
        },
        DescribeVpcEndpoints: {
          '': `<vpcEndpointSet><item><vpcEndpointId>vpce-0page1</vpcEndpointId><vpcId>vpc-0a</vpcId><serviceName>com.amazonaws.${REGION}.s3</serviceName><state>Available</state><policyDocument>${encodeXml(ownAccountOnly(customer.accountId))}</policyDocument></item></vpcEndpointSet><nextToken>page-2</nextToken>`,
          'page-2': `<vpcEndpointSet><item><vpcEndpointId>vpce-0page2</vpcEndpointId><vpcId>vpc-0a</vpcId><serviceName>com.amazonaws.${REGION}.dynamodb</serviceName><state>Available</state><policyDocument>${encodeXml('{"Statement":[{"Effect":"Allow","Principal":"*","Action":"*","Resource":"*"}]}')}</policyDocument></item></vpcEndpointSet>`,
        },
      };
      suite.front.answer = (request) => {
        const page = request.service === 'ec2' && request.region === REGION && pages[request.operation ?? ''];
        return page ? ec2Answer(request.operation!, page[nextTokenOf(request)] ?? '') : motoGaps(request);
      };

      const inventory = await suite.provider.collectInventory(target);

      const here = <T extends { region: string }>(items: T[]) => items.filter((item) => item.region === REGION);
      expect(here(ok(inventory.publicIpSubnets).subnets).map((sub) => sub.id)).toEqual([
        'subnet-0page1',
        'subnet-0page2',
      ]);
      expect(here(ok(inventory.transitGateways).gateways).map((g) => g.id)).toEqual(['tgw-0page1', 'tgw-0page2']);
      expect(here(ok(inventory.vpcEndpoints).endpoints).map((e) => [e.id, e.beyondAccount?.length])).toEqual([
        ['vpce-0page1', 0],
        ['vpce-0page2', 1],
      ]);
      const asked = (operation: string) =>
        suite.front.requests.filter((r) => r.operation === operation && r.region === REGION).map((r) => nextTokenOf(r));
      expect([asked('DescribeSubnets'), asked('DescribeTransitGateways'), asked('DescribeVpcEndpoints')]).toEqual([
        ['', 'page-2'],
        ['', 'page-2'],
        ['', 'page-2'],
      ]);
    });
  });
});
