import { z } from 'zod';

// An announcement is a call of its own (DESIGN §1: five rows and a verdict) to the platform tool below. It is no
// MCP tool: an `alert` is shown by the firmware at once in any state, and speech plays only between `tts start` and
// `tts stop` inside a session the device itself opened with a hello (xiaozhi §2.2: no server-initiated session).
export const ANNOUNCE_TOOL = 'platform.announce';

export const ANNOUNCEMENT_HOWS = ['alert', 'spoken', 'both'] as const;
export type AnnouncementHow = (typeof ANNOUNCEMENT_HOWS)[number];

/** What the firmware's alert shows (xiaozhi §2.2: status, message and emotion, all strings). */
export const announcementArgumentsSchema = z.strictObject({
  text: z.string().min(1).max(4000),
  /** BCP 47 tag the speech is synthesised in (`en`, `zh`). */
  language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/),
  how: z.enum(ANNOUNCEMENT_HOWS),
  /** The alert's title line (`status`); a default by language when absent. */
  title: z.string().min(1).max(64).optional(),
  emotion: z
    .string()
    .regex(/^[a-z_]{1,32}$/)
    .optional(),
});
export type AnnouncementArguments = z.infer<typeof announcementArgumentsSchema>;

export const speaks = (how: AnnouncementHow): boolean => how !== 'alert';
export const alerts = (how: AnnouncementHow): boolean => how !== 'spoken';

/** `{"from":"22:00","to":"07:00"}`: announcements wait while a device group's local time is inside. */
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
export const quietHoursSchema = z.strictObject({ from: hhmm, to: hhmm });
export type QuietHours = z.infer<typeof quietHoursSchema>;

const minutesOf = (value: string) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5));

/** Minute of the day and the seconds into it at `now` in an IANA time zone. */
function localClock(now: Date, timeZone: string): { minute: number; second: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minute: get('hour') * 60 + get('minute'), second: get('second') };
}

/**
 * When the quiet hours `now` falls in end, in the group's time zone; undefined when `now` is outside them. A window
 * whose end is before its start runs past midnight; `from` equal to `to` is no window. Minutes are counted on the
 * local clock, so a daylight-saving change inside a window moves its end by that hour.
 */
export function quietHoursEnd(quiet: QuietHours, timeZone: string, now: Date): Date | undefined {
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return undefined;
  const { minute, second } = localClock(now, timeZone);
  const inside = from < to ? minute >= from && minute < to : minute >= from || minute < to;
  if (!inside) return undefined;
  const wait = (to - minute + 1440) % 1440;
  const start = now.getTime() - second * 1000 - now.getMilliseconds();
  return new Date(start + wait * 60_000);
}

/** The latest end among the quiet hours that hold `now` (a device in several groups waits for all of them). */
export function heldUntil(
  groups: readonly { name: string; timeZone: string; quietHours: QuietHours }[],
  now: Date,
): { until: Date; group: string } | undefined {
  let held: { until: Date; group: string } | undefined;
  for (const g of groups) {
    const end = quietHoursEnd(g.quietHours, g.timeZone, now);
    if (end && (!held || end > held.until)) held = { until: end, group: g.name };
  }
  return held;
}

/**
 * What an announcement says and how it is delivered: the same fields for one device (the API's route) and for a
 * campaign's devices (its action).
 */
export const announcementContentShape = {
  text: z.string().trim().min(1).max(4000),
  /** BCP 47 tag the speech is synthesised in. */
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 tag such as en or zh-CN')
    .default('en'),
  /** `alert` now; `spoken` at the device's next voice session; or `both`. */
  how: z.enum(ANNOUNCEMENT_HOWS).default('alert'),
  /** The alert's title line (xiaozhi §2.2 `status`). */
  title: z.string().trim().min(1).max(64).optional(),
  emotion: z
    .string()
    .regex(/^[a-z_]{1,32}$/)
    .optional(),
  /** Delivered within this many seconds of its start (after any quiet hours), else `undelivered`. */
  deadlineS: z
    .int()
    .min(5)
    .max(7 * 24 * 3600)
    .default(3600),
};
