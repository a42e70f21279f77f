import type {
  CallOrigin,
  CallState,
  CampaignState,
  CampaignTargetState,
  EvidenceStage,
  ToolNameFlag,
  Verdict,
} from '@fleet/domain';

// The platform's vocabularies as runtime lists. This lib is bundled into the browser console, so it imports
// only *types* from @fleet/domain (its values pull in node:crypto): each list is a record keyed by the domain's
// type, so tsc refuses a missing or unknown member. vocabulary.spec.ts compares every list, those written out
// here included, with the libs' own.
const keys = <K extends string>(record: Record<K, true>): [K, ...K[]] => Object.keys(record) as [K, ...K[]];

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
  rejected: true,
  acknowledged: true,
});

/** What discovery notes about a tool's name (libs/domain toolNameFlags). */
export const TOOL_NAME_FLAGS = keys<ToolNameFlag>({
  outside_mcp_names: true,
  bidi_control: true,
  invisible_character: true,
});

/** How a device speaks MCP: xiaozhi over MQTT, or ListenAI over its WebSocket link (the protocol lib's). */
export const DIALECTS = ['xiaozhi', 'listenai'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** DESIGN §3 People: viewer < operator < admin (the auth lib's ROLES, compared in the spec). */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const DEVICE_STATUSES = ['active', 'awaiting_activation', 'revoked', 'decommissioned'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'expired', 'cancelled', 'void'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

export type {
  CallOrigin,
  CallState,
  CampaignState,
  CampaignTargetState,
  EvidenceStage,
  ToolNameFlag,
  Verdict,
};
