import { Controller, Get } from '@nestjs/common';
import { z } from 'zod';
import { releaseHealthSchema, type ReleaseHealthView } from '@fleet/api-contract';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidParams, ValidQuery } from '../http/validation';
import { ReleaseHealthService } from './release-health.service';

export const releaseHealthQuery = z.strictObject({
  windowH: z.coerce
    .number()
    .int()
    .min(1)
    .max(90 * 24)
    .default(7 * 24)
    .describe('hours back from now the signals are read over'),
  regressionAfterH: z.coerce
    .number()
    .int()
    .min(1)
    .max(90 * 24)
    .default(24)
    .describe(
      'a rollback counts against the release when found within this many hours of the verified upgrade',
    ),
});

@Controller('firmware')
export class ReleaseHealthController {
  constructor(private readonly health: ReleaseHealthService) {}

  @Get(':id/health')
  @Roles('viewer')
  @Doc({
    summary: 'Release health: how this firmware version fares against the one it replaced on the same boards',
    description:
      'From what the platform observed: upgrades verified / effect_mismatch, regressions after them, reconnects and ' +
      'offline time per device-hour, the device_error and no_response shares of calls.',
    response: { status: 200, schema: releaseHealthSchema },
  })
  get(
    @ValidParams(uuidParams) p: z.infer<typeof uuidParams>,
    @ValidQuery(releaseHealthQuery) q: z.infer<typeof releaseHealthQuery>,
  ): Promise<ReleaseHealthView> {
    return this.health.ofFirmware(p.id, {
      windowHours: q.windowH,
      regressionWithinHours: q.regressionAfterH,
    });
  }
}
