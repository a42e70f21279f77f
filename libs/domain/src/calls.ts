export const CALL_ORIGINS = ['operator', 'llm', 'agent', 'campaign', 'system'] as const;
export type CallOrigin = (typeof CALL_ORIGINS)[number];

export const CALL_STATES = [
  'queued',
  'awaiting_approval',
  'waiting_for_device',
  'sending',
  'sent',
  'verifying',
  'finished',
] as const;
export type CallState = (typeof CALL_STATES)[number];

/** Origins whose callers must never see or reach a user-only tool (DESIGN §4). */
export const MACHINE_ORIGINS: ReadonlySet<CallOrigin> = new Set(['llm', 'agent']);
