-- Phased rollouts (DESIGN §3): a campaign's phases, the phase it is in, when its soak began and how each gate
-- ended; each target's phase, given when its phase opens. A rollback campaign names the campaign it undoes, and
-- every campaign keeps the definition it was started with (sealed by the next migration's trigger).
-- AlterTable
ALTER TABLE "campaign" ADD COLUMN     "definition" JSONB,
ADD COLUMN     "phase_index" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "phase_log" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "phase_soak_since" TIMESTAMPTZ(3),
ADD COLUMN     "phases" JSONB,
ADD COLUMN     "rollback_of" UUID;

-- AlterTable
ALTER TABLE "campaign_target" ADD COLUMN     "phase" INTEGER;

-- AddForeignKey
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_rollback_of_fkey" FOREIGN KEY ("rollback_of") REFERENCES "campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;
