import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { DeviceToolsController } from './device-tools.controller';
import { DeviceToolsRepository } from './device-tools.repository';
import { DeviceToolsService } from './device-tools.service';

@Module({
  imports: [DevicesModule],
  controllers: [DeviceToolsController],
  providers: [DeviceToolsService, DeviceToolsRepository],
  exports: [DeviceToolsService],
})
export class DeviceToolsModule {}
