import { z } from 'zod';
import { cursorParam, limitParam } from '../http/cursor';
import { reasonText } from '../http/common-schemas';

export const quarantineListQuery = z.strictObject({
  state: z.enum(['pending', 'accepted', 'rejected']).default('pending'),
  limit: limitParam(50, 500),
  cursor: cursorParam.optional(),
});

export const acceptBody = z.strictObject({
  quarantineId: z.uuid().optional().describe('which claim, when the device has several pending'),
  reason: reasonText.optional(),
});

export const rejectBody = z.strictObject({
  quarantineId: z.uuid().optional(),
  reason: reasonText,
});
