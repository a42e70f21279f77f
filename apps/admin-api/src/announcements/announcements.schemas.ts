import { z } from 'zod';
import { ANNOUNCEMENT_HOWS } from '@fleet/domain';
import { reasonText } from '../http/common-schemas';

/** POST /devices/:id/announcements. The size limit in bytes is the API's setting (ANNOUNCE_MAX_BYTES). */
export const createAnnouncementBody = z.strictObject({
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
  /** Delivered within this many seconds (counted from the end of any quiet hours), else `undelivered`. */
  deadlineS: z
    .int()
    .min(5)
    .max(7 * 24 * 3600)
    .default(3600),
  reason: reasonText.optional(),
});
export type CreateAnnouncementBody = z.infer<typeof createAnnouncementBody>;
