import { WEEKDAYS, type MaintenanceWindow } from '@fleet/domain';

/** Local weekday and minute of the day at `now` in an IANA time zone. */
function localTime(now: Date, timeZone: string): { day: (typeof WEEKDAYS)[number]; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = get('weekday').toLowerCase().slice(0, 3) as (typeof WEEKDAYS)[number];
  return { day, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether a device may be started now: no windows means any time; otherwise `now` must fall in one of them, in
 * the time zone of the device's group. A window whose end is before its start runs past midnight (its day is
 * the day it starts).
 */
export function inMaintenanceWindow(
  windows: readonly MaintenanceWindow[] | null | undefined,
  timeZone: string,
  now = new Date(),
): boolean {
  if (!windows || windows.length === 0) return true;
  const { day, minute } = localTime(now, timeZone);
  const yesterday = WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7]!;
  return windows.some((w) => {
    const start = minutes(w.start);
    const end = minutes(w.end);
    if (start <= end) return w.days.includes(day) && minute >= start && minute < end;
    return (w.days.includes(day) && minute >= start) || (w.days.includes(yesterday) && minute < end);
  });
}
