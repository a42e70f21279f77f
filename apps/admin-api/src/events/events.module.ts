import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EventRelay } from './event-relay';
import { EventsController } from './events.controller';

@Module({
  imports: [AuthModule], // DeviceScope: a group-scoped key's stream carries only its devices
  controllers: [EventsController],
  providers: [EventRelay],
  exports: [EventRelay],
})
export class EventsModule {}
