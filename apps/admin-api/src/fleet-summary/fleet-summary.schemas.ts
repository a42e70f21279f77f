import { z } from 'zod';

const seconds = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const fleetSummaryQuery = z
  .strictObject({
    windowS: seconds(60, 7 * 24 * 3600, 3600).describe('calls sealed within this many seconds before now'),
    bucketS: seconds(60, 24 * 3600, 300).describe('the width of each interval of the calls timeline'),
  })
  .refine((q) => q.windowS / q.bucketS <= 500, 'at most 500 intervals: widen bucketS or narrow windowS');
export type FleetSummaryQuery = z.infer<typeof fleetSummaryQuery>;

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  fleetSummarySchema as fleetSummaryView,
  type FleetSummary as FleetSummaryView,
} from '@fleet/api-contract';
