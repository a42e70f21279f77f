-- Campaigns across device families (DESIGN §1, §3): each says which verdicts count as done for a device, for its
-- progress and its abort rule alike: `verified` only, or `verified_or_acknowledged` for devices whose effect the
-- platform cannot observe. A device done by acknowledgement is counted as such, never as verified.
ALTER TYPE "CampaignTargetState" ADD VALUE 'acknowledged';
ALTER TABLE "campaign" ADD COLUMN "done_when" "DoneWhen" NOT NULL DEFAULT 'verified';
