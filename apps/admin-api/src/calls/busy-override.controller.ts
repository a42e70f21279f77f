import { Controller, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { busyOverrideSchema, type BusyOverride } from '@fleet/api-contract';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams } from '../http/validation';
import { Idempotent } from '../idempotency/idempotent-requests';
import { busyOverrideBody } from './calls.schemas';
import { BusyOverrideService } from './busy-override.service';

@Controller()
export class BusyOverrideController {
  constructor(private readonly overrides: BusyOverrideService) {}

  @Post('calls/:id/busy-override')
  @HttpCode(200)
  @Roles('operator')
  @Idempotent()
  @Audited('call.busy_override', 'call')
  @Doc({
    summary: 'Let a reboot or an upgrade go while its device is in a conversation',
    description:
      'Such a call waits for the voice session to end; this sends it at once (after its approval, if it needs one). ' +
      'The person and the reason are cited in the decision evidence. 409 once the call has been sent.',
    response: { status: 200, description: 'the override that stands', schema: busyOverrideSchema },
  })
  override(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: z.infer<typeof uuidParams>,
    @ValidBody(busyOverrideBody) body: z.infer<typeof busyOverrideBody>,
  ): Promise<BusyOverride> {
    return this.overrides.override(actor, p.id, body.reason);
  }
}
