import { Module } from '@nestjs/common';
import { EventRelay } from './event-relay';
import { EventsController } from './events.controller';

@Module({ controllers: [EventsController], providers: [EventRelay], exports: [EventRelay] })
export class EventsModule {}
