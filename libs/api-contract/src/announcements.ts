import { z } from 'zod';
import { instant } from './common';
import { CALL_STATES } from './vocabulary';

/** POST /devices/:id/announcements: the announcement is a call (GET /calls/:id shows its evidence). */
export const announcementCreatedSchema = z.strictObject({
  id: z.uuid().describe('the call id'),
  state: z.enum(CALL_STATES).describe('`awaiting_approval` when an admin requires a second person for it'),
  approvalId: z.uuid().optional(),
  heldUntil: instant
    .nullable()
    .describe("held back by a device group's quiet hours until then (null: runs at once)"),
  heldBy: z.string().nullable().describe('the group whose quiet hours hold it'),
  deadlineAt: instant.describe('delivered by then, or `undelivered`'),
});
export type AnnouncementCreated = z.infer<typeof announcementCreatedSchema>;
