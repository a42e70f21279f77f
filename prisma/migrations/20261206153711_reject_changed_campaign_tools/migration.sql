-- DESIGN §4: a campaign's approval binds each device's tool as it was; a device whose tool changed is rejected.
-- AlterEnum
ALTER TYPE "CampaignTargetState" ADD VALUE 'rejected';

-- AlterTable
ALTER TABLE "campaign_target" ADD COLUMN "approved_tool_hash" TEXT;

-- AlterTable
ALTER TABLE "campaign" ADD COLUMN "reapproval_of" UUID;

-- AddForeignKey
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_reapproval_of_fkey" FOREIGN KEY ("reapproval_of") REFERENCES "campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;
