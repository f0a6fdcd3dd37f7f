import type { Inventory, LoadBalancerListener } from '../scans/inventory';
import type { LoadBalancerPlacement, LoadBalancerTarget, TargetGroupTargets } from '../scans/network-topology';
import { reachEntry } from './entry-point';
import type { Exposures } from './exposures';
import { PathGraph } from './path-graph';
import type { TopologyView } from './topology-view';
import {
  anyOf,
  downgrade,
  isEmpty,
  NOTHING,
  portsOf,
  type Reach,
  reachOf,
  reaches,
  type Traffic,
  union,
} from './traffic';
import type { PathNode } from './types';
import type { WorkloadLookup } from './workloads';

// Internet-facing load balancers, and what they forward to. A load balancer is reached like an instance (its
// subnets' routes and ACLs, its security groups), on its listeners' ports. Its targets are reached through it on
// their own ports: with certainty when the load balancer is and the target's health checks pass (the load balancer
// does get to it), possibly while its health is unknown, failing or not yet checked. A target that is draining or
// not used (a stopped instance, a zone the load balancer does not serve) gets nothing. A target group counts as
// reached through any listener the internet reaches: which listener rules forward to it is not read.

/** A listener's or target group's protocol as the IP protocols it carries. */
function trafficOn(protocol: string | null, port: number): Traffic {
  const tcp: Traffic = new Map([['tcp', [[port, port]]]]);
  const udp: Traffic = new Map([['udp', [[port, port]]]]);
  switch ((protocol ?? 'TCP').toUpperCase()) {
    case 'UDP':
    case 'GENEVE':
      return udp;
    case 'TCP_UDP':
      return union(tcp, udp);
    default:
      return tcp;
  }
}

const listenerTraffic = (listeners: readonly LoadBalancerListener[]): Traffic =>
  listeners.reduce((all, l) => union(all, trafficOn(l.protocol, l.port)), NOTHING);

interface FacingBalancer {
  arn: string;
  name: string;
  region: string;
  /** null: not read. */
  listeners: LoadBalancerListener[] | null;
  placement: LoadBalancerPlacement | undefined;
}

/**
 * The internet-facing load balancers: those the load balancer part names so, and those the topology placed (it keeps
 * internet-facing ones only), so that either part being unread still shows them.
 */
function facingBalancers(inventory: Inventory, view: TopologyView): FacingBalancer[] {
  const found = new Map<string, FacingBalancer>();
  if (inventory.loadBalancers.status === 'ok')
    for (const lb of inventory.loadBalancers.value.loadBalancers)
      if (lb.internetFacing)
        found.set(lb.arn, {
          arn: lb.arn,
          name: lb.name,
          region: lb.region,
          listeners: lb.listeners,
          placement: view.loadBalancer(lb.region, lb.arn),
        });
  if (inventory.networkTopology.status === 'ok')
    for (const placement of inventory.networkTopology.value.loadBalancers)
      if (!found.has(placement.arn))
        found.set(placement.arn, {
          arn: placement.arn,
          name: placement.arn.split('/').at(-2) ?? placement.arn,
          region: placement.region,
          listeners: null,
          placement,
        });
  return [...found.values()];
}

/** What a target gets through the load balancer, by its health. */
function targetReach(balancer: Reach, group: TargetGroupTargets, target: LoadBalancerTarget): Reach | null {
  if (target.health === 'unused' || target.health === 'draining') return null;
  const port = target.port ?? group.port;
  // A Lambda target has no port: it is invoked with what the listeners take.
  const traffic = port === null ? anyOf(balancer) : trafficOn(group.protocol, port);
  return target.health === 'healthy' && !isEmpty(balancer.certain) ? reachOf(traffic) : reachOf(NOTHING, traffic);
}

export function loadBalancerExposures(
  inventory: Inventory,
  view: TopologyView,
  workloads: WorkloadLookup,
  exposures: Exposures,
): void {
  for (const lb of facingBalancers(inventory, view)) {
    const node: PathNode = { id: lb.arn, kind: 'load_balancer', label: lb.name, region: lb.region };
    const { placement } = lb;
    const entered = reachEntry(
      view,
      {
        region: lb.region,
        subnetIds: placement?.subnetIds ?? null,
        inOneOf: false,
        families: placement?.ipv6 ? ['ipv4', 'ipv6'] : ['ipv4'],
        groupIds: placement?.securityGroupIds ?? null,
        unfiltered: placement !== undefined && placement.securityGroupIds.length === 0,
        ...(lb.listeners ? { listens: listenerTraffic(lb.listeners) } : {}),
      },
      node,
    );
    // Listeners not read: what its groups admit is only an upper bound of what it answers on.
    const reach = lb.listeners ? entered.reach : downgrade(entered.reach);
    if (!reaches(reach)) continue;
    exposures.add(
      { resource: lb.arn, kind: 'load_balancer', label: lb.name, region: lb.region, roleArn: null },
      reach,
      entered.graph,
    );
    for (const group of placement?.targetGroups ?? [])
      for (const target of group.targets) {
        const forwarded = targetReach(reach, group, target);
        const workload = workloads.target(target.id, lb.region);
        if (!forwarded || !workload) continue;
        const graph = new PathGraph();
        graph.merge(entered.graph);
        graph.node({ id: workload.resource, kind: workload.kind, label: workload.label, region: workload.region });
        graph.edge({
          from: lb.arn,
          to: workload.resource,
          label: `forwards ${portsOf(anyOf(forwarded)).join(', ')}`,
          evidence: [`target group ${group.name} (${group.arn})`, `health: ${target.health ?? 'not read'}`],
          certainty: isEmpty(forwarded.certain) ? 'possible' : 'certain',
        });
        exposures.add(workload, forwarded, graph);
      }
  }
}
