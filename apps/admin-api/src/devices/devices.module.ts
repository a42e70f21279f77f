import { Module } from '@nestjs/common';
import { DeviceDetailRepository } from './device-detail.repository';
import { DeviceRegistrationController } from './device-registration.controller';
import { DeviceRegistrationRepository } from './device-registration.repository';
import { DeviceRegistrationService } from './device-registration.service';
import { DeviceLifecycleService } from './device-lifecycle.service';
import { DeviceStatusRepository } from './device-status.repository';
import { DevicesController } from './devices.controller';
import { DevicesRepository } from './devices.repository';
import { DevicesService } from './devices.service';
import { PresenceRepository } from './presence.repository';
import { TakeoverGauge } from './takeover-gauge';
import { TakeoversRepository } from './takeovers.repository';

@Module({
  controllers: [DevicesController, DeviceRegistrationController],
  providers: [
    DevicesService,
    DeviceLifecycleService,
    DevicesRepository,
    DeviceDetailRepository,
    DeviceStatusRepository,
    PresenceRepository,
    DeviceRegistrationRepository,
    DeviceRegistrationService,
    TakeoversRepository,
    TakeoverGauge,
  ],
  exports: [DevicesRepository, DevicesService],
})
export class DevicesModule {}
