import type { RouteTable, VpcSubnet } from '../scans/network-topology';
import {
  type Certainty,
  describeAclEntry,
  describeGroupRule,
  type Family,
  groupAdmits,
  internetRouteOf,
  rulesFor,
  throughAcl,
} from './network-rules';
import { PathGraph } from './path-graph';
import type { TopologyView } from './topology-view';
import {
  anyOf,
  downgrade,
  eitherOf,
  EVERYTHING,
  intersect,
  isEmpty,
  join,
  meet,
  NO_REACH,
  NOTHING,
  portsOf,
  type Reach,
  reachOf,
  reaches,
  type Traffic,
  UNDECIDED,
  within,
} from './traffic';
import type { PathNode } from './types';

// How the internet gets to one resource's address in a VPC: through the route of each of its subnets to an
// internet gateway, the subnet's network ACL (in, and the answers back out), and one of its security groups, for the
// traffic the resource answers on. Each step read decides; a step not read (a region, a subnet's table or ACL, a
// group) lets anything through, possibly: what was not read is never concluded closed.

export const INTERNET_NODE: PathNode = { id: 'internet', kind: 'internet', label: 'Internet' };

export interface EntryPoint {
  region: string;
  /** Its subnets; null: where it sits was not read. */
  subnetIds: readonly string[] | null;
  /**
   * false: it answers in each of its subnets, so any of them reaches it (a load balancer's nodes). true: it sits in
   * one of them and which one is not read (a database in its subnet group), so only what all of them let through is
   * certain.
   */
  inOneOf: boolean;
  /** The families it has a public address in. */
  families: readonly Family[];
  /** Its security groups; null: not read. */
  groupIds: readonly string[] | null;
  /** No security group filters it (a Network Load Balancer created without any). */
  unfiltered?: boolean;
  /** What it answers on (a load balancer's listeners, a database's port); absent: whatever its groups admit. */
  listens?: Traffic;
}

interface Gate {
  /** The group's node; absent when nothing or nothing known stands between the subnet and the resource. */
  node?: PathNode;
  reach: Reach;
  label: (traffic: Traffic) => string;
  evidence: (traffic: Traffic) => string[];
}

const certaintyWithin = (reach: Reach, traffic: Traffic): Certainty =>
  isEmpty(intersect(reach.certain, traffic)) ? 'possible' : 'certain';

function gatesOf(view: TopologyView, entry: EntryPoint, family: Family): Gate[] {
  if (entry.unfiltered) return [{ reach: reachOf(EVERYTHING), label: () => 'no security group', evidence: () => [] }];
  if (entry.groupIds === null)
    return [
      {
        reach: UNDECIDED,
        label: () => 'security groups not read',
        evidence: () => ['Its security groups were not read.'],
      },
    ];
  return entry.groupIds.map((id): Gate => {
    const node: PathNode = { id, kind: 'security_group', label: id, region: entry.region };
    const group = view.group(entry.region, id);
    if (!group)
      return {
        node,
        reach: UNDECIDED,
        label: () => 'rules not read',
        evidence: () => [`${id}: its rules were not read.`],
      };
    const { reach, rules } = groupAdmits(group, family);
    return {
      node,
      reach,
      label: (traffic) => `${portsOf(traffic).join(', ')} open`,
      evidence: (traffic) => rulesFor(rules, traffic).map((rule) => describeGroupRule(id, rule)),
    };
  });
}

function routeEvidence(table: { table: RouteTable; explicit: boolean }, subnet: VpcSubnet, destination: string) {
  const gateway = table.table.internetRoutes.find((r) => r.destination === destination)?.gatewayId ?? '';
  const whose = table.explicit ? `associated with ${subnet.id}` : `main table of ${subnet.vpcId}`;
  return `${table.table.id} (${whose}): ${destination} -> ${gateway}`;
}

