import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EventRelay } from './event-relay';
import { EventWaits } from './event-waits';
import { EventsController } from './events.controller';

@Module({
  imports: [AuthModule], // DeviceScope: a group-scoped key's stream carries only its devices
  controllers: [EventsController],
  providers: [EventRelay, EventWaits],
  exports: [EventRelay, EventWaits],
})
export class EventsModule {}
