import { Module } from '@nestjs/common';
import { AnnouncementRateLimit } from './announcement-rate-limit';
import { AnnouncementsController } from './announcements.controller';
import { AnnouncementsRepository } from './announcements.repository';
import { AnnouncementsService } from './announcements.service';

@Module({
  controllers: [AnnouncementsController],
  providers: [AnnouncementsService, AnnouncementsRepository, AnnouncementRateLimit],
  exports: [AnnouncementsService],
})
export class AnnouncementsModule {}
