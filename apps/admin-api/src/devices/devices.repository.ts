import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { SqlParams } from '../http/sql';
import { PG_POOL } from '../infra/tokens';
import type { DeviceListQuery } from './devices.schemas';

export interface DeviceRow {
  id: string;
  status: 'active' | 'awaiting_activation' | 'revoked' | 'decommissioned';
  dialect: 'xiaozhi' | 'listenai';
  board: string | null;
  boardName: string | null;
  firmwareVersion: string | null;
  chipModel: string | null;
  online: boolean;
  lastSeenAt: Date | null;
}

const SUMMARY = `d.id, d.status, d.dialect, d.board, d.board_name AS "boardName", d.firmware_version AS "firmwareVersion",
  d.chip_model AS "chipModel", d.online, d.last_seen_at AS "lastSeenAt"`;

/**
 * The fleet list: keyset pagination on the primary key, so page 200 costs what page 1 costs. Each filter
 * has an index that leads with it and ends with `id` ((online,id), (dialect,id), (board,id), (firmware_version,id),
 * member (group_id,device_id), tag (tag,device_id)), so a filtered page is an index range scan too.
 */
@Injectable()
export class DevicesRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async list(q: DeviceListQuery, afterId: string | undefined): Promise<DeviceRow[]> {
    const p = new SqlParams();
    const joins: string[] = [];
    const where: string[] = [];
    if (q.group !== undefined) {
      joins.push(
        `JOIN device_group_member gm ON gm.device_id = d.id
              AND gm.group_id = (SELECT id FROM device_group WHERE name = ${p.add(q.group)})`,
      );
    }
    if (q.tag !== undefined)
      joins.push(`JOIN device_tag t ON t.device_id = d.id AND t.tag = ${p.add(q.tag)}`);
    if (q.online !== undefined) where.push(`d.online = ${p.add(q.online)}`);
    if (q.board !== undefined) where.push(`d.board = ${p.add(q.board)}`);
    if (q.firmware !== undefined) where.push(`d.firmware_version = ${p.add(q.firmware)}`);
    if (q.status !== undefined) where.push(`d.status = ${p.add(q.status)}::"DeviceStatus"`);
    if (q.dialect !== undefined) where.push(`d.dialect = ${p.add(q.dialect)}::"Dialect"`);
    if (q.q !== undefined) {
      const like = q.q.replace(/[\\%_]/g, (c) => `\\${c}`);
      const prefix = p.add(`${like.toLowerCase()}%`);
      const infix = p.add(`%${like}%`);
      where.push(`(d.id LIKE ${prefix} OR d.serial_number ILIKE ${infix} OR d.board_name ILIKE ${infix})`);
    }
    if (afterId !== undefined) where.push(`d.id > ${p.add(afterId)}`);
    const sql = `SELECT ${SUMMARY} FROM device d ${joins.join(' ')}
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY d.id LIMIT ${p.add(q.limit + 1)}`;
    return (await this.pool.query<DeviceRow>(sql, p.values)).rows;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.pool.query('SELECT 1 FROM device WHERE id = $1', [id])).rowCount === 1;
  }
}
