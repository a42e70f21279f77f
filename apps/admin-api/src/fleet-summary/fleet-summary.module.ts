import { Module } from '@nestjs/common';
import { FleetSummaryController } from './fleet-summary.controller';
import { FleetSummaryRepository } from './fleet-summary.repository';

@Module({ controllers: [FleetSummaryController], providers: [FleetSummaryRepository] })
export class FleetSummaryModule {}
