import { z } from 'zod';
import { DEVICE_STATUSES } from '@fleet/api-contract';
import { DIALECTS } from '@fleet/protocol';
import { cursorKey, cursorOf, limitParam } from '../http/cursor';
import { queryBoolean, reasonText } from '../http/common-schemas';

/** The fleet's pages, by MAC. */
export const deviceCursor = cursorOf(cursorKey.mac);
/** A device's connections, newest first: when each opened, then its id (the broker's). */
export const presenceCursor = cursorOf(cursorKey.instant, cursorKey.id);

export const deviceListQuery = z.strictObject({
  online: queryBoolean.optional(),
  board: z.string().min(1).max(200).optional().describe('board type, exact'),
  firmware: z.string().min(1).max(100).optional().describe('firmware version, exact'),
  group: z.string().min(1).max(200).optional().describe('group name'),
  tag: z.string().min(1).max(100).optional(),
  status: z.enum(DEVICE_STATUSES).optional(),
  dialect: z
    .enum(DIALECTS)
    .optional()
    .describe('how the device speaks MCP: xiaozhi (MQTT) or listenai (its link)'),
  q: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('MAC prefix, or part of the serial number or board name'),
  limit: limitParam(50, 500),
  cursor: deviceCursor.param.optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

export const bindBody = z.strictObject({
  code: z.string().trim().min(1).max(32).describe('the activation code the device shows or speaks'),
});

export const statusChangeBody = z.strictObject({ reason: reasonText.optional() });

export const presenceQuery = z.strictObject({
  limit: limitParam(50, 500),
  cursor: presenceCursor.param.optional(),
});

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  deviceListSchema as deviceListView,
  deviceSummarySchema as deviceSummary,
  type DeviceSummary,
} from '@fleet/api-contract';
