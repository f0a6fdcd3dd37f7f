import type {
  ElastiCacheReplicationGroup,
  Instance,
  LoadBalancer,
  NaclIngress,
  OpenSearchDomain,
  RdsInstance,
  SecurityGroup,
} from '../../domain/scans/inventory';
import type {
  AclEntry,
  GroupRules,
  NetworkTopology,
  RouteTable,
  SecurityGroupRule,
  StorePlacement,
  SubnetAcl,
  VpcSubnet,
} from '../../domain/scans/network-topology';
import { publicIpOf } from './network-exposure';
import { type IdOf, type SandboxNetwork, vpcId } from './network';

// The sandbox account's network as the internet-exposure analysis reads it, built from what the rest of the sandbox
// already shows (its instances, security groups, network ACLs, load balancer and data stores) so the parts agree.
// Each region in use has one VPC with a public subnet (its own route table sends 0.0.0.0/0 to the internet gateway)
// and a private one (on the main table, which routes nothing out): instances with a public address sit in the
// first, the others, the load balancer's targets and the data stores in the second. A region the account does not
// use holds only its default VPC, where the instances launched there (by a thief) land.

export interface TopologySeed {
  idOf: IdOf;
  /** The regions in use, home first: each has the account's VPC. */
  regionsInUse: readonly string[];
  securityGroups: readonly SecurityGroup[];
  instances: readonly Instance[];
  net: SandboxNetwork;
  loadBalancers: readonly LoadBalancer[];
  databases: readonly RdsInstance[];
  caches: readonly ElastiCacheReplicationGroup[];
  searchDomains: readonly OpenSearchDomain[];
}

const ALL_OUT: SecurityGroupRule = {
  direction: 'outbound',
  protocol: '-1',
  fromPort: null,
  toPort: null,
  peer: '0.0.0.0/0',
};

const aclEntry = (ruleNumber: number, egress: boolean, action: 'allow' | 'deny', cidr: string): AclEntry => ({
  ruleNumber,
  egress,
  action,
  protocol: '-1',
  fromPort: null,
  toPort: null,
  cidr,
});

/** The outbound entries AWS creates: everything out, then the catch-all denies. */
const OUT_AS_CREATED: AclEntry[] = [
  aclEntry(100, true, 'allow', '0.0.0.0/0'),
  aclEntry(101, true, 'allow', '::/0'),
  aclEntry(32767, true, 'deny', '0.0.0.0/0'),
  aclEntry(32767, true, 'deny', '::/0'),
];

const inbound = (e: NaclIngress): AclEntry => ({ ...e, egress: false });

const subnetIdOf = (idOf: IdOf, region: string, kind: 'public' | 'private' | 'default') =>
  `subnet-${idOf(region, `${kind}-subnet`)}`;

/** A group that admits its own members and sends anywhere: how AWS creates a VPC's default group. */
const asCreated = (id: string, vpc: string, region: string): GroupRules => ({
  id,
  vpcId: vpc,
  region,
  rules: [{ direction: 'inbound', protocol: '-1', fromPort: null, toPort: null, peer: id }, ALL_OUT],
});

/** The sandbox's groups with the rules it shows (internet-open ones and wide ranges), and their way out. */
function groupRules(seed: TopologySeed): GroupRules[] {
  return seed.securityGroups.map((g): GroupRules => {
    const shown = seed.net.defaultGroups.find((d) => d.id === g.id);
    if (shown) return { id: g.id, vpcId: shown.vpcId, region: g.region, rules: shown.rules };
    // A default group the account emptied has no rule at all.
    const emptied = g.name === 'default' && g.openIngress.length === 0;
    return {
      id: g.id,
      vpcId: vpcId(seed.idOf, g.region),
      region: g.region,
      rules: emptied
        ? []
        : [
            ...g.openIngress.map((r): SecurityGroupRule => ({ direction: 'inbound', ...r, peer: r.cidr })),
            // A wide range on the bastion is a partner's SSH range.
            ...(g.wideRanges ?? []).map(
              (w): SecurityGroupRule =>
                w.direction === 'inbound'
                  ? { direction: 'inbound', protocol: 'tcp', fromPort: 22, toPort: 22, peer: w.cidr }
                  : { ...ALL_OUT, peer: w.cidr },
            ),
            ALL_OUT,
          ],
    };
  });
}

