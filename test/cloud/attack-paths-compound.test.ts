import {
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateInternetGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CreateAccessKeyCommand, CreateVirtualMFADeviceCommand, EnableMFADeviceCommand } from '@aws-sdk/client-iam';
import {
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  CreateFunctionUrlConfigCommand,
  LambdaClient,
} from '@aws-sdk/client-lambda';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { analyzeAttackPaths } from '../../domain/attack-paths/analyze';
import { TOXIC_RULES, type ToxicRule } from '../../domain/attack-paths/toxic-combinations';
import { ATTACK_PATH_CHECKS } from '../../domain/checks/attack-paths';
import type { EvaluationContext } from '../../domain/checks/types';
import { type Inventory, OUTSIDE_TARGETED_SCAN, type PartName } from '../../domain/scans/inventory';
import {
  type AwsRequest,
  type CannedAnswer,
  type CustomerAccount,
  createSentinelRole,
  customerConfig,
  motoDifferences,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';
import { ADMINISTRATOR_ACCESS, arnsOf, document, INLINE_POLICY, seedIam } from '../helpers/iam-seed';
import { zip } from '../helpers/zip';

// The toxic combinations (domain/attack-paths/toxic-combinations.ts) end to end: one moto account seeded with every
// combination Sentinel finds and, beside each, what falls one ingredient short of it; the parts the analysis reads
// collected through Sentinel's role; then the analysis and the attack-path checks over what was collected.
//
// - exposed_imdsv1_admin_workload / exposed_admin_workload: instances in a subnet routed to an internet gateway, with
//   a public address and a security group open to the internet, holding an instance profile whose role has
//   AdministratorAccess, one answering IMDSv1 and one requiring IMDSv2. Beside them: a private instance with the
//   same profile, and a public IMDSv1 instance without one.
// - user_key_without_mfa_admin: an administrator user with an active access key and no MFA. Beside it: an
//   administrator with a key and a virtual MFA device (moto enables one for a user), an administrator without keys,
//   and a user with a key and no MFA who is no administrator.
// - external_trust_admin: an administrator role trusting another account without sts:ExternalId. Beside it: the same
//   with an ExternalId, and a role without privileges trusting that account without one.
// - public_function_reads_secrets: a function whose URL has auth type NONE, running as a role allowed
//   secretsmanager:GetSecretValue. Beside it: the same role behind an AWS_IAM URL, and a public function whose role
//   reads no secret. moto 5.2 creates function URLs (CreateFunctionUrlConfig) but has no ListFunctionUrlConfigs: the
//   front answers it with the configurations moto returned when the test created them.
// - public_queue_function_reads_secrets: a queue whose policy lets anyone send messages, triggering (an enabled event
//   source mapping) a function whose role reads secrets. Beside it: the same with a queue only its own account may
//   send to, the same public queue behind a disabled mapping, and a public queue triggering a function whose role
//   reads no secret.
// - escalation_seen_acting: a role that can make itself an administrator (iam:PutRolePolicy on itself), seen acting
//   through one of its sessions by an event detection (EvaluationContext.recentActors). Beside it: a user seen acting
//   who cannot escalate.
//
// The load balancers, RDS instances, OpenSearch domains and API Gateway stages, which the analysis also reads for
// what the internet reaches, are left uncollected: the analysis must say it could not read them, not pass.

/** The parts collected: those the analysis reads for the principals and the workloads seeded here. */
const PARTS: PartName[] = [
  'iamAuthorization',
  'iamPrincipals',
  'credentialReport',
  'instances',
  'instanceProfiles',
  'networkTopology',
  'lambdaFunctions',
  // Who may read the secrets: their own policies can let a role in.
  'secrets',
  // Who may send to the queues that trigger functions.
  'sqsQueues',
];
/** The parts the analysis reads that are not collected, as its reachability names them. */
const UNCOLLECTED = ['Load balancers', 'RDS DB instances', 'OpenSearch domains', 'API Gateway stages'];

const AMI = 'ami-12c6146b';
const OUTSIDE_ACCOUNT = '999988887777';
const SEEN_AT = '2026-03-01T09:30:00.000Z';

const isListUrls = (r: AwsRequest) =>
  r.service === 'lambda' && r.method === 'GET' && /^\/2021-10-31\/functions\/[^/]+\/urls$/.test(r.path);
const isGetFunction = (r: AwsRequest) =>
  r.service === 'lambda' && r.method === 'GET' && /^\/2015-03-31\/functions\/[^/]+$/.test(r.path);

describe('toxic combinations against moto', () => {
  const suite = useCollectorSuite({ regions: [REGION] });
  /** Function URL configurations as moto returned them, by function name: the front lists them. */
  const functionUrls = new Map<string, { FunctionUrl?: string; FunctionArn?: string; AuthType?: string }>();
  /** The code packages deployed, by function name: the front serves them where GetFunction points. */
  const packages = new Map<string, Buffer>();

  beforeEach(() => {
    functionUrls.clear();
    packages.clear();
    suite.front.answer = (request) => {
      if (isListUrls(request)) {
        const name = decodeURIComponent(/functions\/([^/]+)\/urls$/.exec(request.path)?.[1] ?? '')
          .split(':')
          .pop() as string;
        const config = functionUrls.get(name);
        return {
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ FunctionUrlConfigs: config ? [config] : [] }),
        };
      }
      const code = /^\/code\/(.+)$/.exec(request.path);
      const bytes = code && packages.get(decodeURIComponent(code[1] as string));
      if (bytes) return { status: 200, contentType: 'application/zip', body: '', bytes };
      return motoGaps(request);
    };
    // moto's Code.Location names a host that does not exist: the package is served by the front instead, as AWS's
    // presigned S3 URL would serve it.
    suite.front.rewrite = (request: AwsRequest, answer: CannedAnswer) => {
      if (!isGetFunction(request) || answer.status !== 200) return motoDifferences(request, answer);
      const body = JSON.parse(answer.body) as { Configuration: { FunctionName: string }; Code?: { Location?: string } };
      if (!body.Code?.Location) return undefined;
      body.Code.Location = `${suite.front.endpoint}/code/${encodeURIComponent(body.Configuration.FunctionName)}`;
      return { ...answer, body: JSON.stringify(body) };
    };
  });

  /** The IAM side: the administrators, the users with and without keys and MFA, the trusts, the function roles. */
  async function seedPrincipals(customer: CustomerAccount) {
    const arn = arnsOf(customer.accountId);
    const trustService = (service: string) =>
      document({ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' });
    const trustOutside = (condition?: Record<string, unknown>) =>
      document({
        Sid: 'Vendor',
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${OUTSIDE_ACCOUNT}:root` },
        Action: 'sts:AssumeRole',
        ...(condition ? { Condition: condition } : {}),
      });
    const quiet = document({ Sid: 'Read', Effect: 'Allow', Action: 's3:ListAllMyBuckets', Resource: '*' });
    await seedIam(customer.iam, {
      roles: [
        {
          name: 'web-admin',
          trust: trustService('ec2.amazonaws.com'),
          attached: [ADMINISTRATOR_ACCESS],
          instanceProfile: true,
        },
        { name: 'vendor-admin', trust: trustOutside(), attached: [ADMINISTRATOR_ACCESS] },
        {
          name: 'vendor-admin-guarded',
          trust: trustOutside({ StringEquals: { 'sts:ExternalId': 'a-secret-only-the-vendor-knows' } }),
          attached: [ADMINISTRATOR_ACCESS],
        },
        { name: 'vendor-reader', trust: trustOutside(), inline: quiet },
        {
          name: 'orders-fn',
          trust: trustService('lambda.amazonaws.com'),
          inline: document({ Sid: 'Secrets', Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: '*' }),
        },
        { name: 'thumbnails-fn', trust: trustService('lambda.amazonaws.com'), inline: quiet },
        {
          name: 'ci',
          trust: trustService('codebuild.amazonaws.com'),
          inline: document({ Sid: 'Self', Effect: 'Allow', Action: 'iam:PutRolePolicy', Resource: arn.role('ci') }),
        },
      ],
      users: [
        { name: 'ops-key', attached: [ADMINISTRATOR_ACCESS] },
        { name: 'ops-mfa', attached: [ADMINISTRATOR_ACCESS] },
        { name: 'ops-console', attached: [ADMINISTRATOR_ACCESS] },
        { name: 'dev-key', inline: quiet },
      ],
    });
    for (const user of ['ops-key', 'ops-mfa', 'dev-key'])
      await customer.iam.send(new CreateAccessKeyCommand({ UserName: user }));
    const { VirtualMFADevice } = await customer.iam.send(
      new CreateVirtualMFADeviceCommand({ VirtualMFADeviceName: 'ops-mfa' }),
    );
    await customer.iam.send(
      new EnableMFADeviceCommand({
        UserName: 'ops-mfa',
        SerialNumber: VirtualMFADevice?.SerialNumber,
        AuthenticationCode1: '123456',
        AuthenticationCode2: '654321',
      }),
    );
    return arn;
  }

  /**
   * The network side: a VPC whose public subnet's table routes the internet to its gateway and whose private subnet
   * stays on the main table, a group open on HTTPS, and the instances.
   */
  async function seedInstances(customer: CustomerAccount, profileArn: string) {
    const ec2 = suite.client(new EC2Client(customerConfig(customer)));
    const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.60.0.0/16' }))).Vpc?.VpcId as string;
    const igw = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway?.InternetGatewayId as string;
    await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }));
    const subnet = async (cidr: string) =>
      (await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: cidr, AvailabilityZone: `${REGION}a` })))
        .Subnet?.SubnetId as string;
    const publicSubnet = await subnet('10.60.1.0/24');
    const privateSubnet = await subnet('10.60.2.0/24');
    const table = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable?.RouteTableId as string;
    await ec2.send(new CreateRouteCommand({ RouteTableId: table, DestinationCidrBlock: '0.0.0.0/0', GatewayId: igw }));
    await ec2.send(new AssociateRouteTableCommand({ RouteTableId: table, SubnetId: publicSubnet }));
    const { GroupId: group } = await ec2.send(
      new CreateSecurityGroupCommand({ VpcId: vpcId, GroupName: 'web', Description: 'HTTPS from anywhere' }),
    );
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: group,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
      }),
    );
    const launch = async (
      where: { subnet: string; publicAddress: boolean; tokens: 'optional' | 'required' },
      profile?: string,
    ) =>
      (
        await ec2.send(
          new RunInstancesCommand({
            ImageId: AMI,
            InstanceType: 't3.micro',
            MinCount: 1,
            MaxCount: 1,
            MetadataOptions: { HttpTokens: where.tokens, HttpEndpoint: 'enabled' },
            ...(profile ? { IamInstanceProfile: { Arn: profile } } : {}),
            NetworkInterfaces: [
              {
                DeviceIndex: 0,
                SubnetId: where.subnet,
                Groups: [group as string],
                AssociatePublicIpAddress: where.publicAddress,
              },
            ],
          }),
        )
      ).Instances?.[0]?.InstanceId as string;
    return {
      imdsV1: await launch({ subnet: publicSubnet, publicAddress: true, tokens: 'optional' }, profileArn),
      imdsV2: await launch({ subnet: publicSubnet, publicAddress: true, tokens: 'required' }, profileArn),
      private: await launch({ subnet: privateSubnet, publicAddress: false, tokens: 'optional' }, profileArn),
      withoutProfile: await launch({ subnet: publicSubnet, publicAddress: true, tokens: 'optional' }),
    };
  }

  /** The functions, each with a URL of the given auth type, created in moto and listed by the front. */
  async function seedFunctions(customer: CustomerAccount, roleArn: (name: string) => string) {
    const lambda = suite.client(new LambdaClient(customerConfig(customer)));
    const deploy = async (name: string, role: string, authType: 'NONE' | 'AWS_IAM') => {
      const code = zip({ 'index.mjs': 'export const handler = async () => ({ statusCode: 200 });\n' });
      const { FunctionArn } = await lambda.send(
        new CreateFunctionCommand({
          FunctionName: name,
          Runtime: 'nodejs22.x',
          Role: roleArn(role),
          Handler: 'index.handler',
          Code: { ZipFile: code },
        }),
      );
      packages.set(name, code);
      const url = await lambda.send(new CreateFunctionUrlConfigCommand({ FunctionName: name, AuthType: authType }));
      functionUrls.set(name, { FunctionUrl: url.FunctionUrl, FunctionArn: url.FunctionArn, AuthType: url.AuthType });
      return FunctionArn as string;
    };
    return {
      ordersApi: await deploy('orders-api', 'orders-fn', 'NONE'),
      ordersInternal: await deploy('orders-internal', 'orders-fn', 'AWS_IAM'),
      thumbnails: await deploy('thumbnails', 'thumbnails-fn', 'NONE'),
    };
  }

  /**
   * The queues and the functions they trigger, each function without a URL: only its queue lets the internet in.
   * `open`: the queue's policy lets anyone send.
   */
  async function seedQueueTriggers(customer: CustomerAccount, roleArn: (name: string) => string) {
    const sqs = suite.client(new SQSClient(customerConfig(customer)));
    const lambda = suite.client(new LambdaClient(customerConfig(customer)));
    const queue = async (name: string, open: boolean) => {
      const arn = `arn:aws:sqs:${REGION}:${customer.accountId}:${name}`;
      const policy = document({
        Sid: 'Anyone',
        Effect: 'Allow',
        Principal: '*',
        Action: 'sqs:SendMessage',
        Resource: arn,
      });
      const { QueueUrl } = await sqs.send(
        new CreateQueueCommand({ QueueName: name, Attributes: open ? { Policy: JSON.stringify(policy) } : {} }),
      );
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
      return Attributes?.QueueArn as string;
    };
    const worker = async (name: string, role: string, source: string, enabled = true) => {
      const code = zip({ 'index.mjs': 'export const handler = async (event) => event.Records.length;\n' });
      const { FunctionArn } = await lambda.send(
        new CreateFunctionCommand({
          FunctionName: name,
          Runtime: 'nodejs22.x',
          Role: roleArn(role),
          Handler: 'index.handler',
          Code: { ZipFile: code },
        }),
      );
      packages.set(name, code);
      await lambda.send(
        new CreateEventSourceMappingCommand({ EventSourceArn: source, FunctionName: name, Enabled: enabled }),
      );
      return FunctionArn as string;
    };
    const intake = await queue('intake', true);
    return {
      intake,
      intakeWorker: await worker('intake-worker', 'orders-fn', intake),
      ledgerWorker: await worker('ledger-worker', 'orders-fn', await queue('ledger', false)),
      returnsWorker: await worker('returns-worker', 'orders-fn', await queue('returns', true), false),
      intakeThumbnails: await worker('intake-thumbnails', 'thumbnails-fn', intake),
    };
  }

  it('finds every toxic combination seeded, and none of the near misses beside them', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const arn = await seedPrincipals(customer);
    const instances = await seedInstances(customer, arn.instanceProfile('web-admin'));
    const functions = await seedFunctions(customer, arn.role);
    const triggered = await seedQueueTriggers(customer, arn.role);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory: Inventory = await suite.provider.collectInventory(target, { parts: PARTS });

    for (const part of PARTS) expect({ part, status: inventory[part].status }).toEqual({ part, status: 'ok' });
    // What each ingredient was read as: the collectors' share of the outcome.
    const collectedInstances = new Map(ok(inventory.instances).instances.map((i) => [i.id, i]));
    expect(collectedInstances.get(instances.imdsV1)).toMatchObject({
      metadata: { httpTokens: 'optional', httpEndpoint: 'enabled' },
      instanceProfileArn: arn.instanceProfile('web-admin'),
      publicIp: expect.any(String),
    });
    expect(collectedInstances.get(instances.imdsV2)?.metadata).toEqual({
      httpTokens: 'required',
      httpEndpoint: 'enabled',
    });
    expect(collectedInstances.get(instances.private)?.publicIp).toBeNull();
    const reported = new Map(ok(inventory.credentialReport).users.map((u) => [u.arn, u.mfaActive]));
    expect(reported.get(arn.user('ops-mfa'))).toBe(true);
    expect(reported.get(arn.user('ops-key'))).toBe(false);
    expect(Object.fromEntries(ok(inventory.lambdaFunctions).functions.map((f) => [f.name, f.urls]))).toEqual({
      'orders-api': { read: true, urls: [{ url: expect.any(String), authType: 'NONE' }] },
      'orders-internal': { read: true, urls: [{ url: expect.any(String), authType: 'AWS_IAM' }] },
      thumbnails: { read: true, urls: [{ url: expect.any(String), authType: 'NONE' }] },
      'intake-worker': { read: true, urls: [] },
      'ledger-worker': { read: true, urls: [] },
      'returns-worker': { read: true, urls: [] },
      'intake-thumbnails': { read: true, urls: [] },
    });
    const intakeWorker = ok(inventory.lambdaFunctions).functions.find((f) => f.name === 'intake-worker');
    expect(intakeWorker?.eventSources).toEqual({
      read: true,
      mappings: [{ uuid: expect.any(String), sourceArn: triggered.intake, state: 'Enabled' }],
    });
    expect(ok(inventory.sqsQueues).queues.find((q) => q.arn === triggered.intake)?.policy).toMatchObject({
      read: true,
      exposure: { public: [expect.objectContaining({ sid: 'Anyone' })] },
    });

    const context: EvaluationContext = {
      now: inventory.collectedAt,
      recentActors: [
        {
          principal: `arn:aws:sts::${customer.accountId}:assumed-role/ci/build-42`,
          detection: 'event.admin_policy_attached',
          at: SEEN_AT,
        },
        { principal: arn.user('dev-key'), detection: 'event.access_denied_burst', at: SEEN_AT },
      ],
    };
    const analysis = analyzeAttackPaths(inventory, context);

    const expected: Record<ToxicRule, string[]> = {
      exposed_imdsv1_admin_workload: [instances.imdsV1],
      exposed_admin_workload: [instances.imdsV2],
      user_key_without_mfa_admin: [arn.user('ops-key')],
      external_trust_admin: [arn.role('vendor-admin')],
      public_function_reads_secrets: [functions.ordersApi],
      public_queue_function_reads_secrets: [triggered.intakeWorker],
      escalation_seen_acting: [arn.role('ci')],
    };
    // The test seeds every rule Sentinel has.
    expect(Object.keys(expected).sort()).toEqual(Object.keys(TOXIC_RULES).sort());
    // By rule and subject, each certain: every step of it was read and holds.
    const toxic = analysis.paths
      .filter((p) => p.kind === 'toxic_combination')
      .map((p) => `${p.rule} ${p.fingerprint.slice(`toxic:${p.rule}:`.length)} ${p.certainty}`)
      .sort();
    expect(toxic).toEqual(
      Object.entries(expected)
        .flatMap(([rule, subjects]) => subjects.map((s) => `${rule} ${s} certain`))
        .sort(),
    );

    // What the internet reaches: the public instances and functions; not the private instance, nor a URL that
    // requires IAM.
    const exposed = analysis.paths.filter((p) => p.kind === 'exposure').map((p) => p.target);
    expect(exposed.sort()).toEqual(
      [instances.imdsV1, instances.imdsV2, instances.withoutProfile, functions.ordersApi, functions.thumbnails].sort(),
    );
    // The only principal that escalates is the one that rewrites its own policy.
    expect(analysis.paths.filter((p) => p.kind === 'escalation').map((p) => [p.source, p.rule])).toEqual([
      [arn.role('ci'), 'iam-005'],
    ]);

    // What was not collected is named, as what the internet may reach: the analysis is partial, not complete.
    const uncollected = UNCOLLECTED.map((scope) => ({ kind: 'resource', scope, reason: OUTSIDE_TARGETED_SCAN }));
    expect(analysis.status).toBe('partial');
    expect(analysis.unread).toEqual(uncollected);
    expect(analysis.unreadBy).toEqual({ iam: [], network: uncollected, users: [], secrets: [], queues: [] });

    // The queue's path, step by step: anyone sends, the mapping triggers the function, which runs as a role that
    // reads secrets, each step with what shows it.
    const queuePath = analysis.paths.find((p) => p.rule === 'public_queue_function_reads_secrets');
    expect(queuePath?.edges.map((e) => [e.from, e.to, e.evidence])).toEqual([
      ['internet', triggered.intake, [`resource:${triggered.intake}#Anyone`]],
      [
        triggered.intake,
        triggered.intakeWorker,
        [expect.stringMatching(/^event source mapping [0-9a-f-]+ \(Enabled\)$/)],
      ],
      [triggered.intakeWorker, arn.role('orders-fn'), [arn.role('orders-fn')]],
      [arn.role('orders-fn'), 'secrets', [`inline:${arn.role('orders-fn')}/${INLINE_POLICY}#Secrets`]],
    ]);

    // Each attack-path check fails on exactly its subjects. Those about what the internet reaches carry what was not
    // collected; the others depend on nothing left unread.
    const outcomes = Object.fromEntries(
      ATTACK_PATH_CHECKS.map((check) => {
        const result = check.evaluate(inventory, context);
        return [
          check.id,
          {
            failing: result.status === 'fail' ? result.resources.map((r) => r.resource).sort() : result.status,
            unread: result.unread ?? [],
          },
        ];
      }),
    );
    const reachedFromInternet = new Set<ToxicRule>([
      'exposed_admin_workload',
      'exposed_imdsv1_admin_workload',
      'public_function_reads_secrets',
    ]);
    expect(outcomes).toEqual({
      'attack_path.privilege_escalation': { failing: [arn.role('ci')], unread: [] },
      ...Object.fromEntries(
        Object.entries(expected).map(([rule, subjects]) => [
          `attack_path.${rule}`,
          { failing: subjects, unread: reachedFromInternet.has(rule as ToxicRule) ? uncollected : [] },
        ]),
      ),
    });
  });
});
