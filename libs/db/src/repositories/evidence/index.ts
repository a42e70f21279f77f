export { CommitQueue, LeaseLostError, type CommitQueueOptions, type UnitTx } from './commit-queue';
export { chainLinks, type EvidenceRowInput, type SealInput } from './chain-links';
export type { ChainHead, LeaseRef } from './evidence-chain.repository';
