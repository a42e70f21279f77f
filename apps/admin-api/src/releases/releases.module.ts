import { Module } from '@nestjs/common';
import { ReleaseHealthController } from './release-health.controller';
import { ReleaseHealthGauge } from './release-health.gauge';
import { ReleaseHealthRepository } from './release-health.repository';
import { ReleaseHealthService } from './release-health.service';

@Module({
  controllers: [ReleaseHealthController],
  providers: [ReleaseHealthService, ReleaseHealthRepository, ReleaseHealthGauge],
  exports: [ReleaseHealthService],
})
export class ReleasesModule {}
