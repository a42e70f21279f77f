import { sql, type Database } from '@fleet/db';

/** `device_rpc_sequence`: the next JSON-RPC id block of each device (DESIGN §3, see RpcIds). */
export class RpcSequenceRepository {
  constructor(private readonly db: Database) {}

  /**
   * Reserves `size` ids for each device (each at most once in `deviceIds`) and returns the first of each, in
   * input order; past `max` a sequence starts again at 1. One statement for all: a fleet powering on asks for
   * its first blocks at about the same time.
   */
  async reserve(deviceIds: readonly string[], size: number, max: number): Promise<number[]> {
    const rows = await this.db
      .insertInto('device_rpc_sequence')
      .columns(['device_id', 'next_id'])
      .expression(
        this.db
          .selectFrom(sql<{ device_id: string }>`unnest(${deviceIds}::text[])`.as<'u'>(sql`u(device_id)`))
          .select(['u.device_id', sql<number>`${1 + size}::int`.as('next_id')]),
      )
      .onConflict((c) =>
        c.column('device_id').doUpdateSet({
          next_id: sql<number>`CASE WHEN device_rpc_sequence.next_id + ${size} > ${max} THEN ${1 + size}
                                    ELSE device_rpc_sequence.next_id + ${size} END`,
        }),
      )
      .returning(['device_id', sql<number>`next_id - ${size}`.as('start')])
      .execute();
    const starts = new Map(rows.map((r) => [r.device_id, Number(r.start)]));
    return deviceIds.map((id) => {
      const start = starts.get(id);
      if (start === undefined) throw new Error(`no id block was reserved for ${id}`);
      return start;
    });
  }
}
