import { z } from 'zod';
import { announcementContentShape } from '@fleet/domain';
import { reasonText } from '../http/common-schemas';

/** POST /devices/:id/announcements. The size limit in bytes is the API's setting (ANNOUNCE_MAX_BYTES). */
export const createAnnouncementBody = z.strictObject({
  ...announcementContentShape,
  reason: reasonText.optional(),
});
export type CreateAnnouncementBody = z.infer<typeof createAnnouncementBody>;
