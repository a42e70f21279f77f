import type { Series } from './StackedColumns';

/** One bar split by state in proportion, with a legend of counts: a campaign's devices by state. */
export function StateBar({
  counts,
  series,
  label,
}: {
  counts: Partial<Record<string, number>>;
  series: Series[];
  label: string;
}) {
  const total = series.reduce((sum, s) => sum + (counts[s.key] ?? 0), 0);
  return (
    <figure className="state-bar" aria-label={label}>
      <div className="state-bar-track" role="img" aria-label={label}>
        {series.map((s) => {
          const n = counts[s.key] ?? 0;
          if (n === 0 || total === 0) return null;
          return (
            <span
              key={s.key}
              style={{ width: `${(n / total) * 100}%`, background: s.color }}
              title={`${s.label}: ${n}`}
              data-state={s.key}
            />
          );
        })}
      </div>
      <figcaption className="legend">
        {series.map((s) => (
          <span key={s.key} data-count={s.key}>
            <i style={{ background: s.color }} /> {s.label} <b>{counts[s.key] ?? 0}</b>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
