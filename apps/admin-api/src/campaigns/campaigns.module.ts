import { Module } from '@nestjs/common';
import { ApprovalStoreModule } from '../approvals/approval-store.module';
import { CampaignReapprovalService } from './campaign-reapproval.service';
import { CampaignTargetsRepository } from './campaign-targets.repository';
import { CampaignToolsRepository } from './campaign-tools.repository';
import { CampaignTransitionsService } from './campaign-transitions.service';
import { CampaignsController } from './campaigns.controller';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';

@Module({
  imports: [ApprovalStoreModule],
  controllers: [CampaignsController],
  providers: [
    CampaignsService,
    CampaignTransitionsService,
    CampaignReapprovalService,
    CampaignsRepository,
    CampaignTargetsRepository,
    CampaignToolsRepository,
  ],
  exports: [CampaignsService, CampaignTransitionsService],
})
export class CampaignsModule {}
