import { z } from 'zod';
import { instant } from './common';

/** An announcement schedule: a time or a cron expression in its time zone; each run is a call of its own. */
export const announcementScheduleSchema = z.strictObject({
  id: z.uuid(),
  deviceId: z.string(),
  arguments: z
    .record(z.string(), z.unknown())
    .describe('the announcement: text, language, how, title, emotion'),
  deadlineS: z.int(),
  cron: z.string().nullable(),
  runAt: instant.nullable(),
  timeZone: z.string(),
  state: z.enum(['active', 'paused', 'cancelled', 'finished']),
  nextRunAt: instant.nullable(),
  runs: z.int(),
  lastCallId: z.uuid().nullable().describe('the call the latest run made'),
  lastError: z.string().nullable().describe('why the latest run made no call (a rate, the creator’s role)'),
  createdBy: z.uuid(),
  apiKeyId: z.uuid().nullable(),
  createdAt: instant,
  updatedAt: instant,
});
export type AnnouncementSchedule = z.infer<typeof announcementScheduleSchema>;

export const announcementScheduleListSchema = z.strictObject({ items: z.array(announcementScheduleSchema) });
