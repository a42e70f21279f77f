export { VERDICTS, VERDICT_MEANING, NOT_SENT_VERDICTS, type Verdict } from './verdicts';
export { EVIDENCE_STAGES, type EvidenceStage } from './evidence-stages';
export { CALL_ORIGINS, CALL_STATES, MACHINE_ORIGINS, type CallOrigin, type CallState } from './calls';
export {
  CAMPAIGN_STATES,
  CAMPAIGN_TARGET_STATES,
  CAMPAIGN_TOOL_CHANGED,
  NO_TOOL_AT_APPROVAL,
  campaignActionTool,
  type CampaignState,
  type CampaignTargetState,
} from './campaigns';
export { CALL_PARTITIONS, partitionOf, partitionSql } from './partitions';
export * from './evidence-payloads';
export { SYSTEM_REBOOT_TOOL, PLATFORM_TOOLS } from './platform-tools';
export * from './campaign-specs';
export * from './campaign-phases';
export { canonicalJson } from './canonical-json';
export {
  GENESIS_HASH,
  SEAL_LINK,
  CHAIN_LINKS,
  evidenceHash,
  type ChainedRow,
  type ChainLink,
  type SealPayload,
} from './evidence-chain';
export {
  ChainWalk,
  type ChainBreak,
  type ChainProblem,
  type ChainStart,
  type StoredLink,
} from './chain-walk';
export {
  sealMismatches,
  sealPayloadSchema,
  type SealField,
  type SealMismatch,
  type SealedFields,
  type SealLinkFields,
} from './seal-check';
export * from './platform-events';
export { asksForConfirmation, confirmationAskedIn, normaliseProse } from './confirmation';
export { CONFIRMATION_PHRASINGS, type ConfirmationPhrasing } from './confirmation-phrasings';
export { BIDI_CONTROLS, TOOL_NAME_FLAGS, toolNameFlags, type ToolNameFlag } from './tool-names';
export { toolHash } from './tool-hash';
export {
  declaresReadOnly,
  toolAccess,
  toolSensitivity,
  visibleToMachines,
  type SensitiveMarking,
  type Sensitivity,
  type ToolAccess,
  type ToolFacts,
} from './tool-access';
export { platformToolHints, type PlatformToolHints } from './tool-hints';
export {
  DONE_WHEN,
  TOOL_KINDS,
  capabilitySchema,
  markingsOf,
  profileFor,
  readbackSpecSchema,
  toolProfileBodySchema,
  type Capability,
  type DoneWhen,
  type ProfiledDevice,
  type ReadbackSpec,
  type ToolKind,
  type ToolProfileBody,
  type ToolProfileView,
} from './tool-profiles';
export { proposeReadbacks, type PairableTool, type ReadbackPairing } from './readback-pairings';
export { legacyModelReadbacksSchema, profilesFromLegacyReadbacks } from './legacy-model-readbacks';
export { capabilityCall, countsAsDone, type CapabilityCall } from './capabilities';
export {
  ANNOUNCE_TOOL,
  ANNOUNCEMENT_HOWS,
  announcementContentShape,
  alerts,
  announcementArgumentsSchema,
  heldUntil,
  quietHoursEnd,
  quietHoursSchema,
  speaks,
  type AnnouncementArguments,
  type AnnouncementHow,
  type QuietHours,
} from './announcements';
export {
  BUSY_LOCK_RULE,
  busyLockOutcome,
  busyLockRecord,
  busyLockRule,
  describeWait,
  type BusyLockFacts,
  type BusyLockOutcome,
} from './busy-lock';
export {
  DEFAULT_HEALTH_THRESHOLDS,
  releaseHealth,
  versionHealth,
  type HealthFinding,
  type HealthSignal,
  type HealthThresholds,
  type ReleaseHealth,
  type VersionHealth,
  type VersionSignals,
} from './release-health';
export { timeZoneSchema } from './time-zone';
