// DESIGN §1: five rows per call, always all five; a stage that did not happen says why.
export const EVIDENCE_STAGES = ['discovery', 'decision', 'parameters', 'response', 'effect'] as const;
export type EvidenceStage = (typeof EVIDENCE_STAGES)[number];
