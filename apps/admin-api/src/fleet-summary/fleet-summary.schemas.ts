import { z } from 'zod';
import { VERDICTS } from '@fleet/domain';

const seconds = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const fleetSummaryQuery = z
  .strictObject({
    windowS: seconds(60, 7 * 24 * 3600, 3600).describe('calls sealed within this many seconds before now'),
    bucketS: seconds(60, 24 * 3600, 300).describe('the width of each interval of the calls timeline'),
  })
  .refine((q) => q.windowS / q.bucketS <= 500, 'at most 500 intervals: widen bucketS or narrow windowS');
export type FleetSummaryQuery = z.infer<typeof fleetSummaryQuery>;

const presenceCount = z.object({ online: z.int(), offline: z.int() });
const byVerdict = z.partialRecord(z.enum(VERDICTS), z.int());

export const fleetSummaryView = z.object({
  at: z.iso.datetime(),
  devices: presenceCount
    .extend({ total: z.int() })
    .describe('active devices (not revoked or decommissioned)'),
  byBoard: z.array(presenceCount.extend({ board: z.string().nullable() })),
  byFirmware: z.array(presenceCount.extend({ firmware: z.string().nullable() })),
  byDialect: z.array(presenceCount.extend({ dialect: z.string() })),
  calls: z.object({
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    byVerdict,
    buckets: z.array(z.object({ start: z.iso.datetime(), byVerdict })),
  }),
});
export type FleetSummaryView = z.infer<typeof fleetSummaryView>;
