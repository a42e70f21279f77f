import { Module } from '@nestjs/common';
import { BoardFactsRepository } from './board-facts.repository';
import { FirmwareController } from './firmware.controller';
import { FirmwareRepository } from './firmware.repository';
import { FirmwareService } from './firmware.service';

@Module({
  controllers: [FirmwareController],
  providers: [FirmwareService, FirmwareRepository, BoardFactsRepository],
})
export class FirmwareModule {}
