import {
  AuthorizeSecurityGroupIngressCommand,
  CreateFlowLogsCommand,
  CreateNetworkAclCommand,
  CreateNetworkAclEntryCommand,
  CreateSecurityGroupCommand,
  CreateVpcCommand,
  DescribeNetworkAclsCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
  EnableEbsEncryptionByDefaultCommand,
  RevokeSecurityGroupEgressCommand,
  RevokeSecurityGroupIngressCommand,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { AddRoleToInstanceProfileCommand, CreateInstanceProfileCommand, CreateRoleCommand } from '@aws-sdk/client-iam';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import { ROLE_NAME, type RoleTarget } from '../../domain/onboarding/role';
import {
  createSentinelRole,
  customerAccount,
  type CustomerAccount,
  customerConfig,
  randomExternalId,
  REGION,
} from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// The EC2 and VPC parts end to end: a customer account seeded in moto through the SDK with the networking
// misconfigurations of the CIS benchmark's section 6 (and 2.16, 4.7), collected through Sentinel's role, and
// evaluated by the checks. moto, like AWS, creates a default VPC in every region with an allow-all network ACL, a
// default security group with rules and no flow log, and leaves EBS encryption by default off: those fail in every
// region until the customer fixes them.

const OTHER_REGION = 'eu-west-1';
const AMI = 'ami-12c6146b';
const NETWORK_CHECKS = [
  'exposure.ebs_default_encryption_off',
  'exposure.sg_cifs_open',
  'exposure.nacl_admin_ports_open',
  'exposure.default_sg_allows_traffic',
  'exposure.imdsv1_allowed',
  'iam.instance_without_role',
  'detection.vpc_flow_logs_off',
] as const;

/** The failing resources of a check in one region, or 'pass' when it has none there. */
function failingIn(inventory: Inventory, checkId: string, region: string): string[] | 'pass' {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  if (result.status === 'not_evaluated') throw new Error(`${checkId} not evaluated: ${result.reason}`);
  const resources =
    result.status === 'fail' ? result.resources.filter((r) => r.region === region).map((r) => r.resource) : [];
  return resources.length > 0 ? resources.sort() : 'pass';
}

describe('EC2 and VPC collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  async function connected(): Promise<{ customer: CustomerAccount; target: RoleTarget; ec2: EC2Client }> {
    const customer = await customerAccount();
    const target = {
      tenantId: 'tnt_test',
      awsAccountId: customer.accountId,
      roleName: ROLE_NAME,
      externalId: randomExternalId(),
    };
    return { customer, target, ec2: client(new EC2Client(customerConfig(customer))) };
  }

  async function defaultGroupOf(ec2: EC2Client, vpcId: string): Promise<string> {
    const { SecurityGroups = [] } = await ec2.send(
      new DescribeSecurityGroupsCommand({
        Filters: [
          { Name: 'vpc-id', Values: [vpcId] },
          { Name: 'group-name', Values: ['default'] },
        ],
      }),
    );
    return SecurityGroups[0]!.GroupId!;
  }

  async function defaultVpc(ec2: EC2Client): Promise<{ vpcId: string; aclId: string; groupId: string }> {
    const { NetworkAcls = [] } = await ec2.send(
      new DescribeNetworkAclsCommand({ Filters: [{ Name: 'default', Values: ['true'] }] }),
    );
    const { SecurityGroups = [] } = await ec2.send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: ['default'] }] }),
    );
    const group = SecurityGroups.find((g) => g.VpcId !== undefined)!;
    const acl = NetworkAcls.find((a) => a.VpcId === group.VpcId)!;
    return { vpcId: group.VpcId!, aclId: acl.NetworkAclId!, groupId: group.GroupId! };
  }

  /** Empties a default security group of the rules it was created with (AWS: all from itself in, all out; moto: all out). */
  async function emptyGroup(ec2: EC2Client, groupId: string): Promise<void> {
    const { SecurityGroups = [] } = await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [groupId] }));
    const { IpPermissions = [], IpPermissionsEgress = [] } = SecurityGroups[0]!;
    if (IpPermissions.length > 0)
      await ec2.send(new RevokeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions }));
    if (IpPermissionsEgress.length > 0)
      await ec2.send(new RevokeSecurityGroupEgressCommand({ GroupId: groupId, IpPermissions: IpPermissionsEgress }));
  }

  async function withInstanceProfile(customer: CustomerAccount): Promise<string> {
    const trust = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    };
    await customer.iam.send(
      new CreateRoleCommand({ RoleName: 'app', AssumeRolePolicyDocument: JSON.stringify(trust) }),
    );
    const { InstanceProfile } = await customer.iam.send(
      new CreateInstanceProfileCommand({ InstanceProfileName: 'app' }),
    );
    await customer.iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'app', RoleName: 'app' }));
    return InstanceProfile!.Arn!;
  }

  async function flowLogTo(customer: CustomerAccount, ec2: EC2Client, vpcId: string): Promise<void> {
    const bucket = `flow-logs-${randomExternalId()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 12)}`;
    await client(new S3Client({ ...customerConfig(customer), forcePathStyle: true })).send(
      new CreateBucketCommand({ Bucket: bucket }),
    );
    const { Unsuccessful = [] } = await ec2.send(
      new CreateFlowLogsCommand({
        ResourceType: 'VPC',
        ResourceIds: [vpcId],
        TrafficType: 'ALL',
        LogDestinationType: 's3',
        LogDestination: `arn:aws:s3:::${bucket}`,
      }),
    );
    expect(Unsuccessful).toEqual([]);
  }

  it('finds the misconfigurations: CIFS and SSH open, a default group with rules, IMDSv1, no role, no flow log, no EBS encryption', async () => {
    const { customer, target, ec2 } = await connected();
    await client(new EC2Client(customerConfig(customer, OTHER_REGION))).send(
      new EnableEbsEncryptionByDefaultCommand({}),
    );
    const { GroupId: smb } = await ec2.send(
      new CreateSecurityGroupCommand({ GroupName: 'smb', Description: 'file shares' }),
    );
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: smb,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 445, ToPort: 445, Ipv6Ranges: [{ CidrIpv6: '::/0' }] }],
      }),
    );
    // A VPC of the customer's: its default group emptied, a flow log, an ACL open to SSH and one that denies SSH and
    // RDP first, over TCP and UDP (CIS 6.2 counts both).
    const { Vpc } = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.1.0.0/16' }));
    const app = Vpc!.VpcId!;
    await emptyGroup(ec2, await defaultGroupOf(ec2, app));
    await flowLogTo(customer, ec2, app);
    const acl = async (
      entries: { rule: number; action: 'allow' | 'deny'; protocol: string; ports?: [number, number] }[],
    ) => {
      const { NetworkAcl } = await ec2.send(new CreateNetworkAclCommand({ VpcId: app }));
      for (const e of entries) {
        await ec2.send(
          new CreateNetworkAclEntryCommand({
            NetworkAclId: NetworkAcl!.NetworkAclId,
            RuleNumber: e.rule,
            RuleAction: e.action,
            Protocol: e.protocol,
            Egress: false,
            CidrBlock: '0.0.0.0/0',
            PortRange: e.ports ? { From: e.ports[0], To: e.ports[1] } : undefined,
          }),
        );
      }
      return NetworkAcl!.NetworkAclId!;
    };
    const sshOpen = await acl([{ rule: 100, action: 'allow', protocol: '6', ports: [22, 22] }]);
    const guarded = await acl([
      { rule: 10, action: 'deny', protocol: '6', ports: [22, 22] },
      { rule: 11, action: 'deny', protocol: '6', ports: [3389, 3389] },
      { rule: 12, action: 'deny', protocol: '17', ports: [22, 22] },
      { rule: 13, action: 'deny', protocol: '17', ports: [3389, 3389] },
      { rule: 100, action: 'allow', protocol: '-1' },
    ]);
    const profile = await withInstanceProfile(customer);
    const launch = async (options: object) =>
      (
        await ec2.send(
          new RunInstancesCommand({
            ImageId: AMI,
            InstanceType: 't3.micro',
            MinCount: 1,
            MaxCount: 1,
            ...options,
          }),
        )
      ).Instances![0]!.InstanceId!;
    const legacy = await launch({ MetadataOptions: { HttpTokens: 'optional', HttpEndpoint: 'enabled' } });
    const modern = await launch({
      MetadataOptions: { HttpTokens: 'required', HttpEndpoint: 'enabled' },
      IamInstanceProfile: { Arn: profile },
    });
    const dark = await launch({
      MetadataOptions: { HttpTokens: 'optional', HttpEndpoint: 'disabled' },
      IamInstanceProfile: { Arn: profile },
    });
    const byDefault = await defaultVpc(ec2);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.ebsEncryptionByDefault).regions.filter((r) => r.enabled)).toEqual([
      { region: OTHER_REGION, enabled: true },
    ]);
    expect(ok(inventory.ebsEncryptionByDefault).regions).toHaveLength(inventory.regions.enabled.length);
    expect(
      ok(inventory.instances)
        .instances.map((i) => [i.id, i.metadata, i.instanceProfileArn])
        .sort(),
    ).toEqual(
      [
        [legacy, { httpTokens: 'optional', httpEndpoint: 'enabled' }, null],
        [modern, { httpTokens: 'required', httpEndpoint: 'enabled' }, profile],
        [dark, { httpTokens: 'optional', httpEndpoint: 'disabled' }, profile],
      ].sort(),
    );
    const acls = ok(inventory.networkAcls).acls.filter((a) => a.region === REGION);
    expect(acls.find((a) => a.id === sshOpen)).toEqual({
      id: sshOpen,
      vpcId: app,
      region: REGION,
      // moto leaves out the catch-all deny (rule 32767) that AWS adds to a new ACL.
      internetIngress: [
        { ruleNumber: 100, action: 'allow', protocol: '6', fromPort: 22, toPort: 22, cidr: '0.0.0.0/0' },
      ],
    });
    expect(acls.find((a) => a.id === guarded)?.internetIngress.map((e) => [e.ruleNumber, e.action])).toEqual([
      [10, 'deny'],
      [11, 'deny'],
      [12, 'deny'],
      [13, 'deny'],
      [100, 'allow'],
    ]);
    const defaults = ok(inventory.securityGroups).defaultGroups.filter((g) => g.region === REGION);
    expect(defaults).toEqual([
      {
        id: byDefault.groupId,
        vpcId: byDefault.vpcId,
        region: REGION,
        rules: expect.arrayContaining([
          { direction: 'outbound', protocol: '-1', fromPort: null, toPort: null, peer: '0.0.0.0/0' },
        ]),
      },
    ]);

    expect(Object.fromEntries(NETWORK_CHECKS.map((id) => [id, failingIn(inventory, id, REGION)]))).toEqual({
      'exposure.ebs_default_encryption_off': ['ebs-encryption-by-default'],
      'exposure.sg_cifs_open': [smb],
      // The app VPC's own default ACL allows everything too, as AWS creates it.
      'exposure.nacl_admin_ports_open': expect.arrayContaining([sshOpen, byDefault.aclId]),
      'exposure.default_sg_allows_traffic': [byDefault.groupId],
      'exposure.imdsv1_allowed': [legacy],
      'iam.instance_without_role': [legacy],
      'detection.vpc_flow_logs_off': [byDefault.vpcId],
    });
    expect(failingIn(inventory, 'exposure.nacl_admin_ports_open', REGION)).not.toContain(guarded);
    expect(failingIn(inventory, 'exposure.ebs_default_encryption_off', OTHER_REGION)).toBe('pass');
    // The default groups, metadata options and profiles come with the calls already made for groups and instances
    // (user data and launch templates are parts of their own).
    const operations = new Set(suite.front.requests.filter((r) => r.service === 'ec2').map((r) => r.operation));
    expect([...operations].sort()).toEqual([
      'DescribeAddresses',
      'DescribeFlowLogs',
      'DescribeImages',
      'DescribeInstanceAttribute',
      'DescribeInstances',
      'DescribeLaunchTemplates',
      'DescribeNetworkAcls',
      'DescribeRegions',
      // The network topology's routes to internet gateways (the attack-path analysis' reachability).
      'DescribeRouteTables',
      'DescribeSecurityGroups',
      'DescribeSnapshots',
      'DescribeSubnets',
      'DescribeTransitGateways',
      'DescribeVolumes',
      'DescribeVpcEndpointServiceConfigurations',
      'DescribeVpcEndpoints',
      'DescribeVpcs',
      'GetEbsEncryptionByDefault',
      'GetInstanceMetadataDefaults',
      'GetSnapshotBlockPublicAccessState',
    ]);
  });

  it('passes a region set up as the benchmark asks, while the untouched regions still fail', async () => {
    const { customer, target, ec2 } = await connected();
    await ec2.send(new EnableEbsEncryptionByDefaultCommand({}));
    const byDefault = await defaultVpc(ec2);
    await emptyGroup(ec2, byDefault.groupId);
    await flowLogTo(customer, ec2, byDefault.vpcId);
    for (const [rule, port, protocol] of [
      [10, 22, '6'],
      [11, 3389, '6'],
      [12, 22, '17'],
      [13, 3389, '17'],
    ] as const) {
      await ec2.send(
        new CreateNetworkAclEntryCommand({
          NetworkAclId: byDefault.aclId,
          RuleNumber: rule,
          RuleAction: 'deny',
          Protocol: protocol,
          Egress: false,
          CidrBlock: '0.0.0.0/0',
          PortRange: { From: port, To: port },
        }),
      );
    }
    const profile = await withInstanceProfile(customer);
    await ec2.send(
      new RunInstancesCommand({
        ImageId: AMI,
        InstanceType: 't3.micro',
        MinCount: 1,
        MaxCount: 1,
        MetadataOptions: { HttpTokens: 'required', HttpEndpoint: 'enabled' },
        IamInstanceProfile: { Arn: profile },
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(Object.fromEntries(NETWORK_CHECKS.map((id) => [id, failingIn(inventory, id, REGION)]))).toEqual(
      Object.fromEntries(NETWORK_CHECKS.map((id) => [id, 'pass'])),
    );
    expect(failingIn(inventory, 'detection.vpc_flow_logs_off', OTHER_REGION)).toHaveLength(1);
    expect(failingIn(inventory, 'exposure.ebs_default_encryption_off', OTHER_REGION)).toEqual([
      'ebs-encryption-by-default',
    ]);
  });
});
