import { Module } from '@nestjs/common';
import { ApprovalsRepository } from './approvals.repository';

/** The approval rows, shared by the approval gate and campaigns (whose approval freezes their targets). */
@Module({ providers: [ApprovalsRepository], exports: [ApprovalsRepository] })
export class ApprovalStoreModule {}
