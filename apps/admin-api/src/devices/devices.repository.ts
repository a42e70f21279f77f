import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool, type Row } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';
import type { DeviceListQuery } from './devices.schemas';

export interface DeviceRow {
  id: string;
  status: Row<'device'>['status'];
  dialect: Row<'device'>['dialect'];
  board: string | null;
  boardName: string | null;
  firmwareVersion: string | null;
  chipModel: string | null;
  online: boolean;
  lastSeenAt: Date | null;
}

/**
 * The fleet list: keyset pagination on the primary key, so page 200 costs what page 1 costs. Each filter
 * has an index that leads with it and ends with `id` ((online,id), (dialect,id), (board,id), (firmware_version,id),
 * member (group_id,device_id), tag (tag,device_id)), so a filtered page is an index range scan too.
 */
@Injectable()
export class DevicesRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** `groupIds`: a group-scoped key's bounds (auth/device-scope.ts), never empty here. */
  list(q: DeviceListQuery, afterId: string | undefined, groupIds?: readonly string[]): Promise<DeviceRow[]> {
    let query = this.db
      .selectFrom('device as d')
      .select([
        'd.id',
        'd.status',
        'd.dialect',
        'd.board',
        'd.board_name as boardName',
        'd.firmware_version as firmwareVersion',
        'd.chip_model as chipModel',
        'd.online',
        'd.last_seen_at as lastSeenAt',
      ]);
    if (q.group !== undefined) {
      const group = q.group;
      query = query.innerJoin('device_group_member as gm', (j) =>
        j
          .onRef('gm.device_id', '=', 'd.id')
          .on('gm.group_id', '=', (eb) =>
            eb.selectFrom('device_group').select('id').where('name', '=', group),
          ),
      );
    }
    if (q.tag !== undefined) {
      const tag = q.tag;
      query = query.innerJoin('device_tag as t', (j) =>
        j.onRef('t.device_id', '=', 'd.id').on('t.tag', '=', tag),
      );
    }
    if (groupIds !== undefined) {
      query = query.where('d.id', 'in', (eb) =>
        eb.selectFrom('device_group_member').select('device_id').where('group_id', 'in', groupIds),
      );
    }
    if (q.online !== undefined) query = query.where('d.online', '=', q.online);
    if (q.board !== undefined) query = query.where('d.board', '=', q.board);
    if (q.firmware !== undefined) query = query.where('d.firmware_version', '=', q.firmware);
    if (q.status !== undefined) query = query.where('d.status', '=', q.status);
    if (q.dialect !== undefined) query = query.where('d.dialect', '=', q.dialect);
    if (q.q !== undefined) {
      const like = q.q.replace(/[\\%_]/g, (c) => `\\${c}`);
      query = query.where((eb) =>
        eb.or([
          eb('d.id', 'like', `${like.toLowerCase()}%`),
          eb('d.serial_number', 'ilike', `%${like}%`),
          eb('d.board_name', 'ilike', `%${like}%`),
        ]),
      );
    }
    if (afterId !== undefined) query = query.where('d.id', '>', afterId);
    return query
      .orderBy('d.id')
      .limit(q.limit + 1)
      .execute();
  }

  async exists(id: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('device').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
    );
  }
}