/** A group of the data tier: its port, from the web tier's group only. */
function tierGroup(seed: TopologySeed, region: string, tier: string, port: number): GroupRules {
  return {
    id: `sg-${seed.idOf(region, tier)}`,
    vpcId: vpcId(seed.idOf, region),
    region,
    rules: [
      { direction: 'inbound', protocol: 'tcp', fromPort: port, toPort: port, peer: `sg-${seed.idOf(region, 'web')}` },
      ALL_OUT,
    ],
  };
}

const enginePort = (engine: string) => (engine.includes('mysql') || engine === 'mariadb' ? 3306 : 5432);

export function sandboxNetworkTopology(seed: TopologySeed): NetworkTopology {
  const { idOf, regionsInUse } = seed;
  const inUse = new Set(regionsInUse);
  const elsewhere = [...new Set(seed.instances.map((i) => i.region).filter((r) => !inUse.has(r)))];
  const subnets: VpcSubnet[] = [
    ...regionsInUse.flatMap((region) =>
      (['public', 'private'] as const).map((kind) => ({
        id: subnetIdOf(idOf, region, kind),
        vpcId: vpcId(idOf, region),
        region,
      })),
    ),
    ...elsewhere.map((region) => ({
      id: subnetIdOf(idOf, region, 'default'),
      vpcId: `vpc-${idOf(region, 'default-vpc')}`,
      region,
    })),
  ];
  const toInternet = (region: string) => [{ destination: '0.0.0.0/0', gatewayId: `igw-${idOf(region, 'igw')}` }];
  const routeTables: RouteTable[] = [
    ...regionsInUse.flatMap((region): RouteTable[] => [
      {
        id: `rtb-${idOf(region, 'main-rtb')}`,
        vpcId: vpcId(idOf, region),
        region,
        main: true,
        subnetIds: [],
        internetRoutes: [],
      },
      {
        id: `rtb-${idOf(region, 'public-rtb')}`,
        vpcId: vpcId(idOf, region),
        region,
        main: false,
        subnetIds: [subnetIdOf(idOf, region, 'public')],
        internetRoutes: toInternet(region),
      },
    ]),
    // A default VPC's main table routes out: its subnets are public.
    ...elsewhere.map((region) => ({
      id: `rtb-${idOf(region, 'default-rtb')}`,
      vpcId: `vpc-${idOf(region, 'default-vpc')}`,
      region,
      main: true,
      subnetIds: [],
      internetRoutes: toInternet(region),
    })),
  ];
  const networkAcls: SubnetAcl[] = [
    ...seed.net.acls
      .filter((acl) => inUse.has(acl.region))
      .map((acl) => ({
        id: acl.id,
        vpcId: acl.vpcId,
        region: acl.region,
        subnetIds: [subnetIdOf(idOf, acl.region, 'public'), subnetIdOf(idOf, acl.region, 'private')],
        entries: [...acl.internetIngress.map(inbound), ...OUT_AS_CREATED],
      })),
    ...elsewhere.map((region) => ({
      id: `acl-${idOf(region, 'default-acl')}`,
      vpcId: `vpc-${idOf(region, 'default-vpc')}`,
      region,
      subnetIds: [subnetIdOf(idOf, region, 'default')],
      entries: [...OUT_AS_CREATED.map((e) => ({ ...e, egress: false })), ...OUT_AS_CREATED],
    })),
  ];
  const placeIn = (region: string, publicAddress: boolean) =>
    subnetIdOf(idOf, region, inUse.has(region) ? (publicAddress ? 'public' : 'private') : 'default');
  const instances = seed.instances.map((i) => ({
    id: i.id,
    region: i.region,
    subnetId: placeIn(i.region, i.publicIp !== null),
    ipv6: false,
  }));

  // The web tier's load balancer forwards to the instances behind it: those of its region in the web group.
  const loadBalancers = seed.loadBalancers
    .filter((lb) => lb.internetFacing)
    .map((lb) => {
      const web = `sg-${idOf(lb.region, 'web')}`;
      const account = lb.arn.split(':')[4] ?? '';
      const targets = seed.instances.filter(
        (i) => i.region === lb.region && i.publicIp === null && i.securityGroupIds.includes(web),
      );
      return {
        arn: lb.arn,
        region: lb.region,
        subnetIds: [subnetIdOf(idOf, lb.region, 'public')],
        securityGroupIds: [web],
        ipv6: false,
        targetGroups: [
          {
            arn: `arn:aws:elasticloadbalancing:${lb.region}:${account}:targetgroup/app/${idOf(lb.region, 'tg').slice(0, 16)}`,
            name: 'app',
            protocol: 'HTTPS',
            port: 443,
            // A stopped instance is not used: its health checks are not even sent.
            targets: targets.map((i) => ({
              id: i.id,
              port: null,
              health: i.state === 'running' ? 'healthy' : 'unused',
            })),
          },
        ],
      };
    });

  const placed = (id: string, region: string, tier: string, port: number): StorePlacement => ({
    id,
    region,
    subnetIds: [subnetIdOf(idOf, region, 'private')],
    securityGroupIds: [`sg-${idOf(region, tier)}`],
    port,
  });
  const databases = seed.databases
    .filter((db) => db.vpcId !== null && inUse.has(db.region))
    .map((db) => placed(db.id, db.region, 'database', enginePort(db.engine)));
  const caches = seed.caches.filter((c) => inUse.has(c.region)).map((c) => placed(c.id, c.region, 'cache', 6379));
  const searchDomains = seed.searchDomains
    .filter((d) => d.inVpc && inUse.has(d.region))
    .map((d) => placed(d.name, d.region, 'search', 443));

  // Every group something placed here is in: the sandbox's own, the data tiers', and default groups elsewhere.
  const groups = new Map(groupRules(seed).map((g) => [`${g.region}/${g.id}`, g]));
  const tiers: [string, number, StorePlacement[]][] = [
    ['database', 5432, databases],
    ['cache', 6379, caches],
    ['search', 443, searchDomains],
  ];
  for (const [tier, port, stores] of tiers)
    for (const store of stores) {
      const group = tierGroup(seed, store.region, tier, store.port ?? port);
      groups.set(`${group.region}/${group.id}`, group);
    }
  for (const i of seed.instances)
    for (const id of i.securityGroupIds)
      if (!groups.has(`${i.region}/${id}`))
        groups.set(`${i.region}/${id}`, asCreated(id, `vpc-${idOf(i.region, 'default-vpc')}`, i.region));

  return {
    subnets,
    routeTables,
    networkAcls,
    securityGroups: [...groups.values()],
    instances,
    loadBalancers,
    databases,
    caches,
    searchDomains,
  };
}

