import { z } from 'zod';
import { instant } from './common';
import { VERDICTS } from './vocabulary';

const presenceCount = z.strictObject({ online: z.int(), offline: z.int() });
const byVerdict = z.partialRecord(z.enum(VERDICTS), z.int());

/** GET /fleet/summary. */
export const fleetSummarySchema = z.strictObject({
  at: instant,
  devices: presenceCount
    .extend({ total: z.int() })
    .describe('active devices (not revoked or decommissioned)'),
  byBoard: z.array(presenceCount.extend({ board: z.string().nullable() })),
  byFirmware: z.array(presenceCount.extend({ firmware: z.string().nullable() })),
  byDialect: z.array(presenceCount.extend({ dialect: z.string() })),
  calls: z.strictObject({
    from: instant,
    to: instant,
    byVerdict,
    buckets: z.array(z.strictObject({ start: instant, byVerdict })),
  }),
});
export type FleetSummary = z.infer<typeof fleetSummarySchema>;
