import type { ElementDefinition, LayoutOptions } from 'cytoscape';
import { type AttackPath, nodeKindLabel } from './attack-paths';

// An attack path as Cytoscape takes it: its elements, and a left-to-right layout sized to the path.

/** A node's text: its name, and its kind when the name does not already say it. */
function display(label: string, kind: string): string {
  const kindLabel = nodeKindLabel(kind);
  return label.toLowerCase().includes(kindLabel.toLowerCase()) ? label : `${label}\n${kindLabel}`;
}

export function elementsOf(path: AttackPath): ElementDefinition[] {
  const ids = new Set(path.nodes.map((n) => n.id));
  return [
    ...path.nodes.map((n) => ({ group: 'nodes' as const, data: { ...n, display: display(n.label, n.kind) } })),
    // An edge to a node the path does not list cannot be drawn (Cytoscape refuses it); the steps list still names it.
    ...path.edges
      .filter((e) => ids.has(e.from) && ids.has(e.to))
      .map((e, i) => ({
        group: 'edges' as const,
        data: { id: `step-${i}`, source: e.from, target: e.to, label: e.label, certainty: e.certainty },
      })),
  ];
}

/** How many nodes lie at each distance from where the path starts (its columns, left to right). */
export function columnsOf(path: AttackPath): number[] {
  const incoming = new Set(path.edges.map((e) => e.to));
  let column = path.nodes.filter((n) => !incoming.has(n.id)).map((n) => n.id);
  const seen = new Set(column);
  const sizes: number[] = [];
  while (column.length > 0) {
    sizes.push(column.length);
    const next = path.edges.filter((e) => column.includes(e.from) && !seen.has(e.to)).map((e) => e.to);
    column = [...new Set(next)];
    for (const id of column) seen.add(id);
  }
  return sizes;
}

/** Room for a node and its label across, and for a node and its two-line label down. */
const COLUMN_WIDTH = 210;
const ROW_HEIGHT = 110;

/**
 * Left to right with the built-in breadthfirst layout: laid out top-down in a box turned on its side, then turned
 * back. (Its 'rightward' direction stretches the spacing by the canvas' aspect ratio, which leaves a long path tiny.)
 * The box is no larger than the path needs, so a short path is not spread thin across the canvas.
 */
export function layoutFor(path: AttackPath, canvas: { width: number; height: number }): LayoutOptions {
  const columns = columnsOf(path);
  const across = Math.min(canvas.width, Math.max(columns.length, 1) * COLUMN_WIDTH);
  const down = Math.min(canvas.height, Math.max(...columns, 1) * ROW_HEIGHT);
  return {
    name: 'breadthfirst',
    directed: true,
    boundingBox: { x1: 0, y1: 0, w: down, h: across },
    transform: (_node, position) => ({ x: position.y, y: position.x }),
    padding: 24,
    // The box already spaces the columns; the default (1.75) would spread them past the canvas, shrinking the text.
    spacingFactor: 1,
    nodeDimensionsIncludeLabels: true,
  };
}
