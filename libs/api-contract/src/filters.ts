import { z } from 'zod';
import { CALL_ORIGINS, CALL_STATES, DEVICE_STATUSES, DIALECTS, VERDICTS } from './vocabulary';

// What a client filters the lists by. The API's query schemas (apps/admin-api devices.schemas.ts,
// calls.schemas.ts) parse the same names from query text and add paging; filters.spec.ts there holds the
// names to them.

/** GET /devices filters. */
export const deviceFiltersSchema = z.strictObject({
  online: z.boolean().optional(),
  board: z.string().optional(),
  firmware: z.string().optional(),
  group: z.string().optional(),
  tag: z.string().optional(),
  status: z.enum(DEVICE_STATUSES).optional(),
  dialect: z.enum(DIALECTS).optional(),
  q: z.string().optional().describe('MAC prefix, or part of the serial number or board name'),
});
export type DeviceFilters = z.infer<typeof deviceFiltersSchema>;

/** GET /calls filters. */
export const callFiltersSchema = z.strictObject({
  deviceId: z.string().optional(),
  verdict: z.enum(VERDICTS).optional(),
  tool: z.string().optional(),
  origin: z.enum(CALL_ORIGINS).optional(),
  state: z.enum(CALL_STATES).optional(),
  operatorId: z.string().optional(),
  campaignId: z.string().optional(),
  from: z.string().optional().describe('an ISO instant'),
  to: z.string().optional().describe('an ISO instant'),
});
export type CallFilters = z.infer<typeof callFiltersSchema>;
