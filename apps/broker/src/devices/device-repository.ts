import type { Pool } from '@fleet/db';
import type { Mac } from '@fleet/protocol';

export type DeviceStatus = 'active' | 'awaiting_activation' | 'revoked' | 'decommissioned';

export interface DeviceRecord {
  id: Mac;
  clientId: string;
  serialNumber: string | null;
  status: DeviceStatus;
  activationCode: string | null;
  activationChallenge: string | null;
  firmwareVersion: string | null;
}

export interface AssignedFirmware {
  firmwareId: string;
  version: string;
  sha256: string;
}

export interface NewDevice {
  mac: Mac;
  clientId: string;
  serialNumber: string | undefined;
  status: 'active' | 'awaiting_activation';
  activationCode?: string;
  activationChallenge?: string;
}

export interface BootFacts {
  mac: Mac;
  clientId: string;
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
}

const DEVICE_COLUMNS = `id, client_id AS "clientId", serial_number AS "serialNumber", status,
  activation_code AS "activationCode", activation_challenge AS "activationChallenge",
  firmware_version AS "firmwareVersion"`;

/** The broker's reads and writes of device rows: raw SQL, since they run once per connect or check-in. */
export class DeviceRepository {
  constructor(private readonly pool: Pool) {}

  async find(mac: Mac): Promise<DeviceRecord | undefined> {
    const { rows } = await this.pool.query<DeviceRecord>(
      `SELECT ${DEVICE_COLUMNS} FROM device WHERE id = $1`,
      [mac],
    );
    return rows[0];
  }

  /** First sight binds the MAC to its Client-Id; a concurrent first sight loses and reads the winner's row. */
  async createOnFirstSight(d: NewDevice): Promise<DeviceRecord> {
    const { rows } = await this.pool.query<DeviceRecord>(
      `INSERT INTO device (id, client_id, serial_number, status, activation_code, activation_challenge, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (id) DO NOTHING
       RETURNING ${DEVICE_COLUMNS}`,
      [
        d.mac,
        d.clientId,
        d.serialNumber ?? null,
        d.status,
        d.activationCode ?? null,
        d.activationChallenge ?? null,
      ],
    );
    return rows[0] ?? (await this.find(d.mac))!;
  }

  /** One boot report, and the device row brought up to date, in one round trip. */
  async recordBoot(f: BootFacts): Promise<void> {
    await this.pool.query(
      `WITH report AS (
         INSERT INTO boot_report (device_id, client_id, firmware_version, board, ota_label, remote_address, user_agent,
                                  body, complaints, firmware_offered)
         VALUES ($1, $2, $3, $4, $6, $7, $8, $9, $10, $11)
       )
       UPDATE device SET firmware_version = coalesce($3, firmware_version), board = coalesce($4, board),
              board_name = coalesce($5, board_name), ota_label = coalesce($6, ota_label),
              chip_model = coalesce($12, chip_model), last_boot_at = now(), updated_at = now()
        WHERE id = $1 AND $13::boolean`,
      [
        f.mac,
        f.clientId,
        f.firmwareVersion ?? null,
        f.board ?? null,
        f.boardName ?? null,
        f.otaLabel ?? null,
        f.remoteAddress ?? null,
        f.userAgent ?? null,
        JSON.stringify(f.body ?? null),
        JSON.stringify(f.complaints ?? null),
        f.firmwareOffered === undefined ? null : JSON.stringify(f.firmwareOffered),
        f.chipModel ?? null,
        f.updatesDevice,
      ],
    );
  }

  /** A check-in under a MAC from another identity waits for an operator; repeats do not pile up. */
  async quarantine(q: {
    mac: Mac;
    clientId: string;
    serialNumber: string | undefined;
    remoteAddress: string | undefined;
    body: unknown;
  }): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO device_quarantine (id, device_id, claimed_client_id, claimed_serial, remote_address, body)
       SELECT gen_random_uuid(), $1, $2, $3, $4, $5
        WHERE NOT EXISTS (SELECT 1 FROM device_quarantine
                           WHERE device_id = $1 AND claimed_client_id = $2 AND state = 'pending')`,
      [q.mac, q.clientId, q.serialNumber ?? null, q.remoteAddress ?? null, JSON.stringify(q.body ?? null)],
    );
    return (rowCount ?? 0) > 0;
  }

  async assignedFirmware(mac: Mac): Promise<AssignedFirmware | undefined> {
    const { rows } = await this.pool.query<AssignedFirmware>(
      `SELECT f.id AS "firmwareId", f.version, f.sha256
         FROM firmware_assignment a JOIN firmware f ON f.id = a.firmware_id
        WHERE a.device_id = $1`,
      [mac],
    );
    return rows[0];
  }

  async markFirmwareOffered(mac: Mac): Promise<void> {
    await this.pool.query(`UPDATE firmware_assignment SET offered_at = now() WHERE device_id = $1`, [mac]);
  }
}
