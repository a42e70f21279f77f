import type { CampaignSpec } from '@fleet/api-contract';
import type { AnnouncementBody } from '../../api/announcements-api';

// The compose form's pure part: what it holds, and what it sends for one device (an announcement now, or a
// schedule) or for a selection of devices (an announcement campaign over exactly those devices).

export interface AnnounceForm {
  text: string;
  language: string;
  how: AnnouncementBody['how'];
  title: string;
  /** Seconds it may take to be delivered; empty: the API's default (an hour). */
  deadlineS: string;
  reason: string;
  /** `now`, once `at` (a local date-time input), or on `cron`. */
  when: 'now' | 'at' | 'cron';
  at: string;
  cron: string;
}

export const EMPTY_ANNOUNCE_FORM: AnnounceForm = {
  text: '',
  language: 'en',
  how: 'alert',
  title: '',
  deadlineS: '',
  reason: '',
  when: 'now',
  at: '',
  cron: '',
};

/** The text's size as the API counts it (UTF-8 bytes, ANNOUNCE_MAX_BYTES): a Chinese character is three. */
export const textBytes = (text: string): number => new TextEncoder().encode(text.trim()).length;

export type Problem = 'text' | 'deadline' | 'at' | 'cron';

export function problemOf(f: AnnounceForm): Problem | undefined {
  if (!f.text.trim()) return 'text';
  if (f.deadlineS.trim() && !(Number.isInteger(Number(f.deadlineS)) && Number(f.deadlineS) >= 5))
    return 'deadline';
  if (f.when === 'at' && Number.isNaN(new Date(f.at).getTime())) return 'at';
  if (f.when === 'cron' && f.cron.trim().split(/\s+/).length < 5) return 'cron';
  return undefined;
}

export function bodyOf(f: AnnounceForm): AnnouncementBody {
  return {
    text: f.text.trim(),
    language: f.language.trim() || 'en',
    how: f.how,
    ...(f.title.trim() ? { title: f.title.trim() } : {}),
    ...(f.deadlineS.trim() ? { deadlineS: Number(f.deadlineS) } : {}),
    ...(f.reason.trim() ? { reason: f.reason.trim() } : {}),
  };
}

/** A schedule's body: the announcement with its time (`at` read in the browser's zone) or its cron. */
export function scheduleBodyOf(f: AnnounceForm): Omit<AnnouncementBody, 'reason'> & {
  at?: string;
  cron?: string;
} {
  const { reason: _reason, ...body } = bodyOf(f);
  return f.when === 'cron' ? { ...body, cron: f.cron.trim() } : { ...body, at: new Date(f.at).toISOString() };
}

/** An announcement to a selection: a campaign over exactly those devices, its action the announcement. */
export function selectionCampaign(
  deviceIds: readonly string[],
  f: AnnounceForm,
): Pick<CampaignSpec, 'name' | 'selector' | 'action'> {
  const { reason: _reason, ...announcement } = bodyOf(f);
  const excerpt = announcement.text.length > 40 ? `${announcement.text.slice(0, 40)}…` : announcement.text;
  return {
    name: `Announcement to ${deviceIds.length} devices: ${excerpt}`,
    selector: { deviceIds: [...deviceIds] },
    // Each device's announcement is delivered within its deadline from when the campaign reaches it.
    action: { kind: 'announcement', ...announcement, deadlineS: announcement.deadlineS ?? 3600 },
  };
}
