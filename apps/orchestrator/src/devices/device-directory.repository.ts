import { createDatabase, sql, TurnBatcher, type Database, type Pool, type Row } from '@fleet/db';
import { partitionSql } from '@fleet/domain';

type DeviceRow = Row<'device'>;

const DISCOVERY_GATHER_MS = 5;

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

type DeviceFacts = Pick<DevicePresenceRow, 'board' | 'firmwareVersion' | 'dialect'>;

/** Device rows as the orchestrator needs them when it takes a partition over or a device reconnects. */
export class DeviceDirectory {
  private readonly db: Database;
  /** The reads of devices that come online at about the same time (a fleet powering on) share one statement. */
  private readonly facts: TurnBatcher<string, DeviceFacts | undefined>;

  constructor(pool: Pool) {
    this.db = createDatabase(pool);
    // Read before each discovery, which nobody waits on by the millisecond: when a fleet comes online, a few
    // milliseconds' wait lets one statement carry the facts of several devices.
    this.facts = new TurnBatcher((deviceIds) => this.factsOf(deviceIds), { gatherMs: DISCOVERY_GATHER_MS });
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

  /** What the device row says the device is (the broker keeps it from the boot reports). */
  one(deviceId: string): Promise<DeviceFacts | undefined> {
    return this.facts.submit(deviceId);
  }

  private async factsOf(deviceIds: string[]): Promise<(DeviceFacts | undefined)[]> {
    const rows = await this.db
      .selectFrom('device')
      .select(['id', 'board', 'firmware_version as firmwareVersion', 'dialect'])
      .where('id', '=', sql<string>`any(${[...new Set(deviceIds)]}::text[])`)
      .execute();
    const byId = new Map(rows.map(({ id, ...facts }) => [id, facts]));
    return deviceIds.map((id) => byId.get(id));
  }
}
