import { Module } from '@nestjs/common';
import { BusyOverrideController } from './busy-override.controller';
import { BusyOverrideRepository } from './busy-override.repository';
import { BusyOverrideService } from './busy-override.service';
import { CallsController } from './calls.controller';
import { CallsRepository } from './calls.repository';
import { CallsService } from './calls.service';
import { UpgradeRegressionRepository } from './upgrade-regression.repository';

@Module({
  controllers: [CallsController, BusyOverrideController],
  providers: [
    CallsService,
    CallsRepository,
    UpgradeRegressionRepository,
    BusyOverrideService,
    BusyOverrideRepository,
  ],
  exports: [CallsService, CallsRepository],
})
export class CallsModule {}
