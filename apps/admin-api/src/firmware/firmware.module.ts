import { Module } from '@nestjs/common';
import { FirmwareController } from './firmware.controller';
import { FirmwareRepository } from './firmware.repository';
import { FirmwareService } from './firmware.service';

@Module({ controllers: [FirmwareController], providers: [FirmwareService, FirmwareRepository] })
export class FirmwareModule {}
