import {
  ConfigServiceClient,
  PutConfigurationRecorderCommand,
  PutDeliveryChannelCommand,
  type RecordingGroup,
  StartConfigurationRecorderCommand,
} from '@aws-sdk/client-config-service';
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateNetworkAclCommand,
  CreateNetworkAclEntryCommand,
  CreateSecurityGroupCommand,
  CreateVpcCommand,
  DescribeNetworkAclsCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import {
  AddRoleToInstanceProfileCommand,
  AttachGroupPolicyCommand,
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  CreateGroupCommand,
  CreateInstanceProfileCommand,
  CreateLoginProfileCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  CreateUserCommand,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import { CreateBucketCommand, PutBucketPolicyCommand, PutPublicAccessBlockCommand, S3Client } from '@aws-sdk/client-s3';
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
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The CIS controls whose checks follow the benchmark's own audit procedure, end to end (2.11, 2.14, 2.15, 2.16,
// 3.1.1, 3.1.4, 4.3, 6.2, 6.3, 6.4): a customer account seeded in moto through the SDK, Sentinel's role created with
// the real CLI script, collected through the front (test/helpers/aws.ts), and the checks run on what was read. A
// failing account, a passing one, and one where AWS refuses what a control needs, which never passes.

const DAY_MS = 86_400_000;
const AMI = 'ami-12c6146b';
const AWS_POLICY = (name: string) => `arn:aws:iam::aws:policy/${name}`;
const TRUST = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});
const policy = (...statements: object[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements });
const EVERYTHING = policy({ Effect: 'Allow', Action: '*', Resource: '*' });
/** CIS 3.1.1's second form: a Deny of every request below a TLS version. */
const tlsAtLeast = (bucket: string, version: string) =>
  policy({
    Effect: 'Deny',
    Principal: '*',
    Action: 's3:*',
    Resource: [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`],
    Condition: { NumericLessThan: { 's3:TlsVersion': version } },
  });
const ALL_BLOCKED = {
  BlockPublicAcls: true,
  IgnorePublicAcls: true,
  BlockPublicPolicy: true,
  RestrictPublicBuckets: true,
};

/** A check's outcome: 'pass', 'not_evaluated', or its failing resources as `resource@region`, sorted. */
function outcome(inventory: Inventory, checkId: string): string | string[] {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  return result.status === 'fail'
    ? result.resources.map((r) => `${r.resource}@${r.region ?? 'global'}`).sort()
    : result.status;
}

/** A check's failing resources in one region, or 'pass' when it has none there (moto's default VPCs fail elsewhere). */
function outcomeIn(inventory: Inventory, checkId: string, region: string): string | string[] {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  if (result.status === 'not_evaluated') return result.status;
  const failing = result.status === 'fail' ? result.resources.filter((r) => r.region === region) : [];
  return failing.length > 0 ? failing.map((r) => r.resource).sort() : 'pass';
}

/**
 * The console sign-ins AWS's credential report shows and moto never records (it dates every password from its
 * user's creation, and no sign-in): `password_last_used` and `password_last_changed` of the named users, as AWS
 * writes them (ISO 8601, or `no_information` for a password never used).
 */
function withPasswordUse(uses: Record<string, { lastUsed: Date | 'no_information'; changed: Date }>) {
  const iso = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, '+00:00');
  return (request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined => {
    const report = motoDifferences(request, answer);
    if (request.service !== 'iam' || request.operation !== 'GetCredentialReport' || !report) return report;
    const content = /<Content>([^<]*)<\/Content>/.exec(report.body);
    if (!content) return report;
    const [header = '', ...rows] = Buffer.from(content[1] ?? '', 'base64')
      .toString('utf8')
      .split('\n');
    const columns = header.split(',');
    const [lastUsed, changed] = ['password_last_used', 'password_last_changed'].map((c) => columns.indexOf(c));
    const edited = rows.map((row) => {
      const fields = row.split(',');
      const use = uses[fields[0] ?? ''];
      if (!use) return row;
      fields[lastUsed!] = use.lastUsed === 'no_information' ? use.lastUsed : iso(use.lastUsed);
      fields[changed!] = iso(use.changed);
      return fields.join(',');
    });
    const csv = Buffer.from([header, ...edited].join('\n')).toString('base64');
    return { ...report, body: report.body.replace(content[0], `<Content>${csv}</Content>`) };
  };
}

describe('CIS audit procedures against moto', () => {
  const suite = useCollectorSuite();
  const { client, connectedCustomer } = suite;

  async function userWithPassword(customer: CustomerAccount, name: string): Promise<void> {
    await customer.iam.send(new CreateUserCommand({ UserName: name }));
    await customer.iam.send(new CreateLoginProfileCommand({ UserName: name, Password: 'Correct-Horse-9' }));
  }

  /** An instance profile holding `role` (or none), and an instance launched with it. */
  async function instanceWith(customer: CustomerAccount, profile: string, role?: string): Promise<string> {
    const { InstanceProfile } = await customer.iam.send(
      new CreateInstanceProfileCommand({ InstanceProfileName: profile }),
    );
    if (role) {
      await customer.iam.send(new CreateRoleCommand({ RoleName: role, AssumeRolePolicyDocument: TRUST }));
      await customer.iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: profile, RoleName: role }));
    }
    const { Instances } = await client(new EC2Client(customerConfig(customer))).send(
      new RunInstancesCommand({
        ImageId: AMI,
        InstanceType: 't3.micro',
        MinCount: 1,
        MaxCount: 1,
        MetadataOptions: { HttpTokens: 'required', HttpEndpoint: 'enabled' },
        IamInstanceProfile: { Arn: InstanceProfile!.Arn },
      }),
    );
    return Instances![0]!.InstanceId!;
  }

  async function bucket(
    customer: CustomerAccount,
    prefix: string,
    settings: { policy?: (name: string) => string; blocked?: boolean },
  ) {
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    const name = uniqueName(prefix);
    await s3.send(new CreateBucketCommand({ Bucket: name }));
    if (settings.policy) await s3.send(new PutBucketPolicyCommand({ Bucket: name, Policy: settings.policy(name) }));
    if (settings.blocked)
      await s3.send(new PutPublicAccessBlockCommand({ Bucket: name, PublicAccessBlockConfiguration: ALL_BLOCKED }));
    return name;
  }

  async function recorder(customer: CustomerAccount, region: string, recordingGroup: RecordingGroup, logs: string) {
    const config = client(new ConfigServiceClient(customerConfig(customer, region)));
    await config.send(
      new PutConfigurationRecorderCommand({
        ConfigurationRecorder: {
          name: 'default',
          roleARN: `arn:aws:iam::${customer.accountId}:role/config`,
          recordingGroup,
        },
      }),
    );
    await config.send(new PutDeliveryChannelCommand({ DeliveryChannel: { name: 'default', s3BucketName: logs } }));
    await config.send(new StartConfigurationRecorderCommand({ ConfigurationRecorderName: 'default' }));
  }

  it('fails each control on an account set up against it', async () => {
    const { customer, target } = await connectedCustomer();
    const { iam, accountId } = customer;
    const arn = (path: string) => `arn:aws:iam::${accountId}:${path}`;
    const now = Date.now();
    // 2.11: a password last used 60 days ago, one set 60 days ago and never used; one used yesterday passes.
    for (const name of ['dormant', 'never-signed-in', 'active']) await userWithPassword(customer, name);
    // 2.14: "*:*" from an AWS managed policy on a group without members, a customer managed one on a role, an
    // inline one on a user. IAMFullAccess is administrator access (iam:*), but not "*:*".
    await iam.send(new CreateGroupCommand({ GroupName: 'admins' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'admins', PolicyArn: AWS_POLICY('AdministratorAccess') }));
    await iam.send(new CreateGroupCommand({ GroupName: 'iam-admins' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'iam-admins', PolicyArn: AWS_POLICY('IAMFullAccess') }));
    const { Policy } = await iam.send(
      new CreatePolicyCommand({ PolicyName: 'everything', PolicyDocument: EVERYTHING }),
    );
    await iam.send(new CreateRoleCommand({ RoleName: 'deployer', AssumeRolePolicyDocument: TRUST }));
    await iam.send(new AttachRolePolicyCommand({ RoleName: 'deployer', PolicyArn: Policy!.Arn }));
    await iam.send(new PutUserPolicyCommand({ UserName: 'active', PolicyName: 'all', PolicyDocument: EVERYTHING }));
    // 2.15: AWSSupportAccess on a group, not on a role.
    await iam.send(new CreateGroupCommand({ GroupName: 'support' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'support', PolicyArn: AWS_POLICY('AWSSupportAccess') }));
    // 2.16: an instance whose profile holds no role; one whose profile holds one passes.
    const roleless = await instanceWith(customer, 'bare');
    await instanceWith(customer, 'app', 'app');
    // 3.1.1 and 3.1.4: a bucket that denies TLS below 1.1 only, without Block Public Access (nor the account's); one
    // that denies below 1.2, fully blocked, passes both.
    const weak = await bucket(customer, 'tls11', { policy: (name) => tlsAtLeast(name, '1.1') });
    const strong = await bucket(customer, 'tls12', { policy: (name) => tlsAtLeast(name, '1.2'), blocked: true });
    // 4.3: Config in one region only, recording one resource type; nothing in the others.
    await recorder(customer, REGION, { allSupported: false, resourceTypes: ['AWS::S3::Bucket'] }, strong);
    // 6.2: a network ACL that lets SSH in over UDP; 6.3 and 6.4: a group open to UDP 22 from 0.0.0.0/0, and one to
    // UDP 3389 from ::/0.
    const ec2 = client(new EC2Client(customerConfig(customer)));
    const { Vpc } = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.2.0.0/16' }));
    const { NetworkAcl } = await ec2.send(new CreateNetworkAclCommand({ VpcId: Vpc!.VpcId }));
    await ec2.send(
      new CreateNetworkAclEntryCommand({
        NetworkAclId: NetworkAcl!.NetworkAclId,
        RuleNumber: 100,
        RuleAction: 'allow',
        Protocol: '17',
        Egress: false,
        CidrBlock: '0.0.0.0/0',
        PortRange: { From: 22, To: 22 },
      }),
    );
    const group = async (name: string, permission: object) => {
      const { GroupId } = await ec2.send(
        new CreateSecurityGroupCommand({ GroupName: name, Description: name, VpcId: Vpc!.VpcId }),
      );
      await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId, IpPermissions: [permission] }));
      return GroupId!;
    };
    const sshUdp = await group('ssh-udp', {
      IpProtocol: 'udp',
      FromPort: 22,
      ToPort: 22,
      IpRanges: [{ CidrIp: '0.0.0.0/0' }],
    });
    const rdpUdp6 = await group('rdp-udp6', {
      IpProtocol: '17',
      FromPort: 3389,
      ToPort: 3389,
      Ipv6Ranges: [{ CidrIpv6: '::/0' }],
    });
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.rewrite = withPasswordUse({
      dormant: { lastUsed: new Date(now - 60 * DAY_MS), changed: new Date(now - 200 * DAY_MS) },
      'never-signed-in': { lastUsed: 'no_information', changed: new Date(now - 60 * DAY_MS) },
      active: { lastUsed: new Date(now - DAY_MS), changed: new Date(now - 200 * DAY_MS) },
    });

    const inventory = await suite.provider.collectInventory(target);

    expect(
      ok(inventory.credentialReport)
        .users.filter((u) => u.passwordEnabled)
        .map((u) => [u.arn, u.passwordLastUsedAt !== null])
        .sort(),
    ).toEqual([
      [arn('user/active'), true],
      [arn('user/dormant'), true],
      [arn('user/never-signed-in'), false],
    ]);
    expect(
      ok(inventory.awsManagedPolicies)
        .policies.filter((p) => p.fullAdmin)
        .map((p) => p.name),
    ).toEqual(['AdministratorAccess']);
    expect(
      ok(inventory.instanceProfiles)
        .profiles.map((p) => [p.name, p.roles])
        .sort(),
    ).toEqual([
      ['app', ['app']],
      ['bare', []],
    ]);
    expect(ok(inventory.configRecorders).regions.find((r) => r.region === REGION)?.recorders).toEqual([
      expect.objectContaining({ recording: true, allSupported: false, includeGlobalResourceTypes: false }),
    ]);

    expect({
      '2.11': outcome(inventory, 'iam.console_password_unused'),
      '2.14': outcome(inventory, 'iam.full_admin_policy_attached'),
      '2.15': outcome(inventory, 'iam.no_support_role'),
      '2.16': outcome(inventory, 'iam.instance_without_role'),
      '3.1.1': outcome(inventory, 'exposure.s3_bucket_allows_http'),
      '3.1.4': outcome(inventory, 'exposure.s3_bucket_public_access_block_off'),
      '4.3': outcomeIn(inventory, 'detection.config_off', REGION),
      '4.3 global': outcome(inventory, 'detection.config_global_resources_off'),
      '6.2': outcomeIn(inventory, 'exposure.nacl_admin_ports_open', REGION),
      '6.3': outcomeIn(inventory, 'exposure.sg_ssh_open', REGION),
      '6.4': outcomeIn(inventory, 'exposure.sg_rdp_open', REGION),
    }).toEqual({
      '2.11': [`${arn('user/dormant')}@global`, `${arn('user/never-signed-in')}@global`],
      '2.14': [`${arn('group/admins')}@global`, `${arn('role/deployer')}@global`, `${arn('user/active')}@global`],
      '2.15': ['support-role@global'],
      '2.16': [`${roleless}@${REGION}`],
      '3.1.1': [`${weak}@${REGION}`],
      '3.1.4': [`${weak}@${REGION}`],
      '4.3': ['config'],
      '4.3 global': ['config-global-resources@global'],
      // The new VPC's own default ACL allows everything too, as AWS creates it.
      '6.2': expect.arrayContaining([NetworkAcl!.NetworkAclId]),
      '6.3': [sshUdp],
      '6.4': [rdpUdp6],
    });
    // The other regions have no recorder at all: an empty answer is a failure, never a pass.
    expect(outcome(inventory, 'detection.config_off')).toHaveLength(inventory.regions.enabled.length);
  });

  it('passes each control on an account set up as CIS asks', async () => {
    const { customer, target, regions } = await connectedCustomer();
    const { iam } = customer;
    const now = Date.now();
    await userWithPassword(customer, 'carol');
    await iam.send(new CreateGroupCommand({ GroupName: 'readers' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'readers', PolicyArn: AWS_POLICY('ReadOnlyAccess') }));
    await iam.send(new AttachUserPolicyCommand({ UserName: 'carol', PolicyArn: AWS_POLICY('PowerUserAccess') }));
    await iam.send(new CreateRoleCommand({ RoleName: 'incident-support', AssumeRolePolicyDocument: TRUST }));
    await iam.send(
      new AttachRolePolicyCommand({ RoleName: 'incident-support', PolicyArn: AWS_POLICY('AWSSupportAccess') }),
    );
    await instanceWith(customer, 'app', 'app');
    // 3.1.4 through each bucket's own Block Public Access: the account has none.
    const logs = await bucket(customer, 'config-logs', { policy: (name) => tlsAtLeast(name, '1.2'), blocked: true });
    await bucket(customer, 'data', { policy: (name) => tlsAtLeast(name, '1.3'), blocked: true });
    // Every supported type in every region, the global types in one.
    await Promise.all(
      regions.map((region) =>
        recorder(customer, region, { allSupported: true, includeGlobalResourceTypes: region === REGION }, logs),
      ),
    );
    // The default VPC's network ACL denies SSH and RDP from the internet, over TCP and UDP, before its allow-all.
    const ec2 = client(new EC2Client(customerConfig(customer)));
    const { NetworkAcls = [] } = await ec2.send(
      new DescribeNetworkAclsCommand({ Filters: [{ Name: 'default', Values: ['true'] }] }),
    );
    let rule = 10;
    for (const acl of NetworkAcls) {
      for (const protocol of ['6', '17']) {
        for (const port of [22, 3389]) {
          await ec2.send(
            new CreateNetworkAclEntryCommand({
              NetworkAclId: acl.NetworkAclId,
              RuleNumber: rule++,
              RuleAction: 'deny',
              Protocol: protocol,
              Egress: false,
              CidrBlock: '0.0.0.0/0',
              PortRange: { From: port, To: port },
            }),
          );
        }
      }
    }
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.rewrite = withPasswordUse({
      carol: { lastUsed: new Date(now - 3 * DAY_MS), changed: new Date(now - 300 * DAY_MS) },
    });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.s3AccountBlockPublicAccess)).toEqual({ settings: null });
    expect({
      '2.11': outcome(inventory, 'iam.console_password_unused'),
      '2.14': outcome(inventory, 'iam.full_admin_policy_attached'),
      '2.15': outcome(inventory, 'iam.no_support_role'),
      '2.16': outcome(inventory, 'iam.instance_without_role'),
      '3.1.1': outcome(inventory, 'exposure.s3_bucket_allows_http'),
      '3.1.4': outcome(inventory, 'exposure.s3_bucket_public_access_block_off'),
      '4.3': outcome(inventory, 'detection.config_off'),
      '4.3 global': outcome(inventory, 'detection.config_global_resources_off'),
      '6.2': outcomeIn(inventory, 'exposure.nacl_admin_ports_open', REGION),
      '6.3': outcomeIn(inventory, 'exposure.sg_ssh_open', REGION),
      '6.4': outcomeIn(inventory, 'exposure.sg_rdp_open', REGION),
    }).toEqual({
      '2.11': 'pass',
      '2.14': 'pass',
      '2.15': 'pass',
      '2.16': 'pass',
      '3.1.1': 'pass',
      '3.1.4': 'pass',
      '4.3': 'pass',
      '4.3 global': 'pass',
      '6.2': 'pass',
      '6.3': 'pass',
      '6.4': 'pass',
    });
  });

  it('never passes what AWS refused to show: the policies, the instance profiles, the account block, a region', async () => {
    const { customer, target, regions } = await connectedCustomer();
    const { iam } = customer;
    await iam.send(new CreateGroupCommand({ GroupName: 'readers' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'readers', PolicyArn: AWS_POLICY('ReadOnlyAccess') }));
    await instanceWith(customer, 'app', 'app');
    const logs = await bucket(customer, 'unblocked', {});
    // The global types are recorded only in the region an SCP hides; every other region records the rest.
    const hidden = regions.find((r) => r !== REGION)!;
    await Promise.all(
      regions.map((region) =>
        recorder(customer, region, { allSupported: true, includeGlobalResourceTypes: region === hidden }, logs),
      ),
    );
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => {
      if (request.service === 'iam' && ['ListPolicies', 'ListInstanceProfiles'].includes(request.operation ?? ''))
        return accessDenied(request);
      // S3 Control's account-level GetPublicAccessBlock (a REST call without an operation name).
      if (request.service === 's3' && request.path.startsWith('/v20180820/configuration/publicAccessBlock'))
        return accessDenied(request);
      if (request.service === 'config' && request.region === hidden) return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect([inventory.awsManagedPolicies.status, inventory.instanceProfiles.status]).toEqual([
      'not_evaluated',
      'not_evaluated',
    ]);
    expect(inventory.s3AccountBlockPublicAccess.status).toBe('not_evaluated');
    expect(inventory.configRecorders.unread?.map((u) => u.scope)).toEqual([hidden]);
    for (const id of [
      'iam.full_admin_policy_attached',
      'iam.instance_without_role',
      'exposure.s3_bucket_public_access_block_off',
      'detection.config_global_resources_off',
    ])
      expect([id, outcome(inventory, id)]).toEqual([id, 'not_evaluated']);
    // What the refusals do not touch is still judged: every region read records every supported type.
    expect(outcome(inventory, 'detection.config_off')).toBe('pass');
  });
});
