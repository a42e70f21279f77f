import { z } from 'zod';
import { instant } from './common';

/** A device group: a time zone for maintenance windows and operators' argument limits (DESIGN §4). */
export const groupSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  timeZone: z.string(),
  limits: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))),
  quietHours: z
    .strictObject({ from: z.string(), to: z.string() })
    .nullable()
    .describe('announcements to its devices wait while its local time is inside'),
  createdAt: instant,
  updatedAt: instant,
  memberCount: z.int(),
});
export type Group = z.infer<typeof groupSchema>;

/** PUT /devices/:id/tags. */
export const deviceTagsSchema = z.strictObject({ deviceId: z.string(), tags: z.array(z.string()) });
