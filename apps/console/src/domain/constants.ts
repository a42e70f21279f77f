import type {
  CallOrigin,
  CallState,
  CampaignState,
  CampaignTargetState,
  EvidenceStage,
  Verdict,
} from '@fleet/domain';

// Runtime lists of the platform's vocabularies. The console imports only types from @fleet/domain (its values
// pull in zod and node:crypto), so the lists are written here as records keyed by those types: tsc refuses a
// missing or unknown member, and the unit tests compare the order with the lib's own lists.
const keys = <K extends string>(record: Record<K, true>): K[] => Object.keys(record) as K[];

export const VERDICTS = keys<Verdict>({
  verified: true,
  acknowledged: true,
  effect_mismatch: true,
  device_error: true,
  no_response: true,
  undelivered: true,
  rejected: true,
  invalid_arguments: true,
  expired: true,
  cancelled: true,
});

export const EVIDENCE_STAGES = keys<EvidenceStage>({
  discovery: true,
  decision: true,
  parameters: true,
  response: true,
  effect: true,
});

export const CALL_STATES = keys<CallState>({
  queued: true,
  awaiting_approval: true,
  waiting_for_device: true,
  sending: true,
  sent: true,
  verifying: true,
  finished: true,
});

export const CALL_ORIGINS = keys<CallOrigin>({
  operator: true,
  llm: true,
  agent: true,
  campaign: true,
  system: true,
});

export const CAMPAIGN_STATES = keys<CampaignState>({
  draft: true,
  awaiting_approval: true,
  running: true,
  paused: true,
  completed: true,
  aborted: true,
  cancelled: true,
});

export const CAMPAIGN_TARGET_STATES = keys<CampaignTargetState>({
  pending: true,
  waiting_for_device: true,
  in_progress: true,
  verified: true,
  failed: true,
  skipped: true,
  cancelled: true,
});

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
  failed: 'bad',
  skipped: 'neutral',
  cancelled: 'neutral',
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
