import { Controller, Get } from '@nestjs/common';
import { Doc, Roles } from '../http/route-metadata';
import { ValidQuery } from '../http/validation';
import { summarize } from './fleet-summary';
import { FleetSummaryRepository } from './fleet-summary.repository';
import {
  fleetSummaryQuery,
  fleetSummaryView,
  type FleetSummaryQuery,
  type FleetSummaryView,
} from './fleet-summary.schemas';

@Controller('fleet')
export class FleetSummaryController {
  constructor(private readonly repository: FleetSummaryRepository) {}

  @Get('summary')
  @Roles('viewer')
  @Doc({
    summary:
      'The fleet at a glance: online/offline by board, firmware and dialect; calls by verdict over a window',
    response: { status: 200, schema: fleetSummaryView },
  })
  async summary(@ValidQuery(fleetSummaryQuery) q: FleetSummaryQuery): Promise<FleetSummaryView> {
    const to = new Date();
    // Intervals aligned to their width, the last one containing now (as the console's timeline draws them).
    const bucketMs = q.bucketS * 1000;
    const end = Math.floor(to.getTime() / bucketMs) * bucketMs + bucketMs;
    const from = new Date(end - Math.ceil((q.windowS * 1000) / bucketMs) * bucketMs);
    const [groups, buckets] = await Promise.all([
      this.repository.deviceGroups(),
      this.repository.verdictBuckets(from, q.bucketS),
    ]);
    return summarize(groups, buckets, { from, to: new Date(end), bucketS: q.bucketS, at: to });
  }
}
