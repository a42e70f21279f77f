import { z } from 'zod';
import { cursorKey, cursorOf, limitParam } from '../http/cursor';
import { reasonText } from '../http/common-schemas';

/** Quarantined check-ins, oldest first: when each was held, then its id. */
export const quarantineCursor = cursorOf(cursorKey.instant, cursorKey.uuid);

export const quarantineListQuery = z.strictObject({
  state: z.enum(['pending', 'accepted', 'rejected']).default('pending'),
  limit: limitParam(50, 500),
  cursor: quarantineCursor.param.optional(),
});

export const acceptBody = z.strictObject({
  quarantineId: z.uuid().optional().describe('which claim, when the device has several pending'),
  reason: reasonText.optional(),
});

export const rejectBody = z.strictObject({
  quarantineId: z.uuid().optional(),
  reason: reasonText,
});
