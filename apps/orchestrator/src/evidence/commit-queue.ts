// The evidence group-commit writer lives in @fleet/db (DESIGN §8), shared with the evidence benchmark; this path
// keeps the orchestrator's imports as they were.
export { CommitQueue, LeaseLostError, type EvidenceRowInput, type SealInput, type UnitTx } from '@fleet/db';
