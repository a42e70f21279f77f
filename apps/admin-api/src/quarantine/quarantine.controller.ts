import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { deviceIdParams } from '../http/common-schemas';
import type { Page } from '../http/cursor';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import type { QuarantineRow } from './quarantine.repository';
import { acceptBody, quarantineListQuery, rejectBody } from './quarantine.schemas';
import { QuarantineService } from './quarantine.service';

@Controller()
export class QuarantineController {
  constructor(private readonly quarantine: QuarantineService) {}

  @Get('quarantine')
  @Roles('viewer')
  @Doc({ summary: 'Check-ins held back because their Client-Id differs from the bound one' })
  list(
    @ValidQuery(quarantineListQuery) q: z.infer<typeof quarantineListQuery>,
  ): Promise<Page<QuarantineRow>> {
    return this.quarantine.list(q.state, q.limit, q.cursor);
  }

  @Post('devices/:id/quarantine/accept')
  @HttpCode(200)
  @Roles('admin')
  @Audited('quarantine.accept', 'device')
  @Doc({ summary: 'Bind the MAC to the claimed Client-Id (a legitimately re-flashed device)' })
  accept(
    @CurrentActor() actor: Actor,
    @ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>,
    @ValidBody(acceptBody.optional()) body: z.infer<typeof acceptBody> | undefined,
  ): Promise<QuarantineRow> {
    return this.quarantine.accept(actor, p.id, body?.quarantineId, body?.reason);
  }

  @Post('devices/:id/quarantine/reject')
  @HttpCode(200)
  @Roles('operator')
  @Audited('quarantine.reject', 'device')
  @Doc({ summary: 'Refuse the claim; the bound identity keeps working' })
  reject(
    @CurrentActor() actor: Actor,
    @ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>,
    @ValidBody(rejectBody) body: z.infer<typeof rejectBody>,
  ): Promise<QuarantineRow> {
    return this.quarantine.reject(actor, p.id, body.quarantineId, body.reason);
  }
}