/**
 * A web server launched from an old launch template before the team required IMDSv2, given an Elastic IP to skip the
 * load balancer while debugging, still holding the application's role: the internet reaches it on HTTPS, and a
 * request forgery in its application hands out the role's keys. Drawn at the odds of a neglected account.
 */
export function withLegacyWebServer(
  instances: Instance[],
  {
    idOf,
    home,
    launchedAt,
    instanceProfileArn,
    random,
    neglect,
  }: {
    idOf: IdOf;
    home: string;
    launchedAt: string;
    instanceProfileArn: string;
    random: () => number;
    neglect: number;
  },
): void {
  if (random() >= 0.8 * neglect) return;
  instances.push({
    id: `i-${idOf(home, 'legacy-web')}`,
    region: home,
    type: 't3.small',
    state: 'running',
    launchedAt,
    metadata: { httpTokens: 'optional', httpEndpoint: 'enabled' },
    instanceProfileArn,
    publicIp: publicIpOf(idOf, home, 'legacy-web'),
    securityGroupIds: [`sg-${idOf(home, 'web')}`],
  });
}

/** The topology without what sits in a region Sentinel may not read. */
export function readableTopology(
  topology: NetworkTopology,
  readable: <T extends { region: string }>(items: T[]) => T[],
): NetworkTopology {
  return {
    subnets: readable(topology.subnets),
    routeTables: readable(topology.routeTables),
    networkAcls: readable(topology.networkAcls),
    securityGroups: readable(topology.securityGroups),
    instances: readable(topology.instances),
    loadBalancers: readable(topology.loadBalancers),
    databases: readable(topology.databases),
    caches: readable(topology.caches),
    searchDomains: readable(topology.searchDomains),
  };
}
