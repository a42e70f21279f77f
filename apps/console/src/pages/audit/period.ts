export type Preset = 'hour' | 'day' | 'week' | 'custom';

const HOURS: Record<Exclude<Preset, 'custom'>, number> = { hour: 1, day: 24, week: 24 * 7 };

/** The period a preset names, ending now (ISO instants, as the audit report takes them). */
export function presetPeriod(
  preset: Exclude<Preset, 'custom'>,
  now = Date.now(),
): { from: string; to: string } {
  return { from: new Date(now - HOURS[preset] * 3600_000).toISOString(), to: new Date(now).toISOString() };
}

/** `<input type="datetime-local">` works in local time without a zone; the API takes instants. */
export function fromLocalInput(value: string): string | undefined {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
