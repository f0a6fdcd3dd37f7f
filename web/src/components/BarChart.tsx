export interface Bar {
  key: string;
  label: string;
  /** A second line under the label (a band's range). */
  note?: string;
  value: number;
  /** The CSS class that colours the bar (an SRS band's, a severity's). */
  className: string;
}

const WIDTH = 300;
const HEIGHT = 170;
const TOP = 18;
const BOTTOM = 34;

/** Counts side by side as SVG bars (the tallest fills the height), each with its count above and its label below. */
export function BarChart({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = WIDTH / Math.max(1, bars.length);
  const barWidth = slot * 0.6;
  const base = HEIGHT - BOTTOM;
  const height = (value: number) => (value * (base - TOP)) / max;
  return (
    <figure className="chart bars">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${label}: ${bars.map((b) => `${b.label} ${b.value}`).join(', ')}`}
      >
        <line x1={0} x2={WIDTH} y1={base} y2={base} className="guide" />
        {bars.map((b, i) => {
          const x = i * slot + (slot - barWidth) / 2;
          const middle = x + barWidth / 2;
          const h = height(b.value);
          return (
            <g key={b.key} data-bar={b.key}>
              <rect x={x} y={base - h} width={barWidth} height={h} className={b.className}>
                <title>{`${b.label}${b.note ? ` (${b.note})` : ''}: ${b.value}`}</title>
              </rect>
              <text x={middle} y={base - h - 4} textAnchor="middle" className="value">
                {b.value}
              </text>
              <text x={middle} y={base + 14} textAnchor="middle" className="axis">
                {b.label}
              </text>
              {b.note && (
                <text x={middle} y={base + 28} textAnchor="middle" className="axis">
                  {b.note}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
