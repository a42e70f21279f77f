import { createDatabase, sql, type Database, type Pool, type Row } from '@fleet/db';
import { partitionSql } from '@fleet/domain';

type DeviceRow = Row<'device'>;

export interface DevicePresenceRow {
  id: DeviceRow['id'];
  online: DeviceRow['online'];
  connectionId: DeviceRow['connection_id'];
  onlineAt: Row<'connection'>['online_at'];
  board: DeviceRow['board'];
  firmwareVersion: DeviceRow['firmware_version'];
  dialect: DeviceRow['dialect'];
}

// The partition of a device id, as every service computes it (a fixed expression of code, never of input).
const PARTITION_OF_DEVICE = sql<number>`${sql.raw(partitionSql('d.id'))}`;

/** Device rows as the orchestrator needs them when it takes a partition over or a device reconnects. */
export class DeviceDirectory {
  private readonly db: Database;

  constructor(pool: Pool) {
    this.db = createDatabase(pool);
  }

  async inPartition(partition: number): Promise<DevicePresenceRow[]> {
    return this.db
      .selectFrom('device as d')
      .leftJoin('connection as c', 'c.id', 'd.connection_id')
      .select([
        'd.id',
        'd.online',
        'd.connection_id as connectionId',
        'c.online_at as onlineAt',
        'd.board',
        'd.firmware_version as firmwareVersion',
        'd.dialect',
      ])
      .where(PARTITION_OF_DEVICE, '=', partition)
      .where('d.status', '=', 'active')
      .execute();
  }

  /** Which connection each of these devices is on now, as the broker recorded it (DESIGN §3: the newest one). */
  async presenceOf(
    deviceIds: string[],
  ): Promise<Pick<DevicePresenceRow, 'id' | 'online' | 'connectionId' | 'onlineAt'>[]> {
    return this.db
      .selectFrom('device as d')
      .leftJoin('connection as c', 'c.id', 'd.connection_id')
      .select(['d.id', 'd.online', 'd.connection_id as connectionId', 'c.online_at as onlineAt'])
      .where('d.id', '=', sql<string>`any(${deviceIds}::text[])`)
      .execute();
  }

  async one(
    deviceId: string,
  ): Promise<Pick<DevicePresenceRow, 'board' | 'firmwareVersion' | 'dialect'> | undefined> {
    return this.db
      .selectFrom('device')
      .select(['board', 'firmware_version as firmwareVersion', 'dialect'])
      .where('id', '=', deviceId)
      .executeTakeFirst();
  }
}
