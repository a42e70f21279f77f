import { Module } from '@nestjs/common';
import { AnnouncementsModule } from '../announcements/announcements.module';
import { ApprovalStoreModule } from '../approvals/approval-store.module';
import { CampaignDefinitionsController } from './campaign-definitions.controller';
import { CampaignDefinitionsRepository } from './campaign-definitions.repository';
import { CampaignDefinitionsService } from './campaign-definitions.service';
import { AnnouncementCampaignGate } from './announcement-campaign-gate';
import { CampaignReapprovalService } from './campaign-reapproval.service';
import { CampaignTargetsRepository } from './campaign-targets.repository';
import { CampaignToolsRepository } from './campaign-tools.repository';
import { CampaignTransitionsService } from './campaign-transitions.service';
import { CampaignsController } from './campaigns.controller';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';
import { ReleaseCampaignsController } from './release-campaigns.controller';

@Module({
  imports: [ApprovalStoreModule, AnnouncementsModule],
  controllers: [CampaignsController, CampaignDefinitionsController, ReleaseCampaignsController],
  providers: [
    CampaignsService,
    CampaignTransitionsService,
    CampaignReapprovalService,
    CampaignsRepository,
    CampaignTargetsRepository,
    CampaignToolsRepository,
    CampaignDefinitionsService,
    CampaignDefinitionsRepository,
    AnnouncementCampaignGate,
  ],
  exports: [CampaignsService, CampaignTransitionsService],
})
export class CampaignsModule {}
