import { Module } from '@nestjs/common';
import { CallsController } from './calls.controller';
import { CallsRepository } from './calls.repository';
import { CallsService } from './calls.service';
import { UpgradeRegressionRepository } from './upgrade-regression.repository';

@Module({
  controllers: [CallsController],
  providers: [CallsService, CallsRepository, UpgradeRegressionRepository],
  exports: [CallsService, CallsRepository],
})
export class CallsModule {}