/** What reaches the resource through one subnet, with the chain drawn into `graph`. */
function throughSubnet(
  view: TopologyView,
  entry: EntryPoint,
  subnetId: string,
  target: PathNode,
  graph: PathGraph,
): Reach {
  const { region } = entry;
  const subnet = view.subnet(region, subnetId);
  const table = subnet ? view.routeTableOf(subnet) : undefined;
  const acl = view.aclOf(region, subnetId);
  let total = NO_REACH;
  for (const family of entry.families) {
    const route = table ? internetRouteOf(table.table.internetRoutes, family) : undefined;
    // Read, and no route to an internet gateway in this family: answers never get back out.
    if (route === null) continue;
    const aclReach = acl ? throughAcl(acl, family, EVERYTHING).reach : UNDECIDED;
    for (const gate of gatesOf(view, entry, family)) {
      let chain = meet(aclReach, gate.reach);
      if (entry.listens) chain = within(chain, entry.listens);
      if (route?.certainty !== 'certain') chain = downgrade(chain);
      if (!reaches(chain)) continue;
      total = join(total, chain);
      const traffic = anyOf(chain);
      graph.node({ id: subnetId, kind: 'subnet', label: subnetId, region });
      // The route, then the subnet's ACL: one edge from the internet when the route was not read.
      let into = INTERNET_NODE.id;
      if (route && table && subnet) {
        into = graph.node({
          id: route.route.gatewayId,
          kind: 'internet_gateway',
          label: route.route.gatewayId,
          region,
        });
        graph.edge({
          from: INTERNET_NODE.id,
          to: into,
          label: `route ${route.route.destination}`,
          evidence: [routeEvidence(table, subnet, route.route.destination)],
          certainty: route.certainty,
        });
      } else
        graph.edge({
          from: INTERNET_NODE.id,
          to: subnetId,
          label: 'route not read',
          evidence: [`No route table of ${subnetId} was read.`],
          certainty: 'possible',
        });
      graph.edge({
        from: into,
        to: subnetId,
        label: acl ? `network ACL ${acl.id}` : 'network ACL not read',
        evidence: acl
          ? throughAcl(acl, family, traffic).entries.map((e) => describeAclEntry(acl.id, e))
          : [`No network ACL of ${subnetId} was read.`],
        certainty: acl ? certaintyWithin(aclReach, traffic) : 'possible',
      });
      if (gate.node) {
        graph.node(gate.node);
        graph.edge({
          from: subnetId,
          to: gate.node.id,
          label: gate.label(traffic),
          evidence: gate.evidence(traffic),
          certainty: certaintyWithin(gate.reach, traffic),
        });
        graph.edge({
          from: gate.node.id,
          to: target.id,
          label: 'protects',
          // The group guards the resource because it is attached to it (the resource's own description lists it).
          evidence: [`${gate.node.id} attached to ${target.id}`],
          certainty: 'certain',
        });
      } else
        graph.edge({
          from: subnetId,
          to: target.id,
          label: gate.label(traffic),
          evidence: gate.evidence(traffic),
          certainty: certaintyWithin(gate.reach, traffic),
        });
    }
  }
  return total;
}

/** What of the internet's traffic reaches the resource, and the chain of steps that lets it through. */
export function reachEntry(
  view: TopologyView,
  entry: EntryPoint,
  target: PathNode,
): { reach: Reach; graph: PathGraph } {
  const graph = new PathGraph();
  graph.node(INTERNET_NODE);
  graph.node(target);
  const unread = view.unreadReason(entry.region);
  if (unread !== null || entry.subnetIds === null) {
    graph.edge({
      from: INTERNET_NODE.id,
      to: target.id,
      label: 'network not read',
      evidence: [unread ?? 'Where it sits in its VPC was not read.'],
      certainty: 'possible',
    });
    return { reach: entry.listens ? reachOf(NOTHING, entry.listens) : UNDECIDED, graph };
  }
  let total: Reach | null = null;
  for (const subnetId of entry.subnetIds) {
    const reach = throughSubnet(view, entry, subnetId, target, graph);
    total = total === null ? reach : entry.inOneOf ? eitherOf(total, reach) : join(total, reach);
  }
  return { reach: total ?? NO_REACH, graph };
}
