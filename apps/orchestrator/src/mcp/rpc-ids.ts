import { createDatabase, TurnBatcher, type Pool } from '@fleet/db';
import { RpcSequenceRepository } from './rpc-sequence.repository';

// DESIGN §3: ids to xiaozhi devices are numbers below 2^31 (the firmware echoes `(int)valueint`), allocated
// durably per device so that no restart or failover reuses one. Blocks are reserved in Postgres; an id in an
// abandoned block is simply never used.
const BLOCK = 64;
const MAX_ID = 2_147_483_647;

export class RpcIds {
  private readonly blocks = new Map<string, { next: number; end: number }>();
  /** A device's block being reserved: callers that need one meanwhile wait for the same reservation. */
  private readonly reserving = new Map<string, Promise<void>>();
  /** Reservations of devices that ask at about the same time (a fleet powering on) share one statement. */
  private readonly reservations: TurnBatcher<string, number>;

  constructor(pool: Pool) {
    const sequences = new RpcSequenceRepository(createDatabase(pool));
    this.reservations = new TurnBatcher((deviceIds) => sequences.reserve(deviceIds, BLOCK, MAX_ID));
  }

  async next(deviceId: string): Promise<number> {
    for (;;) {
      const block = this.blocks.get(deviceId);
      if (block && block.next < block.end) return block.next++;
      await this.reserve(deviceId);
    }
  }

  forget(deviceIds: Iterable<string>): void {
    for (const id of deviceIds) this.blocks.delete(id);
  }

  private reserve(deviceId: string): Promise<void> {
    let pending = this.reserving.get(deviceId);
    if (!pending) {
      pending = this.reservations
        .submit(deviceId)
        .then((start) => void this.blocks.set(deviceId, { next: start, end: start + BLOCK }))
        .finally(() => this.reserving.delete(deviceId));
      this.reserving.set(deviceId, pending);
    }
    return pending;
  }
}
