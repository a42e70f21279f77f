import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { BusyOverrideController } from './busy-override.controller';
import { BusyOverrideRepository } from './busy-override.repository';
import { BusyOverrideService } from './busy-override.service';
import { CallsController } from './calls.controller';
import { PreflightWait } from './preflight-wait';
import { CallsRepository } from './calls.repository';
import { CallsService } from './calls.service';
import { UpgradeRegressionRepository } from './upgrade-regression.repository';

@Module({
  imports: [EventsModule], // the orchestrator's call notices end a wait for pre-flight early
  controllers: [CallsController, BusyOverrideController],
  providers: [
    CallsService,
    CallsRepository,
    UpgradeRegressionRepository,
    PreflightWait,
    BusyOverrideService,
    BusyOverrideRepository,
  ],
  exports: [CallsService, CallsRepository],
})
export class CallsModule {}
