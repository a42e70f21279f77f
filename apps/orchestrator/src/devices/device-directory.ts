import type { Pool } from '@fleet/db';
import { partitionSql } from '@fleet/domain';

export interface DevicePresenceRow {
  id: string;
  online: boolean;
  connectionId: string | null;
  onlineAt: Date | null;
  board: string | null;
  firmwareVersion: string | null;
  dialect: 'xiaozhi' | 'listenai';
}

/** Device rows as the orchestrator needs them when it takes a partition over or a device reconnects. */
export class DeviceDirectory {
  constructor(private readonly pool: Pool) {}

  async inPartition(partition: number): Promise<DevicePresenceRow[]> {
    const { rows } = await this.pool.query<DevicePresenceRow>(
      `SELECT d.id, d.online, d.connection_id AS "connectionId", c.online_at AS "onlineAt", d.board,
              d.firmware_version AS "firmwareVersion", d.dialect
         FROM device d LEFT JOIN connection c ON c.id = d.connection_id
        WHERE ${partitionSql('d.id')} = $1 AND d.status = 'active'`,
      [partition],
    );
    return rows;
  }

  /** Which connection each of these devices is on now, as the broker recorded it (DESIGN §3: the newest one). */
  async presenceOf(
    deviceIds: string[],
  ): Promise<Pick<DevicePresenceRow, 'id' | 'online' | 'connectionId' | 'onlineAt'>[]> {
    const { rows } = await this.pool.query<
      Pick<DevicePresenceRow, 'id' | 'online' | 'connectionId' | 'onlineAt'>
    >(
      `SELECT d.id, d.online, d.connection_id AS "connectionId", c.online_at AS "onlineAt"
         FROM device d LEFT JOIN connection c ON c.id = d.connection_id
        WHERE d.id = ANY($1::text[])`,
      [deviceIds],
    );
    return rows;
  }

  async one(
    deviceId: string,
  ): Promise<Pick<DevicePresenceRow, 'board' | 'firmwareVersion' | 'dialect'> | undefined> {
    const { rows } = await this.pool.query<Pick<DevicePresenceRow, 'board' | 'firmwareVersion' | 'dialect'>>(
      'SELECT board, firmware_version AS "firmwareVersion", dialect FROM device WHERE id = $1',
      [deviceId],
    );
    return rows[0];
  }
}
