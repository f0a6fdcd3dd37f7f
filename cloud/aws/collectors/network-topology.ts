import {
  paginateDescribeRouteTables,
  paginateDescribeSecurityGroups,
  type RouteTable as AwsRouteTable,
} from '@aws-sdk/client-ec2';
import type { Unread } from '../../../domain/scans/inventory';
import type {
  GroupRules,
  InstancePlacement,
  NetworkTopology,
  RouteTable,
  VpcSubnet,
} from '../../../domain/scans/network-topology';
import { mapLimit, settleAll } from './concurrency';
import { ec2In, listedInstancesIn, rulesOf } from './ec2';
import {
  cachePlacements,
  databasePlacements,
  loadBalancerPlacements,
  placedOrUnread,
  searchDomainPlacements,
} from './network-placements';
import { foldPages, type ReadContext, regionalPart } from './reader';
import { networkAclsIn } from './vpc';
import { subnetsIn } from './vpc-edges';

// The network the internet-exposure analysis follows (domain/scans/network-topology.ts), region by region: subnets,
// route tables (their routes to internet gateways only), network ACLs with every entry, where instances, internet-
// facing load balancers, databases, caches and search domains sit (network-placements.ts), and then the security
// groups those are in, asked for by id: of an account's thousands of groups only those in use by what is placed
// here are read and kept. The subnets, network ACLs and instances (like the load balancers, DB instances and
// domains) are the listings other parts make too, made once a collection attempt for all of them (ReadContext.shared):
// only the route tables, the groups in use and the placements' own reads are this part's calls.

/** Group ids one DescribeSecurityGroups filter takes (AWS accepts up to 200 values a filter). */
const GROUPS_PER_CALL = 200;
const GROUP_CALL_CONCURRENCY = 2;

type EC2 = ReturnType<typeof ec2In>;

const defined = <T>(values: (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);

function routeTableOf(table: AwsRouteTable, region: string): RouteTable {
  const associations = (table.Associations ?? []).filter(
    (a) => a.AssociationState?.State === undefined || a.AssociationState.State === 'associated',
  );
  return {
    id: table.RouteTableId ?? '',
    vpcId: table.VpcId ?? '',
    region,
    main: associations.some((a) => a.Main === true),
    subnetIds: defined(associations.map((a) => a.SubnetId)),
    // A blackhole route's gateway is gone: it sends nothing anywhere.
    internetRoutes: (table.Routes ?? []).flatMap((r) => {
      const destination = r.DestinationCidrBlock ?? r.DestinationIpv6CidrBlock ?? r.DestinationPrefixListId;
      return r.GatewayId?.startsWith('igw-') && destination && r.State !== 'blackhole'
        ? [{ destination, gatewayId: r.GatewayId }]
        : [];
    }),
  };
}

interface InstancesRead {
  placements: InstancePlacement[];
  groupIds: Set<string>;
}

/** Where the region's instances sit, terminated ones left out, and the groups they are in. */
async function instancePlacementsIn(ctx: ReadContext, region: string): Promise<InstancesRead> {
  const read: InstancesRead = { placements: [], groupIds: new Set() };
  for (const { instance, subnetId, ipv6 } of await listedInstancesIn(ctx, region)) {
    if (instance.state === 'terminated' || !instance.id || !subnetId) continue;
    read.placements.push({ id: instance.id, region, subnetId, ipv6 });
    for (const id of instance.securityGroupIds) read.groupIds.add(id);
  }
  return read;
}

/** The region's subnets, by id and VPC. */
const vpcSubnetsIn = async (ctx: ReadContext, region: string): Promise<VpcSubnet[]> =>
  (await subnetsIn(ctx, region)).map(({ id, vpcId }) => ({ id, vpcId, region }));

/** The groups of `ids`, with all their rules, asked for by id (a group deleted since it was named is not found). */
async function groupsIn(ec2: EC2, region: string, ids: Set<string>): Promise<GroupRules[]> {
  const all = [...ids].sort();
  const chunks = Array.from({ length: Math.ceil(all.length / GROUPS_PER_CALL) }, (_, i) =>
    all.slice(i * GROUPS_PER_CALL, (i + 1) * GROUPS_PER_CALL),
  );
  const read = await mapLimit({
    items: chunks,
    limit: GROUP_CALL_CONCURRENCY,
    run: (chunk) =>
      foldPages(
        paginateDescribeSecurityGroups({ client: ec2 }, { Filters: [{ Name: 'group-id', Values: chunk }] }),
        [] as GroupRules[],
        (into, page) => {
          for (const g of page.SecurityGroups ?? [])
            if (g.GroupId)
              into.push({
                id: g.GroupId,
                vpcId: g.VpcId ?? '',
                region,
                rules: [
                  ...(g.IpPermissions ?? []).flatMap((p) => rulesOf('inbound', p)),
                  ...(g.IpPermissionsEgress ?? []).flatMap((p) => rulesOf('outbound', p)),
                ],
              });
          return into;
        },
      ),
  });
  return read.flat();
}

interface Slice {
  topology: NetworkTopology;
  unread: Unread[];
}

async function readRegion(ctx: ReadContext, region: string): Promise<Slice> {
  const ec2 = ec2In(ctx.session, region);
  const [subnets, routeTables, networkAcls, instances, loadBalancers, databases, caches, searchDomains] =
    await settleAll([
      vpcSubnetsIn(ctx, region),
      foldPages(paginateDescribeRouteTables({ client: ec2 }, {}), [] as RouteTable[], (into, page) => {
        for (const table of page.RouteTables ?? []) into.push(routeTableOf(table, region));
        return into;
      }),
      networkAclsIn(ctx, region),
      instancePlacementsIn(ctx, region),
      placedOrUnread('Elastic Load Balancing load balancers', region, () => loadBalancerPlacements(ctx, region)),
      placedOrUnread('RDS DB instances', region, () => databasePlacements(ctx, region)),
      placedOrUnread('ElastiCache clusters', region, () => cachePlacements(ctx, region)),
      placedOrUnread('OpenSearch domains', region, () => searchDomainPlacements(ctx, region)),
    ]);
  const groupIds = new Set(instances.groupIds);
  for (const placed of [...loadBalancers.items, ...databases.items, ...caches.items, ...searchDomains.items])
    for (const id of placed.securityGroupIds) groupIds.add(id);
  const securityGroups = groupIds.size > 0 ? await groupsIn(ec2, region, groupIds) : [];
  return {
    topology: {
      subnets,
      routeTables,
      networkAcls,
      securityGroups,
      instances: instances.placements,
      loadBalancers: loadBalancers.items,
      databases: databases.items,
      caches: caches.items,
      searchDomains: searchDomains.items,
    },
    unread: [...loadBalancers.unread, ...databases.unread, ...caches.unread, ...searchDomains.unread],
  };
}

export const networkTopologyPart = regionalPart({
  part: 'networkTopology',
  read: readRegion,
  unreadIn: (slice) => slice.unread,
  assemble: (slices): NetworkTopology => {
    const regions = slices.map((s) => s.topology);
    return {
      subnets: regions.flatMap((t) => t.subnets),
      routeTables: regions.flatMap((t) => t.routeTables),
      networkAcls: regions.flatMap((t) => t.networkAcls),
      securityGroups: regions.flatMap((t) => t.securityGroups),
      instances: regions.flatMap((t) => t.instances),
      loadBalancers: regions.flatMap((t) => t.loadBalancers),
      databases: regions.flatMap((t) => t.databases),
      caches: regions.flatMap((t) => t.caches),
      searchDomains: regions.flatMap((t) => t.searchDomains),
    };
  },
});
