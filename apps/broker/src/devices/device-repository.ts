import type { Pool } from '@fleet/db';
import type { Mac } from '@fleet/protocol';
import { writeBootReports } from './boot-reports';
import { TurnBatcher } from './turn-batcher';

export type DeviceStatus = 'active' | 'awaiting_activation' | 'revoked' | 'decommissioned';

export interface DeviceRecord {
  id: Mac;
  /** sha256 of the bound Client-Id (DESIGN §3: never kept as it is). */
  clientIdHash: string;
  serialNumber: string | null;
  status: DeviceStatus;
  activationCode: string | null;
  activationChallenge: string | null;
  firmwareVersion: string | null;
  board: string | null;
  chipModel: string | null;
  /** sha256 of the MQTT client id the last OTA answer issued; null for devices registered before it was kept. */
  mqttClientIdHash: string | null;
}

export interface AssignedFirmware {
  firmwareId: string;
  version: string;
  sha256: string;
}

export interface NewDevice {
  mac: Mac;
  clientIdHash: string;
  serialNumber: string | undefined;
  status: 'active' | 'awaiting_activation';
  activationCode?: string;
  activationChallenge?: string;
}

/** What a check-in of the bound identity changed about what the device is (DESIGN §3: an event, not a rewrite). */
export interface IdentityChange {
  field: 'board' | 'chip';
  previous: string;
  current: string;
}

export interface BootFacts {
  mac: Mac;
  clientIdHash: string;
  firmwareVersion: string | undefined;
  board: string | undefined;
  boardName: string | undefined;
  otaLabel: string | undefined;
  chipModel: string | undefined;
  remoteAddress: string | undefined;
  userAgent: string | undefined;
  body: unknown;
  complaints: unknown;
  firmwareOffered: unknown;
  /** Only a check-in from the bound identity updates what the device row says it runs. */
  updatesDevice: boolean;
  /** The MQTT client id this answer issued (hashed): from now on the only one the broker accepts. */
  issuedMqttClientIdHash?: string;
  identityChanges?: IdentityChange[];
}

const DEVICE_COLUMNS = `id, client_id AS "clientIdHash", serial_number AS "serialNumber", status,
  activation_code AS "activationCode", activation_challenge AS "activationChallenge",
  firmware_version AS "firmwareVersion", board, chip_model AS "chipModel",
  mqtt_client_id_hash AS "mqttClientIdHash"`;

/**
 * The broker's reads and writes of device rows: raw SQL, since they run once per connect or check-in. The hot
 * ones (the read at every CONNECT and check-in, first sight, the boot report, the firmware assignment) go
 * through turn batchers: concurrent callers share one statement, each still gets its own answer once its own
 * row is committed.
 */
export class DeviceRepository {
  private readonly finds: TurnBatcher<Mac, DeviceRecord | undefined>;
  private readonly firstSights: TurnBatcher<NewDevice, DeviceRecord>;
  private readonly boots: TurnBatcher<BootFacts & { receivedAt: Date }, undefined>;
  private readonly assignments: TurnBatcher<Mac, AssignedFirmware | undefined>;

  constructor(private readonly pool: Pool) {
    this.finds = new TurnBatcher((macs) => this.findMany(macs));
    this.firstSights = new TurnBatcher((devices) => this.createMany(devices), { retrySingly: true });
    this.boots = new TurnBatcher(
      async (reports) => {
        await writeBootReports(pool, reports);
        return reports.map(() => undefined);
      },
      { retrySingly: true },
    );
    this.assignments = new TurnBatcher((macs) => this.assignedMany(macs));
  }

  find(mac: Mac): Promise<DeviceRecord | undefined> {
    return this.finds.submit(mac);
  }

  /** First sight binds the MAC to its Client-Id (hashed); a concurrent first sight loses and reads the winner's row. */
  createOnFirstSight(d: NewDevice): Promise<DeviceRecord> {
    return this.firstSights.submit(d);
  }

  /** One boot report, and the device row brought up to date; resolves once both are committed. */
  async recordBoot(f: BootFacts): Promise<void> {
    await this.boots.submit({ ...f, receivedAt: new Date() });
  }

  assignedFirmware(mac: Mac): Promise<AssignedFirmware | undefined> {
    return this.assignments.submit(mac);
  }

  private async findMany(macs: Mac[]): Promise<(DeviceRecord | undefined)[]> {
    const { rows } = await this.pool.query<DeviceRecord>(
      `SELECT ${DEVICE_COLUMNS} FROM device WHERE id = ANY($1::text[])`,
      [[...new Set(macs)]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return macs.map((mac) => byId.get(mac));
  }

  private async createMany(devices: NewDevice[]): Promise<DeviceRecord[]> {
    const { rows } = await this.pool.query<DeviceRecord>(
      `INSERT INTO device (id, client_id, serial_number, status, activation_code, activation_challenge, updated_at)
       SELECT id, client_id, serial_number, status::"DeviceStatus", activation_code, activation_challenge, now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
           AS u(id, client_id, serial_number, status, activation_code, activation_challenge)
       ON CONFLICT (id) DO NOTHING
       RETURNING ${DEVICE_COLUMNS}`,
      [
        devices.map((d) => d.mac),
        devices.map((d) => d.clientIdHash),
        devices.map((d) => d.serialNumber ?? null),
        devices.map((d) => d.status),
        devices.map((d) => d.activationCode ?? null),
        devices.map((d) => d.activationChallenge ?? null),
      ],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    // Rows that already existed (another check-in won the race) are read back as they are.
    const missing = devices.filter((d) => !byId.has(d.mac)).map((d) => d.mac);
    if (missing.length) for (const row of await this.findMany(missing)) if (row) byId.set(row.id, row);
    return devices.map((d) => {
      const row = byId.get(d.mac);
      if (!row) throw new Error(`device ${d.mac} was neither created nor found`);
      return row;
    });
  }

  private async assignedMany(macs: Mac[]): Promise<(AssignedFirmware | undefined)[]> {
    const { rows } = await this.pool.query<AssignedFirmware & { deviceId: Mac }>(
      `SELECT a.device_id AS "deviceId", f.id AS "firmwareId", f.version, f.sha256
         FROM firmware_assignment a JOIN firmware f ON f.id = a.firmware_id
        WHERE a.device_id = ANY($1::text[])`,
      [[...new Set(macs)]],
    );
    const byDevice = new Map(rows.map(({ deviceId, ...assigned }) => [deviceId, assigned]));
    return macs.map((mac) => byDevice.get(mac));
  }

  /** A check-in under a MAC from another identity waits for an operator; repeats do not pile up. */
  async quarantine(q: {
    mac: Mac;
    clientIdHash: string;
    serialNumber: string | undefined;
    remoteAddress: string | undefined;
    body: unknown;
  }): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO device_quarantine (id, device_id, claimed_client_id, claimed_serial, remote_address, body)
       SELECT gen_random_uuid(), $1, $2, $3, $4, $5
        WHERE NOT EXISTS (SELECT 1 FROM device_quarantine
                           WHERE device_id = $1 AND claimed_client_id = $2 AND state = 'pending')`,
      [
        q.mac,
        q.clientIdHash,
        q.serialNumber ?? null,
        q.remoteAddress ?? null,
        JSON.stringify(q.body ?? null),
      ],
    );
    return (rowCount ?? 0) > 0;
  }

  async markFirmwareOffered(mac: Mac): Promise<void> {
    await this.pool.query(`UPDATE firmware_assignment SET offered_at = now() WHERE device_id = $1`, [mac]);
  }
}
