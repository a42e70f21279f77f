export interface Series {
  key: string;
  label: string;
  color: string;
}

export interface Column {
  label: string;
  values: Partial<Record<string, number>>;
}

const WIDTH = 900;
const HEIGHT = 170;
const GAP = 4;

/** Columns over time, each stacked by series (calls by verdict per interval). Drawn in SVG, no library. */
export function StackedColumns({
  columns,
  series,
  label,
}: {
  columns: Column[];
  series: Series[];
  label: string;
}) {
  const totals = columns.map((c) => series.reduce((sum, s) => sum + (c.values[s.key] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const width = (WIDTH - GAP * (columns.length - 1)) / Math.max(1, columns.length);
  const present = series.filter((s) => columns.some((c) => (c.values[s.key] ?? 0) > 0));
  return (
    <figure className="stacked-columns">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 18}`} role="img" aria-label={label}>
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="axis" />
        <line x1={0} x2={WIDTH} y1={8} y2={8} className="grid-line" />
        <text x={2} y={20} className="tick">
          {max}
        </text>
        {columns.map((column, i) => {
          const x = i * (width + GAP);
          let y = HEIGHT;
          return (
            <g key={i}>
              <title>{`${column.label}: ${totals[i]}`}</title>
              {series.map((s) => {
                const value = column.values[s.key] ?? 0;
                if (value === 0) return null;
                const h = (value / max) * (HEIGHT - 8);
                y -= h;
                return (
                  <rect key={s.key} x={x} y={y} width={width} height={h} fill={s.color} data-series={s.key} />
                );
              })}
              {i % Math.ceil(columns.length / 6) === 0 && (
                <text x={x + width / 2} y={HEIGHT + 14} textAnchor="middle" className="tick">
                  {column.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        {present.map((s) => (
          <span key={s.key}>
            <i style={{ background: s.color }} /> {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
