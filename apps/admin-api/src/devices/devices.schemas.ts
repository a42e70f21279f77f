import { z } from 'zod';
import { DIALECTS } from '@fleet/protocol';
import { cursorParam, limitParam } from '../http/cursor';
import { queryBoolean, reasonText } from '../http/common-schemas';

export const DEVICE_STATUSES = ['active', 'awaiting_activation', 'revoked', 'decommissioned'] as const;

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
  cursor: cursorParam.optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

export const deviceSummary = z.object({
  id: z.string(),
  status: z.enum(DEVICE_STATUSES),
  dialect: z.enum(DIALECTS),
  board: z.string().nullable(),
  boardName: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  chipModel: z.string().nullable(),
  online: z.boolean(),
  lastSeenAt: z.iso.datetime().nullable(),
});
export type DeviceSummary = z.infer<typeof deviceSummary>;

export const deviceListView = z.object({ items: deviceSummary.array(), nextCursor: z.string().nullable() });

export const bindBody = z.strictObject({
  code: z.string().trim().min(1).max(32).describe('the activation code the device shows or speaks'),
});

export const statusChangeBody = z.strictObject({ reason: reasonText.optional() });

export const presenceQuery = z.strictObject({ limit: limitParam(50, 500), cursor: cursorParam.optional() });
