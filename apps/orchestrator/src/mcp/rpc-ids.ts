import type { Pool } from '@fleet/db';

// DESIGN §3: ids to xiaozhi devices are numbers below 2^31 (the firmware echoes `(int)valueint`), allocated
// durably per device so that no restart or failover reuses one. Blocks are reserved in Postgres; an id in an
// abandoned block is simply never used.
const BLOCK = 64;
const MAX_ID = 2_147_483_647;

export class RpcIds {
  private readonly blocks = new Map<string, { next: number; end: number }>();

  constructor(private readonly pool: Pool) {}

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
    const { rows } = await this.pool.query<{ start: number }>(
      `INSERT INTO device_rpc_sequence (device_id, next_id) VALUES ($1, 1 + $2)
       ON CONFLICT (device_id) DO UPDATE SET next_id =
         CASE WHEN device_rpc_sequence.next_id + $2 > $3 THEN 1 + $2 ELSE device_rpc_sequence.next_id + $2 END
       RETURNING next_id - $2 AS start`,
      [deviceId, BLOCK, MAX_ID],
    );
    const start = rows[0]!.start;
    return { next: start, end: start + BLOCK };
  }
}
