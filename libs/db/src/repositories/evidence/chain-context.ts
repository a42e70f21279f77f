import type { Pool } from 'pg';
import type { SignSeal } from './chain-links';
import type { ChainHead, LeaseRef } from './evidence-chain.repository';

export class LeaseLostError extends Error {
  constructor(partition: number) {
    super(`partition ${partition} is no longer owned by this replica`);
    this.name = 'LeaseLostError';
  }
}

/** What both kinds of batch write with: the pool, the replica's leases and the chain heads it has committed. */
export interface ChainContext {
  pool: Pool;
  holder: string;
  leaseOf: (partition: number) => LeaseRef | undefined;
  /** The last committed link of each device's chain, as far as this replica knows (dropped on a conflict). */
  heads: Map<string, ChainHead>;
  /** Signs each seal link's hash (the orchestrator's key); without it seals are written unsigned. */
  signSeal?: SignSeal;
}

/** The batch's leases, one row each however many of its partitions a lease covers. */
export function distinctLeases(leases: Iterable<LeaseRef | undefined>): LeaseRef[] {
  const distinct = new Map<string, LeaseRef>();
  for (const l of leases) if (l) distinct.set(`${l.name}\u0000${l.token}`, l);
  return [...distinct.values()];
}
