// DESIGN §3: draft → awaiting_approval → running ⇄ paused → completed / aborted / cancelled
export const CAMPAIGN_STATES = [
  'draft',
  'awaiting_approval',
  'running',
  'paused',
  'completed',
  'aborted',
  'cancelled',
] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

// pending → waiting_for_device → in_progress → verified / failed / skipped / cancelled
export const CAMPAIGN_TARGET_STATES = [
  'pending',
  'waiting_for_device',
  'in_progress',
  'verified',
  'failed',
  'skipped',
  'cancelled',
] as const;
export type CampaignTargetState = (typeof CAMPAIGN_TARGET_STATES)[number];
