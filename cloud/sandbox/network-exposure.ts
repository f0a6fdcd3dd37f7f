import type {
  EndpointService,
  Instance,
  InstanceMetadataDefaults,
  LoadBalancer,
  PublicIpSubnet,
  SecurityGroup,
  TransitGateway,
  VpcEndpoint,
} from '../../domain/scans/inventory';
import type { IdOf } from './network';

// What the sandbox's accounts expose to the internet on EC2 beyond their web tier's HTTPS: a database server given
// a public address, a development server's ports, a public web server holding a role, an old FTP and Telnet box.
// Each account has none, one or two of them, drawn from its own stream so the other issues stay as they were.

export interface ExposableEc2 {
  securityGroups: SecurityGroup[];
  instances: Instance[];
}

export interface ExposureContext {
  idOf: IdOf;
  /** The region the exposed resources are in (the account's home region). */
  region: string;
  /** When the instances were launched. */
  launchedAt: string;
  /** The profile of the account's application instances. */
  instanceProfileArn: string;
  random: () => number;
  /** The multiplier on each exposure's odds (cloud/sandbox/upkeep.ts): how neglected the account is. */
  neglect: number;
}

/** A public IPv4 address in an EC2 range, from the keys that name it. */
export function publicIpOf(idOf: IdOf, ...keys: (string | number)[]): string {
  const octets = idOf(...keys, 'ip')
    .slice(0, 6)
    .match(/../g)
    ?.map((hex) => Number.parseInt(hex, 16) % 250) ?? [0, 0, 0];
  return `3.${octets.join('.')}`;
}

interface Exposure {
  name: string;
  apply(ec2: ExposableEc2, ctx: ExposureContext): void;
}

const DATABASES = [
  { name: 'mysql', port: 3306 },
  { name: 'postgres', port: 5432 },
  { name: 'mongodb', port: 27017 },
  { name: 'redis', port: 6379 },
  { name: 'elasticsearch', port: 9200 },
] as const;

function openGroup(ec2: ExposableEc2, ctx: ExposureContext, name: string, ports: number[]): string {
  const id = `sg-${ctx.idOf(ctx.region, name)}`;
  ec2.securityGroups.push({
    id,
    name,
    region: ctx.region,
    openIngress: ports.map((port) => ({ protocol: 'tcp', fromPort: port, toPort: port, cidr: '0.0.0.0/0' })),
  });
  return id;
}

function publicInstance(
  ec2: ExposableEc2,
  ctx: ExposureContext,
  name: string,
  groupIds: string[],
  instanceProfileArn: string | null,
): void {
  ec2.instances.push({
    id: `i-${ctx.idOf(ctx.region, name)}`,
    region: ctx.region,
    type: 't3.medium',
    state: 'running',
    launchedAt: ctx.launchedAt,
    metadata: { httpTokens: 'required', httpEndpoint: 'enabled' },
    instanceProfileArn,
    publicIp: publicIpOf(ctx.idOf, ctx.region, name),
    securityGroupIds: groupIds,
  });
}

const EXPOSURES: readonly Exposure[] = [
  {
    // Moved to a public subnet "to let the contractor connect", its port opened to everyone.
    name: 'database server reachable from the internet',
    apply: (ec2, ctx) => {
      const db = DATABASES[Math.floor(ctx.random() * DATABASES.length)] as (typeof DATABASES)[number];
      const group = openGroup(ec2, ctx, `${db.name}-contractor`, [db.port]);
      publicInstance(ec2, ctx, `${db.name}-server`, [group], ctx.instanceProfileArn);
    },
  },
  {
    // A preview environment's development servers, opened to show a customer.
    name: 'development ports open to the internet',
    apply: (ec2, ctx) => {
      openGroup(ec2, ctx, 'dev-preview', [3000, 8080]);
    },
  },
  {
    // A web server given a public address to skip the load balancer, keeping the application's role.
    name: 'public web server with a role',
    apply: (ec2, ctx) => {
      const web = ec2.securityGroups.find((g) => g.name === 'web' && g.region === ctx.region);
      publicInstance(ec2, ctx, 'web-direct', web ? [web.id] : [], ctx.instanceProfileArn);
    },
  },
  {
    // A file-transfer box from before the cloud migration, with FTP and Telnet left on.
    name: 'legacy FTP and Telnet server',
    apply: (ec2, ctx) => {
      const group = openGroup(ec2, ctx, 'legacy-transfer', [21, 23]);
      publicInstance(ec2, ctx, 'legacy-transfer', [group], ctx.instanceProfileArn);
    },
  },
];

