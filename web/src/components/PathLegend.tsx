import { nodeKindLabel } from '../attack-paths';
import { nodeLook, type NodeShape } from '../graph-style';

// The key to a path's graph: each kind of node it shows, and what a plain and a dashed edge mean.

export function PathLegend({ kinds }: { kinds: readonly string[] }) {
  return (
    <figcaption className="path-legend">
      {kinds.map((kind) => (
        <span key={kind}>
          <Swatch shape={nodeLook(kind).shape} colour={nodeLook(kind).colour} /> {nodeKindLabel(kind)}
        </span>
      ))}
      <span>
        <svg width="28" height="10" aria-hidden="true">
          <line x1="0" y1="5" x2="28" y2="5" className="legend-certain" />
        </svg>{' '}
        certain step
      </span>
      <span>
        <svg width="28" height="10" aria-hidden="true">
          <line x1="0" y1="5" x2="28" y2="5" className="legend-possible" />
        </svg>{' '}
        possible step (a condition or an unread document decides)
      </span>
    </figcaption>
  );
}

const SHAPE_POINTS: Partial<Record<NodeShape, string>> = {
  diamond: '7,0 14,7 7,14 0,7',
  hexagon: '3.5,0.5 10.5,0.5 14,7 10.5,13.5 3.5,13.5 0,7',
  triangle: '7,0 14,14 0,14',
  star: '7,0 8.8,4.6 13.7,4.9 9.9,8 11.1,12.8 7,10.1 2.9,12.8 4.1,8 0.3,4.9 5.2,4.6',
};

/** The legend's small copy of a node's shape and colour. */
function Swatch({ shape, colour }: { shape: NodeShape; colour: string }) {
  const points = SHAPE_POINTS[shape];
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" className="swatch">
      {points && <polygon points={points} fill={colour} />}
      {shape === 'ellipse' && <circle cx="7" cy="7" r="6.5" fill={colour} />}
      {(shape === 'rectangle' || shape === 'round-rectangle') && (
        <rect x="0.5" y="0.5" width="13" height="13" rx={shape === 'round-rectangle' ? 3 : 0} fill={colour} />
      )}
    </svg>
  );
}
