import { createDatabase, type Pool } from '@fleet/db';
import { RpcSequenceRepository } from './rpc-sequence.repository';

// DESIGN §3: ids to xiaozhi devices are numbers below 2^31 (the firmware echoes `(int)valueint`), allocated
// durably per device so that no restart or failover reuses one. Blocks are reserved in Postgres; an id in an
// abandoned block is simply never used.
const BLOCK = 64;
const MAX_ID = 2_147_483_647;

export class RpcIds {
  private readonly blocks = new Map<string, { next: number; end: number }>();
  private readonly sequences: RpcSequenceRepository;

  constructor(pool: Pool) {
    this.sequences = new RpcSequenceRepository(createDatabase(pool));
  }

  async next(deviceId: string): Promise<number> {
    let block = this.blocks.get(deviceId);
    if (!block || block.next >= block.end) {
      block = await this.reserve(deviceId);
      this.blocks.set(deviceId, block);
    }
    return block.next++;
  }

  forget(deviceIds: Iterable<string>): void {
    for (const id of deviceIds) this.blocks.delete(id);
  }

  private async reserve(deviceId: string): Promise<{ next: number; end: number }> {
    const start = await this.sequences.reserve(deviceId, BLOCK, MAX_ID);
    return { next: start, end: start + BLOCK };
  }
}
