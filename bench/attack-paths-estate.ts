import { sandboxInventory } from '../cloud/sandbox/inventory';
import type { IamAuthorization, PolicyJson } from '../domain/scans/iam-authorization';
import type { Instance, Inventory } from '../domain/scans/inventory';
import type { NetworkTopology } from '../domain/scans/network-topology';

// A large account's estate for the attack-path analysis, built in memory: the large-account benchmark's shape (its
// users and security groups), with roles, customer managed policies, instances and subnets around them. A fixed
// pseudo-random draw, so every run analyses the same estate. The sandbox account underneath gives every other part.

export interface EstateSize {
  users: number;
  roles: number;
  policies: number;
  securityGroups: number;
  instances: number;
}

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const AT = new Date('2026-12-01T00:00:00.000Z');
const ADMIN = 'arn:aws:iam::aws:policy/AdministratorAccess';
const READ_ONLY = 'arn:aws:iam::aws:policy/ReadOnlyAccess';

/** A small deterministic generator (mulberry32): the same estate on every run. */
function draw(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    chance: (p: number) => next() < p,
    int: (max: number) => Math.floor(next() * max),
  };
}

const document = (...Statement: Record<string, unknown>[]): PolicyJson => ({ Version: '2012-10-17', Statement });
const trust = (principal: Record<string, string>) =>
  document({ Effect: 'Allow', Principal: principal, Action: 'sts:AssumeRole' });
const iamArn = (path: string) => `arn:aws:iam::${ACCOUNT}:${path}`;

