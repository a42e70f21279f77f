import type { AnnouncementCreated, AnnouncementSchedule } from '@fleet/api-contract';
import { request } from './http';

/** What the compose form sends (the API fills language, how and the deadline when left out). */
export interface AnnouncementBody {
  text: string;
  language: string;
  how: 'alert' | 'spoken' | 'both';
  title?: string;
  deadlineS?: number;
  reason?: string;
}

export type ScheduleStep = 'pause' | 'resume' | 'cancel';

export const announcementsApi = {
  /** The announcement is a call: its page shows its evidence. */
  announce: (deviceId: string, body: AnnouncementBody) =>
    request<AnnouncementCreated>('POST', `/devices/${encodeURIComponent(deviceId)}/announcements`, {
      body,
      idempotent: true,
    }),
  schedule: (deviceId: string, body: Omit<AnnouncementBody, 'reason'> & { at?: string; cron?: string }) =>
    request<AnnouncementSchedule>('POST', `/devices/${encodeURIComponent(deviceId)}/announcement-schedules`, {
      body,
      idempotent: true,
    }),
  /** Newest first; one device's with `deviceId`. */
  schedules: (deviceId?: string, limit = 100) =>
    request<{ items: AnnouncementSchedule[] }>('GET', '/announcement-schedules', {
      query: { deviceId, limit },
    }),
  step: (id: string, step: ScheduleStep) =>
    request<AnnouncementSchedule>('POST', `/announcement-schedules/${id}/${step}`, { body: {} }),
};
