import type { CampaignState, CampaignTargetState, Verdict } from '@fleet/api-contract';

// The platform's vocabularies, as the contract lib lists them (it checks them against @fleet/domain's).
export {
  CALL_ORIGINS,
  CALL_STATES,
  CAMPAIGN_STATES,
  CAMPAIGN_TARGET_STATES,
  EVIDENCE_STAGES,
  VERDICTS,
} from '@fleet/api-contract';

/** Tone of a verdict on screen: good news, a doubt, a failure, or nothing was sent. */
export type Tone = 'good' | 'doubt' | 'bad' | 'neutral' | 'busy';

export const VERDICT_TONE: Record<Verdict, Tone> = {
  verified: 'good',
  acknowledged: 'doubt',
  effect_mismatch: 'bad',
  device_error: 'bad',
  no_response: 'doubt',
  undelivered: 'neutral',
  rejected: 'neutral',
  invalid_arguments: 'neutral',
  expired: 'neutral',
  cancelled: 'neutral',
};

export const TARGET_TONE: Record<CampaignTargetState, Tone> = {
  pending: 'neutral',
  waiting_for_device: 'doubt',
  in_progress: 'busy',
  verified: 'good',
  acknowledged: 'doubt',
  failed: 'bad',
  skipped: 'neutral',
  cancelled: 'neutral',
  rejected: 'doubt',
};

export const CAMPAIGN_TONE: Record<CampaignState, Tone> = {
  draft: 'neutral',
  awaiting_approval: 'doubt',
  running: 'busy',
  paused: 'doubt',
  completed: 'good',
  aborted: 'bad',
  cancelled: 'neutral',
};

/** Campaign states a person can still act on, and what each action may leave (DESIGN §3). */
export const CAMPAIGN_ACTIONS_FROM: Record<
  'start' | 'pause' | 'resume' | 'cancel',
  readonly CampaignState[]
> = {
  start: ['draft'],
  pause: ['running'],
  resume: ['paused'],
  cancel: ['draft', 'awaiting_approval', 'running', 'paused'],
};
