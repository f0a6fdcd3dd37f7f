import type { PathEdge, PathNode } from './types';

// The nodes and edges of one exposure's reason chain, each once: a step reached more than one way (two address
// families, two groups, a load balancer and a direct address) is one node, and one edge per pair of nodes with the
// evidence of every way.

export class PathGraph {
  private readonly nodes = new Map<string, PathNode>();
  private readonly edges = new Map<string, PathEdge>();

  node(node: PathNode): string {
    if (!this.nodes.has(node.id)) this.nodes.set(node.id, node);
    return node.id;
  }

  edge(edge: PathEdge): void {
    const key = `${edge.from}\u0000${edge.to}`;
    const known = this.edges.get(key);
    if (!known) {
      this.edges.set(key, { ...edge, evidence: [...new Set(edge.evidence)] });
      return;
    }
    known.evidence = [...new Set([...known.evidence, ...edge.evidence])];
    if (edge.certainty === 'certain') known.certainty = 'certain';
  }

  merge(other: PathGraph): void {
    for (const node of other.nodes.values()) this.node(node);
    for (const edge of other.edges.values()) this.edge(edge);
  }

  get size(): number {
    return this.edges.size;
  }

  toPath(): { nodes: PathNode[]; edges: PathEdge[] } {
    return { nodes: [...this.nodes.values()], edges: [...this.edges.values()] };
  }
}