function iamOf(size: EstateSize, r: ReturnType<typeof draw>): IamAuthorization {
  const policies = Array.from({ length: size.policies }, (_, i) => ({
    arn: iamArn(`policy/app-${i}`),
    name: `app-${i}`,
    document: document(
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: `arn:aws:s3:::bucket-${i}/*` },
      { Effect: 'Allow', Action: 'dynamodb:*', Resource: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/t-${i}` },
      {
        Effect: 'Allow',
        Action: ['sqs:SendMessage', 'sqs:ReceiveMessage'],
        Resource: '*',
        Condition: { Bool: { 'aws:SecureTransport': 'true' } },
      },
    ),
  }));
  const pick = () => policies[r.int(policies.length)]!.arn;
  const groups = Array.from({ length: 20 }, (_, i) => ({
    name: `team-${i}`,
    arn: iamArn(`group/team-${i}`),
    attached: i === 0 ? [ADMIN] : [READ_ONLY, pick(), pick()],
    inline: [],
  }));
  const users = Array.from({ length: size.users }, (_, i) => ({
    name: `user-${i}`,
    arn: iamArn(`user/user-${i}`),
    groups: [`team-${1 + r.int(19)}`],
    attached: r.chance(0.2) ? [pick()] : [],
    // Some users hold what escalates: passing roles to EC2, assuming roles, writing their own policies.
    inline: r.chance(0.05)
      ? [
          {
            name: 'deploy',
            document: document({ Effect: 'Allow', Action: ['iam:PassRole', 'ec2:RunInstances'], Resource: '*' }),
          },
        ]
      : r.chance(0.03)
        ? [{ name: 'assume', document: document({ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: '*' }) }]
        : [],
    boundary: null,
  }));
  const roles = Array.from({ length: size.roles }, (_, i) => {
    const service = i % 5 < 3 ? 'ec2.amazonaws.com' : i % 5 === 3 ? 'lambda.amazonaws.com' : null;
    return {
      name: `role-${i}`,
      arn: iamArn(`role/role-${i}`),
      attached: i % 100 === 0 ? [ADMIN] : [pick(), pick()],
      inline: [],
      boundary: null,
      trust: service ? trust({ Service: service }) : trust({ AWS: iamArn('root') }),
      instanceProfiles: service === 'ec2.amazonaws.com' ? [iamArn(`instance-profile/role-${i}`)] : [],
    };
  });
  return {
    users,
    groups,
    roles,
    policies: [
      ...policies,
      { arn: ADMIN, name: 'AdministratorAccess', document: document({ Effect: 'Allow', Action: '*', Resource: '*' }) },
      {
        arn: READ_ONLY,
        name: 'ReadOnlyAccess',
        document: document({
          Effect: 'Allow',
          Action: ['ec2:Describe*', 's3:Get*', 's3:List*', 'iam:Get*', 'iam:List*'],
          Resource: '*',
        }),
      },
    ],
    serviceControlPolicies: { read: true, levels: [] },
    resourceControlPolicies: { read: true, levels: [] },
  };
}

function networkOf(size: EstateSize, r: ReturnType<typeof draw>, roles: IamAuthorization['roles']) {
  const subnets = Array.from({ length: 100 }, (_, i) => ({
    id: `subnet-${i}`,
    vpcId: `vpc-${i % 10}`,
    region: REGION,
  }));
  const allowAll = { protocol: '-1', fromPort: null, toPort: null, cidr: '0.0.0.0/0', action: 'allow' as const };
  const groups = Array.from({ length: size.securityGroups }, (_, i) => ({
    id: `sg-${i}`,
    vpcId: `vpc-${i % 10}`,
    region: REGION,
    rules: [
      {
        direction: 'inbound' as const,
        protocol: 'tcp',
        fromPort: 443,
        toPort: 443,
        peer: i % 7 === 0 ? '0.0.0.0/0' : '10.0.0.0/8',
      },
      {
        direction: 'inbound' as const,
        protocol: 'tcp',
        fromPort: 22,
        toPort: 22,
        peer: i % 50 === 0 ? '0.0.0.0/0' : `sg-${r.int(size.securityGroups)}`,
      },
      { direction: 'outbound' as const, protocol: '-1', fromPort: null, toPort: null, peer: '0.0.0.0/0' },
    ],
  }));
  const ec2Roles = roles.filter((role) => role.instanceProfiles.length > 0);
  const instances: Instance[] = Array.from({ length: size.instances }, (_, i) => ({
    id: `i-${i.toString(16).padStart(8, '0')}`,
    region: REGION,
    type: 'm7g.large',
    state: 'running',
    launchedAt: '2026-06-01T00:00:00.000Z',
    metadata: { httpTokens: i % 4 === 0 ? 'optional' : 'required', httpEndpoint: 'enabled' },
    instanceProfileArn: ec2Roles.length > 0 ? (ec2Roles[r.int(ec2Roles.length)]!.instanceProfiles[0] ?? null) : null,
    publicIp: r.chance(0.3) ? `198.51.${(i >> 8) & 255}.${i & 255}` : null,
    securityGroupIds: [`sg-${r.int(size.securityGroups)}`, `sg-${r.int(size.securityGroups)}`],
  }));
  const topology: NetworkTopology = {
    subnets,
    routeTables: Array.from({ length: 10 }, (_, v) => ({
      id: `rtb-${v}`,
      vpcId: `vpc-${v}`,
      region: REGION,
      main: true,
      subnetIds: [],
      internetRoutes: v < 5 ? [{ destination: '0.0.0.0/0', gatewayId: `igw-${v}` }] : [],
    })),
    networkAcls: Array.from({ length: 10 }, (_, v) => ({
      id: `acl-${v}`,
      vpcId: `vpc-${v}`,
      region: REGION,
      subnetIds: subnets.filter((s) => s.vpcId === `vpc-${v}`).map((s) => s.id),
      entries: [
        { ...allowAll, ruleNumber: 100, egress: false },
        { ...allowAll, ruleNumber: 100, egress: true },
      ],
    })),
    securityGroups: groups,
    instances: instances.map((instance, i) => ({
      id: instance.id,
      region: REGION,
      subnetId: subnets[i % subnets.length]!.id,
      ipv6: false,
    })),
    loadBalancers: [],
    databases: [],
    caches: [],
    searchDomains: [],
  };
  return { topology, instances };
}

/** The estate of one size: the sandbox account with its IAM, network and instances replaced by the large ones. */
export function largeEstate(size: EstateSize): Inventory {
  const r = draw(20_261_207);
  const base = sandboxInventory({ awsAccountId: ACCOUNT, at: AT });
  const iam = iamOf(size, r);
  const { topology, instances } = networkOf(size, r, iam.roles);
  return {
    ...base,
    iamAuthorization: { status: 'ok', value: iam },
    networkTopology: { status: 'ok', value: topology },
    instances: { status: 'ok', value: { instances } },
    instanceProfiles: {
      status: 'ok',
      value: {
        profiles: iam.roles
          .filter((role) => role.instanceProfiles.length > 0)
          .map((role) => ({ name: role.name, arn: role.instanceProfiles[0]!, roles: [role.name] })),
      },
    },
  };
}
