import type { StylesheetJson } from 'cytoscape';

// How an attack path is drawn: each kind of node its shape and colour (the canvas reads no CSS, so the colours are
// the stylesheet's own, matching styles.css), labels under the nodes, the step on each edge, and a dashed amber
// edge where a step is only possible.

export type NodeShape = 'ellipse' | 'round-rectangle' | 'rectangle' | 'diamond' | 'hexagon' | 'star' | 'triangle';

interface NodeLook {
  shape: NodeShape;
  colour: string;
}

const WORKLOAD: NodeLook = { shape: 'rectangle', colour: '#0369a1' };
const DATA_STORE: NodeLook = { shape: 'round-rectangle', colour: '#0e7490' };
/** The network between the internet and a workload: plumbing, drawn quieter than what an attacker wants. */
const NETWORK: NodeLook = { shape: 'hexagon', colour: '#8391a7' };

const NODE_LOOK: Record<string, NodeLook> = {
  internet: { shape: 'ellipse', colour: '#2457c5' },
  external_account: { shape: 'ellipse', colour: '#334155' },
  access_key: { shape: 'triangle', colour: '#b7791f' },
  event: { shape: 'triangle', colour: '#c2410c' },
  internet_gateway: NETWORK,
  subnet: NETWORK,
  security_group: NETWORK,
  user: { shape: 'ellipse', colour: '#0f766e' },
  group: { shape: 'hexagon', colour: '#0f766e' },
  role: { shape: 'round-rectangle', colour: '#6639ba' },
  instance: WORKLOAD,
  load_balancer: WORKLOAD,
  function: WORKLOAD,
  api: WORKLOAD,
  database: DATA_STORE,
  cache: DATA_STORE,
  search_domain: DATA_STORE,
  queue: DATA_STORE,
  secret: { shape: 'diamond', colour: '#9b1c1c' },
  permission: { shape: 'diamond', colour: '#a16207' },
  administrator: { shape: 'star', colour: '#c53030' },
};

/** A kind the service added after this dashboard was built still gets drawn, plainly. */
const OTHER: NodeLook = { shape: 'ellipse', colour: '#6b7280' };

export const nodeLook = (kind: string): NodeLook => NODE_LOOK[kind] ?? OTHER;

const POSSIBLE = '#b7791f';
const EDGE = '#64748b';

export const PATH_GRAPH_STYLE: StylesheetJson = [
  {
    selector: 'node',
    style: {
      shape: OTHER.shape,
      'background-color': OTHER.colour,
      width: 34,
      height: 34,
      'border-width': 2,
      'border-color': '#ffffff',
      label: 'data(display)',
      'text-valign': 'bottom',
      'text-halign': 'center',
      'text-margin-y': 6,
      'text-wrap': 'wrap',
      'text-max-width': '120px',
      'font-size': 12,
      'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      color: '#1d2330',
    },
  },
  ...Object.entries(NODE_LOOK).map(([kind, look]) => ({
    selector: `node[kind = "${kind}"]`,
    style: { shape: look.shape, 'background-color': look.colour },
  })),
  {
    selector: 'node[kind = "administrator"], node[kind = "secret"]',
    style: { width: 42, height: 42, 'font-weight': 'bold' },
  },
  {
    selector: 'edge',
    style: {
      width: 2,
      'curve-style': 'bezier',
      'line-color': EDGE,
      'target-arrow-color': EDGE,
      'target-arrow-shape': 'triangle',
      label: 'data(label)',
      'font-size': 11,
      'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      color: '#334155',
      'text-wrap': 'wrap',
      'text-max-width': '120px',
      // Above the line, so a short edge still shows whether it is dashed.
      'text-margin-y': -14,
      'text-background-color': '#fbfcfd',
      'text-background-opacity': 0.85,
      'text-background-padding': '1px',
    },
  },
  {
    selector: 'edge[certainty = "possible"]',
    style: { 'line-style': 'dashed', 'line-color': POSSIBLE, 'target-arrow-color': POSSIBLE },
  },
];
