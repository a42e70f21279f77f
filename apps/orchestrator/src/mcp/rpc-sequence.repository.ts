import { sql, type Database } from '@fleet/db';

/** `device_rpc_sequence`: the next JSON-RPC id block of each device (DESIGN §3, see RpcIds). */
export class RpcSequenceRepository {
  constructor(private readonly db: Database) {}

  /** Reserves `size` ids and returns the first; past `max` the sequence starts again at 1. */
  async reserve(deviceId: string, size: number, max: number): Promise<number> {
    const { start } = await this.db
      .insertInto('device_rpc_sequence')
      .values({ device_id: deviceId, next_id: 1 + size })
      .onConflict((c) =>
        c.column('device_id').doUpdateSet({
          next_id: sql<number>`CASE WHEN device_rpc_sequence.next_id + ${size} > ${max} THEN ${1 + size}
                                    ELSE device_rpc_sequence.next_id + ${size} END`,
        }),
      )
      .returning(sql<number>`next_id - ${size}`.as('start'))
      .executeTakeFirstOrThrow();
    return start;
  }
}
