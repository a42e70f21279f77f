import { Controller, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { announcementCreatedSchema } from '@fleet/api-contract';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { deviceIdParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams } from '../http/validation';
import { Idempotent, IdempotencyKey } from '../idempotency/idempotent-requests';
import { createAnnouncementBody, type CreateAnnouncementBody } from './announcements.schemas';
import { AnnouncementsService } from './announcements.service';

@Controller()
export class AnnouncementsController {
  constructor(private readonly announcements: AnnouncementsService) {}

  @Post('devices/:id/announcements')
  @HttpCode(202)
  @Roles('operator')
  @Idempotent()
  @Audited('announcement.create', 'call')
  @Doc({
    summary: 'Announce to a device: an alert now, speech in its next voice session, or both',
    description:
      'The announcement is a call (tool `platform.announce`) with five evidence rows and a verdict. Too large: 413; ' +
      'over the rate per device or per sender: 429 with Retry-After; in quiet hours: held back to their end.',
    response: {
      status: 202,
      description: 'recorded (the orchestrator runs it)',
      schema: announcementCreatedSchema,
    },
  })
  create(
    @CurrentActor() actor: Actor,
    @ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>,
    @ValidBody(createAnnouncementBody) body: CreateAnnouncementBody,
    @IdempotencyKey() key: string | undefined,
  ) {
    return this.announcements.create(actor, p.id, body, key);
  }
}
