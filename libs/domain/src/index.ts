export { VERDICTS, VERDICT_MEANING, NOT_SENT_VERDICTS, type Verdict } from './verdicts';
export { EVIDENCE_STAGES, type EvidenceStage } from './evidence-stages';
export { CALL_ORIGINS, CALL_STATES, MACHINE_ORIGINS, type CallOrigin, type CallState } from './calls';
export {
  CAMPAIGN_STATES,
  CAMPAIGN_TARGET_STATES,
  type CampaignState,
  type CampaignTargetState,
} from './campaigns';
export { CALL_PARTITIONS, partitionOf, partitionSql } from './partitions';
export * from './evidence-payloads';
export { SYSTEM_REBOOT_TOOL, PLATFORM_TOOLS } from './platform-tools';
export * from './campaign-specs';
export { GENESIS_HASH, evidenceHash, canonicalJson, type ChainedRow } from './evidence-chain';
export * from './platform-events';
