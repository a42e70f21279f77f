import { Module } from '@nestjs/common';
import { AnnouncementRateLimit } from './announcement-rate-limit';
import { AnnouncementScheduleRunner } from './announcement-schedule-runner';
import { AnnouncementSchedulesController } from './announcement-schedules.controller';
import { AnnouncementSchedulesRepository } from './announcement-schedules.repository';
import { AnnouncementSchedulesService } from './announcement-schedules.service';
import { AnnouncementsController } from './announcements.controller';
import { AnnouncementsRepository } from './announcements.repository';
import { AnnouncementsService } from './announcements.service';

@Module({
  controllers: [AnnouncementsController, AnnouncementSchedulesController],
  providers: [
    AnnouncementsService,
    AnnouncementsRepository,
    AnnouncementRateLimit,
    AnnouncementSchedulesService,
    AnnouncementSchedulesRepository,
    AnnouncementScheduleRunner,
  ],
  exports: [AnnouncementsService, AnnouncementRateLimit],
})
export class AnnouncementsModule {}
