export { CommitQueue, LeaseLostError, type CommitQueueOptions, type UnitTx } from './commit-queue';
export { chainLinks, type EvidenceRowInput, type SealInput, type SignSeal } from './chain-links';
export type { ChainHead, LeaseRef } from './evidence-chain.repository';
