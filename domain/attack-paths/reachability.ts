import type { Collected, Inventory, Unread } from '../scans/inventory';
import { type EntryPoint, INTERNET_NODE, reachEntry } from './entry-point';
import { Exposures, type Workload } from './exposures';
import { loadBalancerExposures } from './load-balancer-reach';
import type { Family } from './network-rules';
import { PathGraph } from './path-graph';
import { type TopologyView, topologyView } from './topology-view';
import { downgrade, NOTHING, type Reach, reachOf, reaches, type Traffic } from './traffic';
import type { InternetExposure, PathEdge } from './types';
import { type WorkloadLookup, workloadLookup } from './workloads';

// Which resources the internet reaches, on which ports, and why (the reason chain of each, from the `internet` node
// through the internet gateway, the subnet and its network ACL, the security group or load balancer, to it):
//
// - An instance: running, with a public IPv4 address (its own or an Elastic IP) or an IPv6 address, in a subnet whose
//   route table (its own association, else its VPC's main table) routes the internet to an internet gateway; the
//   subnet's network ACL admits the traffic in (first entry by rule number; a deny first stops it) and lets the
//   answers out to the clients' ports (1024-65535: ACLs are stateless); and one of its security groups admits it from
//   0.0.0.0/0 or ::/0 (groups are stateful: their outbound rules do not matter).
// - An internet-facing load balancer, the same way on its listeners' ports; and through it, its targets (instances,
//   functions, load balancers) on their target ports (load-balancer-reach.ts).
// - A Lambda function with a function URL whose auth type is NONE, on HTTPS.
// - An API Gateway REST API with a stage, on HTTPS: possible, as its endpoint type (a private API answers only in a
//   VPC) and its methods' authorization are not read.
// - An RDS DB instance marked publicly accessible, placed like an instance in one of its subnet group's subnets
//   (which one is not read: certain only when every one lets the internet through), on its port.
// - An OpenSearch domain outside a VPC whose access policy is open to everyone, on HTTPS (and HTTP without
//   enforced HTTPS). Domains in a VPC and ElastiCache groups get no public address from AWS: they are not exposed.
//
// Certain: every step was read and lets the whole internet through. Possible: a step lets only part of the internet
// through (a narrower public route or range, a wide public range or a prefix list in a group, an ACL that lets only
// some client ports answer, a target whose health is unknown or failing), or was not read (the region's network, the
// subnet's route table or ACL, a group's rules, a load balancer's listeners, a database's placement or port): a
// resource whose way in is known (a public address, an internet-facing scheme, the publicly-accessible flag) is then
// an exposure with certainty 'possible', with the undecided step named in its edge's evidence.
//
// Unread: where the resources themselves are not known, so nothing can be said of them: the regions (and whole
// parts) of the instances, load balancers, RDS instances, OpenSearch domains, Lambda functions, API Gateway stages
// and network topology that were not read; functions whose URLs were not read; databases whose accessibility RDS
// did not report; instances whose profile's role is not known (shown without one). An instance without a public
// IPv4 address in a region whose network was not read may have an IPv6 one: that region is in `unread`.

export interface Reachability {
  exposures: InternetExposure[];
  unread: Unread[];
}

const HTTPS: Traffic = new Map([['tcp', [[443, 443]]]]);
const HTTP_AND_HTTPS: Traffic = new Map([
  [
    'tcp',
    [
      [80, 80],
      [443, 443],
    ],
  ],
]);
const tcpPort = (port: number): Traffic => new Map([['tcp', [[port, port]]]]);

/** The parts whose unread regions leave resources unknown, as the gap is named. */
const SOURCE_PARTS = [
  ['instances', 'EC2 instances'],
  ['networkTopology', 'Network topology'],
  ['loadBalancers', 'Load balancers'],
  ['rdsInstances', 'RDS DB instances'],
  ['opensearchDomains', 'OpenSearch domains'],
  ['lambdaFunctions', 'Lambda functions'],
  ['apiGatewayStages', 'API Gateway stages'],
] as const;

/** A part's gaps: the whole part, or its unread regions (its resources' own unread facets are not about reach). */
export function gapsOf(label: string, part: Collected<unknown>): Unread[] {
  if (part.status !== 'ok') return [{ kind: 'resource', scope: label, reason: part.reason }];
  return (part.unread ?? [])
    .filter((u) => u.kind === 'region')
    .map((u) => ({ kind: 'region', scope: u.scope, reason: `${label}: ${u.reason}` }));
}

/** The chain of a resource reached straight from the internet (a managed endpoint with no VPC between). */
function directGraph(workload: Workload, edge: Omit<PathEdge, 'from' | 'to'>): PathGraph {
  const graph = new PathGraph();
  graph.node(INTERNET_NODE);
  graph.node({ id: workload.resource, kind: workload.kind, label: workload.label, region: workload.region });
  graph.edge({ from: INTERNET_NODE.id, to: workload.resource, ...edge });
  return graph;
}

function instanceExposures(
  inventory: Inventory,
  view: TopologyView,
  workloads: WorkloadLookup,
  exposures: Exposures,
): void {
  if (inventory.instances.status !== 'ok') return;
  for (const instance of inventory.instances.value.instances) {
    if (instance.state !== 'running') continue;
    const placement = view.instance(instance.region, instance.id);
    const families: Family[] = [];
    if (instance.publicIp !== null) families.push('ipv4');
    if (placement?.ipv6) families.push('ipv6');
    if (families.length === 0) continue;
    const entry: EntryPoint = {
      region: instance.region,
      subnetIds: placement ? [placement.subnetId] : null,
      inOneOf: false,
      families,
      groupIds: instance.securityGroupIds,
    };
    const target = { id: instance.id, kind: 'instance' as const, label: instance.id, region: instance.region };
    const { reach, graph } = reachEntry(view, entry, target);
    if (reaches(reach)) exposures.add(workloads.instance(instance), reach, graph);
  }
}

