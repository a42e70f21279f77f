import { seriesColor } from './palette';
import { DeviceText } from '../components/DeviceText';
import { isolatedText } from '../text/device-text';

export interface Bar {
  label: string;
  value: number;
  color?: string;
}

/** Horizontal bars, longest first: devices by board, by firmware version. */
export function BarList({
  bars,
  label,
  format = String,
}: {
  bars: Bar[];
  label: string;
  format?: (n: number) => string;
}) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <ul className="bar-list" aria-label={label}>
      {bars.map((bar, i) => (
        <li key={bar.label} title={`${isolatedText(bar.label)}: ${format(bar.value)}`}>
          <span className="bar-label">
            <DeviceText text={bar.label} />
          </span>
          <span className="bar-track">
            <span
              className="bar-fill"
              style={{ width: `${(bar.value / max) * 100}%`, background: bar.color ?? seriesColor(i) }}
            />
          </span>
          <span className="bar-value">{format(bar.value)}</span>
        </li>
      ))}
    </ul>
  );
}
