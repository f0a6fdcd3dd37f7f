import type { Unread } from '../scans/inventory';
import { PathGraph } from './path-graph';
import { anyOf, isEmpty, join, portsOf, type Reach } from './traffic';
import type { InternetExposure, PathNodeKind } from './types';

// The exposures found so far, one per resource: a resource the internet reaches more than one way (its own address
// and a load balancer, two address families) is one exposure, with every way in its chain and every port.

/** What an exposure is of, before its ports and chain. */
export interface Workload {
  resource: string;
  kind: PathNodeKind;
  label: string;
  region: string;
  roleArn: string | null;
  imdsV1?: boolean;
}

interface Found extends Workload {
  reach: Reach;
  graph: PathGraph;
}

export class Exposures {
  private readonly byResource = new Map<string, Found>();
  readonly unread: Unread[] = [];
  private readonly unreadScopes = new Set<string>();

  add(workload: Workload, reach: Reach, graph: PathGraph): void {
    const known = this.byResource.get(workload.resource);
    if (!known) {
      const own = new PathGraph();
      own.merge(graph);
      this.byResource.set(workload.resource, { ...workload, reach, graph: own });
      return;
    }
    known.reach = join(known.reach, reach);
    known.graph.merge(graph);
    known.roleArn ??= workload.roleArn;
    known.imdsV1 ??= workload.imdsV1;
  }

  /** Names something not read, once per scope and reason. */
  notRead(entry: Unread): void {
    const key = `${entry.kind}\u0000${entry.scope}\u0000${entry.reason}`;
    if (this.unreadScopes.has(key)) return;
    this.unreadScopes.add(key);
    this.unread.push(entry);
  }

  list(): InternetExposure[] {
    return [...this.byResource.values()]
      .sort((a, b) => a.region.localeCompare(b.region) || a.resource.localeCompare(b.resource))
      .map(({ reach, graph, imdsV1, ...workload }) => {
        const { nodes, edges } = graph.toPath();
        return {
          ...workload,
          ports: portsOf(anyOf(reach)),
          ...(isEmpty(reach.possible) ? {} : { possiblePorts: portsOf(reach.possible) }),
          ...(imdsV1 === undefined ? {} : { imdsV1 }),
          nodes,
          edges,
          certainty: isEmpty(reach.certain) ? 'possible' : 'certain',
        };
      });
  }
}
