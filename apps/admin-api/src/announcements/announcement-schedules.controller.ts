import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { z } from 'zod';
import { announcementScheduleSchema } from '@fleet/api-contract';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { deviceIdParams, uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import { Idempotent } from '../idempotency/idempotent-requests';
import {
  createScheduleBody,
  scheduleListQuery,
  type CreateScheduleBody,
} from './announcement-schedules.schemas';
import { AnnouncementSchedulesService } from './announcement-schedules.service';

type Id = z.infer<typeof uuidParams>;
const emptyBody = z.strictObject({}).optional();

@Controller()
export class AnnouncementSchedulesController {
  constructor(private readonly schedules: AnnouncementSchedulesService) {}

  @Post('devices/:id/announcement-schedules')
  @HttpCode(201)
  @Roles('operator')
  @Idempotent()
  @Audited('announcement_schedule.create', 'announcement_schedule')
  @Doc({
    summary: 'Schedule an announcement: once (`at`) or recurring (`cron`, in the device group time zone)',
    description:
      'Each run is an announcement call of its own, through the same gate, as the schedule creator.',
    response: { status: 201, description: 'scheduled', schema: announcementScheduleSchema },
  })
  create(
    @CurrentActor() actor: Actor,
    @ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>,
    @ValidBody(createScheduleBody) body: CreateScheduleBody,
  ) {
    return this.schedules.create(actor, p.id, body);
  }

  @Get('announcement-schedules')
  @Roles('viewer')
  @Doc({ summary: 'Announcement schedules, newest first' })
  async list(
    @CurrentActor() actor: Actor,
    @ValidQuery(scheduleListQuery) q: z.infer<typeof scheduleListQuery>,
  ) {
    return { items: await this.schedules.list(q, actor.deviceGroups) };
  }

  @Get('announcement-schedules/:id')
  @Roles('viewer')
  @Doc({ summary: 'One announcement schedule: its next run, its runs so far, the last call it made' })
  get(@ValidParams(uuidParams) p: Id) {
    return this.schedules.get(p.id);
  }

  @Post('announcement-schedules/:id/pause')
  @HttpCode(200)
  @Roles('operator')
  @Audited('announcement_schedule.pause', 'announcement_schedule')
  @Doc({ summary: 'Pause a schedule (409 unless active)' })
  pause(@ValidParams(uuidParams) p: Id, @ValidBody(emptyBody) _b: unknown) {
    return this.schedules.move(p.id, 'pause');
  }

  @Post('announcement-schedules/:id/resume')
  @HttpCode(200)
  @Roles('operator')
  @Audited('announcement_schedule.resume', 'announcement_schedule')
  @Doc({ summary: 'Resume a paused schedule at its next time from now (missed runs are not made up)' })
  resume(@ValidParams(uuidParams) p: Id, @ValidBody(emptyBody) _b: unknown) {
    return this.schedules.move(p.id, 'resume');
  }

  @Post('announcement-schedules/:id/cancel')
  @HttpCode(200)
  @Roles('operator')
  @Audited('announcement_schedule.cancel', 'announcement_schedule')
  @Doc({
    summary: 'Cancel a schedule for good; calls already made go on (each can be cancelled before sending)',
  })
  cancel(@ValidParams(uuidParams) p: Id, @ValidBody(emptyBody) _b: unknown) {
    return this.schedules.move(p.id, 'cancel');
  }
}
