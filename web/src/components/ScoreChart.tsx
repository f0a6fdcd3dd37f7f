import { srsBand } from '../format';

interface Point {
  date: string;
  srs: number;
  /** false: the score did not read every core source of the account (drawn hollow); null or absent: not known. */
  complete?: boolean | null;
}

const WIDTH = 600;
const HEIGHT = 160;
const PAD = 24;

/**
 * The daily SRS as an SVG line (oldest left), with the 60 and 80 band edges drawn as guides. `label` names the
 * series (an account's score history, or the average over the tenant's accounts on the overview). A point whose
 * score is incomplete is a hollow dot, and says so.
 */
export function ScoreChart({
  history,
  label = 'Score history',
  empty = 'No score history yet: it starts with the first scan.',
}: {
  history: readonly Point[];
  label?: string;
  empty?: string;
}) {
  const points = [...history].sort((a, b) => a.date.localeCompare(b.date));
  if (points.length === 0) return <p className="empty">{empty}</p>;
  const x = (i: number) =>
    PAD + (points.length === 1 ? (WIDTH - 2 * PAD) / 2 : (i * (WIDTH - 2 * PAD)) / (points.length - 1));
  const y = (srs: number) => PAD + ((100 - srs) * (HEIGHT - 2 * PAD)) / 100;
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.srs).toFixed(1)}`).join(' ');
  const first = points[0] as Point;
  const last = points[points.length - 1] as Point;
  const incomplete = points.filter((p) => p.complete === false).length;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${label} from ${first.date} to ${last.date}`}>
        {[80, 60].map((edge) => (
          <g key={edge}>
            <line x1={PAD} x2={WIDTH - PAD} y1={y(edge)} y2={y(edge)} className="guide" />
            <text x={2} y={y(edge) + 4} className="axis">
              {edge}
            </text>
          </g>
        ))}
        <path d={line} className="line" />
        {points.map((p, i) => (
          <circle
            key={p.date}
            cx={x(i)}
            cy={y(p.srs)}
            r={4}
            className={`dot srs-${srsBand(p.srs)}${p.complete === false ? ' dot-incomplete' : ''}`}
            data-complete={p.complete === undefined || p.complete === null ? undefined : String(p.complete)}
          >
            <title>{`${p.date}: ${p.srs}${p.complete === false ? ' (incomplete: not every core source was read)' : ''}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        {first.date} – {last.date}
        {incomplete > 0 && ' · hollow dots: scores that could not read every core source of the account'}
      </figcaption>
    </figure>
  );
}
