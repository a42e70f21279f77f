import { z } from 'zod';
import { timeZoneSchema as timeZone } from '@fleet/domain';
import { isoInstant } from '../http/common-schemas';
import { createAnnouncementBody } from './announcements.schemas';

/** POST /devices/:id/announcement-schedules: the announcement, and `at` (once) or `cron` (recurring). */
export const createScheduleBody = createAnnouncementBody
  .omit({ reason: true })
  .extend({
    at: isoInstant.optional(),
    cron: z.string().trim().min(9).max(120).optional(),
    /** Where `cron` is read; the device's group's time zone by default, else UTC. */
    timeZone: timeZone.optional(),
  })
  .refine((b) => (b.at === undefined) !== (b.cron === undefined), {
    message: 'give either at (one run) or cron (recurring), not both',
    path: ['cron'],
  });
export type CreateScheduleBody = z.infer<typeof createScheduleBody>;

export const scheduleListQuery = z.strictObject({
  deviceId: z.string().max(17).optional(),
  state: z.enum(['active', 'paused', 'cancelled', 'finished']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
