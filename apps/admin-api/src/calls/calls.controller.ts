import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { AuditedWriteOf, type AuditedWrite } from '../audit/audited-write';
import { CurrentActor, type Actor } from '../http/actor';
import { deviceIdParams, uuidParams } from '../http/common-schemas';
import type { Page } from '../http/cursor';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import { Idempotent, IdempotencyKey } from '../idempotency/idempotent-requests';
import type { CallSummaryRow } from './calls.repository';
import {
  callCreatedView,
  callListQuery,
  cancelBody,
  createCallBody,
  type CallCreatedView,
  type CallListQuery,
  type CreateCallBody,
} from './calls.schemas';
import { CallsService, type CallView } from './calls.service';

@Controller()
export class CallsController {
  constructor(private readonly calls: CallsService) {}

  @Post('devices/:id/calls')
  @HttpCode(202)
  @Roles('operator')
  @Idempotent()
  // The call's INSERT writes the request's audit row: one statement and one commit fewer per call.
  @Audited('call.create', 'call', { byWrite: true })
  @Doc({
    summary: 'Ask the orchestrator to call a tool on a device',
    description: 'A user-only tool waits for another person to approve: the answer says `awaiting_approval`.',
    response: { status: 202, description: 'queued (the orchestrator runs it)', schema: callCreatedView },
  })
  create(
    @CurrentActor() actor: Actor,
    @ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>,
    @ValidBody(createCallBody) body: CreateCallBody,
    @IdempotencyKey() key: string | undefined,
    @AuditedWriteOf() audit: AuditedWrite | undefined,
  ): Promise<CallCreatedView> {
    return this.calls.create(actor, p.id, body, key, audit);
  }

  @Get('calls/:id')
  @Roles('viewer')
  @Doc({ summary: 'A call with its five evidence rows (each parsed with its stage schema) and its verdict' })
  get(@ValidParams(uuidParams) p: z.infer<typeof uuidParams>): Promise<CallView> {
    return this.calls.get(p.id);
  }

  @Get('calls')
  @Roles('viewer')
  @Doc({ summary: 'Calls, newest first, filtered' })
  list(
    @CurrentActor() actor: Actor,
    @ValidQuery(callListQuery) q: CallListQuery,
  ): Promise<Page<CallSummaryRow>> {
    return this.calls.list(q, actor.deviceGroups);
  }

  @Post('calls/:id/cancel')
  @HttpCode(200)
  @Roles('operator')
  @Idempotent()
  @Audited('call.cancel', 'call')
  @Doc({ summary: 'Cancel a call that has not been sent (409 once it has been sent or has finished)' })
  cancel(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: z.infer<typeof uuidParams>,
    @ValidBody(cancelBody) body: z.infer<typeof cancelBody>,
  ) {
    return this.calls.cancel(actor, p.id, body.reason);
  }
}
