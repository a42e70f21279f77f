import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { reasonText, uuidParams } from '../http/common-schemas';
import { limitParam, type Page } from '../http/cursor';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import { Idempotent } from '../idempotency/idempotent-requests';
import type { ApprovalRow } from './approvals.repository';
import { approvalCursor } from './approval-cursor';
import { ApprovalsService, type Decision } from './approvals.service';

const listQuery = z.strictObject({
  state: z.enum(['pending', 'approved', 'rejected', 'expired']).default('pending'),
  limit: limitParam(50, 500),
  cursor: approvalCursor.param.optional(),
});
const approveBody = z.strictObject({ reason: reasonText.optional() }).optional();
const rejectBody = z.strictObject({ reason: reasonText });
type Id = z.infer<typeof uuidParams>;

@Controller('approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  @Roles('viewer')
  @Doc({ summary: 'Approvals; `pending` lists what still waits, with its expiry' })
  list(@ValidQuery(listQuery) q: z.infer<typeof listQuery>): Promise<Page<ApprovalRow>> {
    return this.approvals.list(q.state, q.limit, q.cursor);
  }

  @Get(':id')
  @Roles('viewer')
  @Doc({ summary: 'One approval: what it binds (device, tool, exact arguments), who asked, who decided' })
  get(@ValidParams(uuidParams) p: Id): Promise<ApprovalRow> {
    return this.approvals.get(p.id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Roles('operator')
  @Idempotent()
  @Audited('approval.approve', 'approval')
  @Doc({ summary: 'Approve (another person than the one who asked); the call or campaign goes on' })
  approve(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: Id,
    @ValidBody(approveBody) b: z.infer<typeof approveBody>,
  ): Promise<Decision> {
    return this.approvals.approve(actor, p.id, b?.reason);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Roles('operator')
  @Idempotent()
  @Audited('approval.reject', 'approval')
  @Doc({ summary: 'Reject with a reason; the call is sealed `rejected`, a campaign cancelled' })
  reject(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: Id,
    @ValidBody(rejectBody) b: z.infer<typeof rejectBody>,
  ): Promise<Decision> {
    return this.approvals.reject(actor, p.id, b.reason);
  }
}
