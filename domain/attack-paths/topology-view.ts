import type { Collected } from '../scans/inventory';
import type {
  GroupRules,
  InstancePlacement,
  LoadBalancerPlacement,
  NetworkTopology,
  RouteTable,
  StorePlacement,
  SubnetAcl,
  VpcSubnet,
} from '../scans/network-topology';

// The network topology part indexed for lookups by region and id, and what of it was not read.

export interface TopologyView {
  /** Why the region's network was not read; null: it was. */
  unreadReason(region: string): string | null;
  subnet(region: string, id: string): VpcSubnet | undefined;
  /** The table a subnet uses: the one associated with it, else its VPC's main table. */
  routeTableOf(subnet: VpcSubnet): { table: RouteTable; explicit: boolean } | undefined;
  aclOf(region: string, subnetId: string): SubnetAcl | undefined;
  group(region: string, id: string): GroupRules | undefined;
  instance(region: string, id: string): InstancePlacement | undefined;
  loadBalancer(region: string, arn: string): LoadBalancerPlacement | undefined;
  database(region: string, id: string): StorePlacement | undefined;
}

const key = (region: string, id: string) => `${region}/${id}`;

function byKey<T extends { region: string }>(items: readonly T[], idOf: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [key(item.region, idOf(item)), item]));
}

export function topologyView(part: Collected<NetworkTopology>): TopologyView {
  if (part.status !== 'ok') {
    const none = () => undefined;
    return {
      unreadReason: () => part.reason,
      subnet: none,
      routeTableOf: none,
      aclOf: none,
      group: none,
      instance: none,
      loadBalancer: none,
      database: none,
    };
  }
  const topology = part.value;
  const unreadRegions = new Map(
    (part.unread ?? []).filter((u) => u.kind === 'region').map((u) => [u.scope, u.reason] as const),
  );
  const explicit = new Map<string, RouteTable>();
  const main = new Map<string, RouteTable>();
  for (const table of topology.routeTables) {
    for (const subnetId of table.subnetIds) explicit.set(key(table.region, subnetId), table);
    if (table.main) main.set(key(table.region, table.vpcId), table);
  }
  const acls = new Map<string, SubnetAcl>();
  for (const acl of topology.networkAcls)
    for (const subnetId of acl.subnetIds) acls.set(key(acl.region, subnetId), acl);
  const subnets = byKey(topology.subnets, (s) => s.id);
  const groups = byKey(topology.securityGroups, (g) => g.id);
  const instances = byKey(topology.instances, (i) => i.id);
  const loadBalancers = byKey(topology.loadBalancers, (lb) => lb.arn);
  const databases = byKey(topology.databases, (db) => db.id);
  return {
    unreadReason: (region) => unreadRegions.get(region) ?? null,
    subnet: (region, id) => subnets.get(key(region, id)),
    routeTableOf: (subnet) => {
      const associated = explicit.get(key(subnet.region, subnet.id));
      if (associated) return { table: associated, explicit: true };
      const fallback = main.get(key(subnet.region, subnet.vpcId));
      return fallback ? { table: fallback, explicit: false } : undefined;
    },
    aclOf: (region, subnetId) => acls.get(key(region, subnetId)),
    group: (region, id) => groups.get(key(region, id)),
    instance: (region, id) => instances.get(key(region, id)),
    loadBalancer: (region, arn) => loadBalancers.get(key(region, arn)),
    database: (region, id) => databases.get(key(region, id)),
  };
}