function databaseExposures(inventory: Inventory, view: TopologyView, exposures: Exposures): void {
  if (inventory.rdsInstances.status !== 'ok') return;
  for (const db of inventory.rdsInstances.value.instances) {
    if (db.publiclyAccessible === null) {
      exposures.notRead({
        kind: 'resource',
        scope: db.id,
        reason: 'RDS did not report whether it is publicly accessible: whether the internet reaches it is unknown.',
      });
      continue;
    }
    if (!db.publiclyAccessible) continue;
    const placement = view.database(db.region, db.id);
    const port = placement?.port ?? null;
    const workload: Workload = { resource: db.id, kind: 'database', label: db.id, region: db.region, roleArn: null };
    const { reach, graph } = reachEntry(
      view,
      {
        region: db.region,
        subnetIds: placement?.subnetIds ?? null,
        inOneOf: true,
        families: ['ipv4'],
        groupIds: placement?.securityGroupIds ?? null,
        ...(port === null ? {} : { listens: tcpPort(port) }),
      },
      { id: db.id, kind: 'database', label: db.id, region: db.region },
    );
    // Its port not read: what its groups admit is only an upper bound of what it answers on.
    const answered: Reach = port === null ? downgrade(reach) : reach;
    if (reaches(answered)) exposures.add(workload, answered, graph);
  }
}

function searchDomainExposures(inventory: Inventory, exposures: Exposures): void {
  if (inventory.opensearchDomains.status !== 'ok') return;
  for (const domain of inventory.opensearchDomains.value.domains) {
    if (domain.inVpc || domain.publicStatements?.length === 0) continue;
    const read = domain.publicStatements !== null;
    const traffic = domain.enforceHttps ? HTTPS : HTTP_AND_HTTPS;
    const workload: Workload = {
      resource: domain.arn,
      kind: 'search_domain',
      label: domain.name,
      region: domain.region,
      roleArn: null,
    };
    exposures.add(
      workload,
      read ? reachOf(traffic) : reachOf(NOTHING, traffic),
      directGraph(workload, {
        label: 'public endpoint, access policy open to everyone',
        evidence: domain.publicStatements ?? ['Its access policy could not be read.'],
        certainty: read ? 'certain' : 'possible',
      }),
    );
  }
}

function functionExposures(inventory: Inventory, exposures: Exposures): void {
  if (inventory.lambdaFunctions.status !== 'ok') return;
  for (const fn of inventory.lambdaFunctions.value.functions) {
    if (!fn.urls.read) {
      exposures.notRead({
        kind: 'resource',
        scope: fn.arn,
        reason: `Its function URLs could not be read: ${fn.urls.reason}`,
      });
      continue;
    }
    const open = fn.urls.urls.filter((u) => u.authType === 'NONE');
    if (open.length === 0) continue;
    const workload: Workload = {
      resource: fn.arn,
      kind: 'function',
      label: fn.name,
      region: fn.region,
      roleArn: fn.roleArn,
    };
    exposures.add(
      workload,
      reachOf(HTTPS),
      directGraph(workload, {
        label: 'function URL without authentication',
        evidence: open.map((u) => `${u.url} (auth type NONE)`),
        certainty: 'certain',
      }),
    );
  }
}

function apiExposures(inventory: Inventory, exposures: Exposures): void {
  if (inventory.apiGatewayStages.status !== 'ok') return;
  const apis = new Map<string, { workload: Workload; stages: string[] }>();
  for (const stage of inventory.apiGatewayStages.value.stages) {
    const key = `${stage.region}/${stage.apiId}`;
    const api = apis.get(key) ?? {
      workload: { resource: stage.apiId, kind: 'api', label: stage.apiName, region: stage.region, roleArn: null },
      stages: [],
    };
    api.stages.push(stage.stage);
    apis.set(key, api);
  }
  for (const { workload, stages } of apis.values())
    exposures.add(
      workload,
      reachOf(NOTHING, HTTPS),
      directGraph(workload, {
        label: 'API Gateway stage',
        evidence: [
          ...stages.map((s) => `stage ${s}`),
          "Its endpoint type (a private API answers only inside a VPC) and its methods' authorization are not read.",
        ],
        certainty: 'possible',
      }),
    );
}

/** What the internet reaches in the account, on which ports and why; and what could not be read to tell. */
export function internetExposures(inventory: Inventory): Reachability {
  const view = topologyView(inventory.networkTopology);
  const exposures = new Exposures();
  for (const [part, label] of SOURCE_PARTS) for (const gap of gapsOf(label, inventory[part])) exposures.notRead(gap);
  const workloads = workloadLookup(inventory, exposures);
  instanceExposures(inventory, view, workloads, exposures);
  loadBalancerExposures(inventory, view, workloads, exposures);
  databaseExposures(inventory, view, exposures);
  searchDomainExposures(inventory, exposures);
  functionExposures(inventory, exposures);
  apiExposures(inventory, exposures);
  return { exposures: exposures.list(), unread: exposures.unread };
}