/** Applies none, one or two of the exposures to the account's EC2 (two at most; fewer the better it is kept). */
export function exposeNetwork(ec2: ExposableEc2, ctx: ExposureContext): void {
  const count = Math.floor(ctx.random() * 3 * ctx.neglect);
  const order = EXPOSURES.map((e) => ({ e, key: ctx.random() })).sort((a, b) => a.key - b.key);
  for (const { e } of order.slice(0, count)) e.apply(ec2, ctx);
}

/** The account's VPC edges as the sandbox shows them: the parts read beside the instances and groups. */
export interface SandboxVpcEdges {
  metadataDefaults: InstanceMetadataDefaults[];
  subnets: PublicIpSubnet[];
  gateways: TransitGateway[];
  endpoints: VpcEndpoint[];
  services: EndpointService[];
}

/**
 * Drawn from the account's own stream, at the odds of a neglected account (kept ones have fewer issues): about half
 * the accounts require IMDSv2 by default everywhere (the others
 * never set it); some kept a default VPC's public subnet in their home region, some share a transit gateway (half
 * of those accept attachments unreviewed), a third left their S3 endpoint's full-access policy as AWS created it,
 * and a few offer an endpoint service to every AWS account.
 */
export function vpcEdges({
  idOf,
  home,
  enabledRegions,
  random,
  neglect,
}: {
  idOf: IdOf;
  home: string;
  enabledRegions: readonly string[];
  random: () => number;
  /** The multiplier on each issue's odds (cloud/sandbox/upkeep.ts). */
  neglect: number;
}): SandboxVpcEdges {
  const issue = (odds: number) => random() < odds * neglect;
  const requireV2 = !issue(0.5);
  const defaultSubnet = issue(0.4);
  const gateway = random() < 0.25;
  const autoAccept = issue(0.5);
  const openEndpoint = issue(0.35);
  const openService = issue(0.15);
  return {
    metadataDefaults: enabledRegions.map((region) => ({ region, httpTokens: requireV2 ? 'required' : null })),
    subnets: defaultSubnet
      ? [
          {
            id: `subnet-${idOf(home, 'default-subnet')}`,
            vpcId: `vpc-${idOf(home, 'default-vpc')}`,
            region: home,
            defaultForAz: true,
          },
        ]
      : [],
    gateways: gateway
      ? [{ id: `tgw-${idOf(home, 'tgw')}`, region: home, autoAcceptSharedAttachments: autoAccept }]
      : [],
    endpoints: [
      {
        id: `vpce-${idOf(home, 's3-endpoint')}`,
        vpcId: `vpc-${idOf(home, 'vpc')}`,
        region: home,
        serviceName: `com.amazonaws.${home}.s3`,
        beyondAccount: openEndpoint ? ['A statement allows * to every principal'] : [],
      },
    ],
    services: openService
      ? [
          {
            id: `vpce-svc-${idOf(home, 'endpoint-service')}`,
            region: home,
            serviceName: `com.amazonaws.vpce.${home}.vpce-svc-${idOf(home, 'endpoint-service')}`,
            outsidePrincipals: ['*'],
          },
        ]
      : [],
  };
}

/**
 * The account's web load balancer in its home region, drawn from its own stream: most redirect HTTP to HTTPS on a
 * current TLS policy with deletion protection on; some forward plain HTTP, keep the 2016 TLS policy, pass invalid
 * headers on in monitor mode, or can be deleted by one call.
 */
export function sandboxLoadBalancers({
  idOf,
  home,
  accountId,
  random,
  neglect,
}: {
  idOf: IdOf;
  home: string;
  accountId: string;
  random: () => number;
  /** The multiplier on each issue's odds (cloud/sandbox/upkeep.ts). */
  neglect: number;
}): LoadBalancer[] {
  const issue = (odds: number) => random() < odds * neglect;
  const arn = `arn:aws:elasticloadbalancing:${home}:${accountId}:loadbalancer/app/web/${idOf(home, 'alb').slice(0, 16)}`;
  const plainHttp = issue(0.3);
  const oldTls = issue(0.3);
  const monitorOnly = issue(0.3);
  const deletable = issue(0.4);
  return [
    {
      arn,
      name: 'web',
      region: home,
      type: 'application',
      internetFacing: true,
      attributes: {
        deletionProtection: !deletable,
        dropInvalidHeaderFields: !monitorOnly,
        desyncMitigationMode: monitorOnly ? 'monitor' : 'defensive',
      },
      listeners: [
        { arn: `${arn}/listener/80`, port: 80, protocol: 'HTTP', sslPolicy: null, redirectsToHttps: !plainHttp },
        {
          arn: `${arn}/listener/443`,
          port: 443,
          protocol: 'HTTPS',
          sslPolicy: oldTls ? 'ELBSecurityPolicy-2016-08' : 'ELBSecurityPolicy-TLS13-1-2-2021-06',
          redirectsToHttps: false,
        },
      ],
    },
  ];
}
