import { z } from 'zod';

/** An IANA time zone the runtime knows (Europe/Berlin, Asia/Shanghai): the zone quiet hours and schedules read. */
export const timeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone such as Europe/Berlin');
