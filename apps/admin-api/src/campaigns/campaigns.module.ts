import { Module } from '@nestjs/common';
import { AnnouncementsModule } from '../announcements/announcements.module';
import { ApprovalStoreModule } from '../approvals/approval-store.module';
import { AnnouncementCampaignGate } from './announcement-campaign-gate';
import { CampaignReapprovalService } from './campaign-reapproval.service';
import { CampaignTargetsRepository } from './campaign-targets.repository';
import { CampaignTransitionsService } from './campaign-transitions.service';
import { CampaignsController } from './campaigns.controller';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';

@Module({
  imports: [ApprovalStoreModule, AnnouncementsModule],
  controllers: [CampaignsController],
  providers: [
    CampaignsService,
    CampaignTransitionsService,
    CampaignReapprovalService,
    CampaignsRepository,
    CampaignTargetsRepository,
    AnnouncementCampaignGate,
  ],
  exports: [CampaignsService, CampaignTransitionsService],
})
export class CampaignsModule {}
