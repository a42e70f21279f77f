import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface DeviceDetailRow {
  id: string;
  /** DESIGN §3: the Client-Id is a device secret; the page shows the first 8 hex of its hash, nothing more. */
  clientIdFingerprint: string;
  serialNumber: string | null;
  dialect: string;
  status: string;
  board: string | null;
  boardName: string | null;
  firmwareVersion: string | null;
  otaLabel: string | null;
  chipModel: string | null;
  online: boolean;
  connectionId: string | null;
  lastSeenAt: Date | null;
  lastBootAt: Date | null;
  lastStatus: unknown;
  lastStatusAt: Date | null;
  awaitingActivation: boolean;
  createdAt: Date;
  updatedAt: Date;
  catalog: {
    versionId: string;
    version: number;
    hash: string;
    toolCount: number;
    discoveredAt: string;
    lastConfirmedAt: string;
  } | null;
  connection: {
    id: string;
    brokerId: string;
    remoteAddress: string | null;
    openedAt: string;
    onlineAt: string | null;
  } | null;
  groups: { id: string; name: string; timeZone: string }[];
  tags: string[];
  quarantine: {
    id: string;
    claimedClientIdFingerprint: string;
    claimedSerial: string | null;
    remoteAddress: string | null;
    createdAt: string;
  }[];
  /** ListenAI devices: their link tokens, never the secrets. */
  linkTokens: {
    id: string;
    prefix: string;
    createdAt: string;
    revokedAt: string | null;
    lastUsedAt: string | null;
  }[];
  firmwareAssignment: {
    firmwareId: string;
    version: string;
    campaignId: string | null;
    assignedAt: string;
    offeredAt: string | null;
  } | null;
}

/** Everything the device page shows, in one round trip (json sub-selects, each on an index). */
@Injectable()
export class DeviceDetailRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async find(id: string): Promise<DeviceDetailRow | undefined> {
    const { rows } = await this.pool.query<DeviceDetailRow>(
      `SELECT d.id, left(d.client_id, 8) AS "clientIdFingerprint", d.serial_number AS "serialNumber", d.dialect, d.status, d.board,
              d.board_name AS "boardName", d.firmware_version AS "firmwareVersion", d.ota_label AS "otaLabel",
              d.chip_model AS "chipModel", d.online, d.connection_id AS "connectionId",
              d.last_seen_at AS "lastSeenAt", d.last_boot_at AS "lastBootAt", d.last_status AS "lastStatus",
              d.last_status_at AS "lastStatusAt", d.status = 'awaiting_activation' AS "awaitingActivation",
              d.created_at AS "createdAt", d.updated_at AS "updatedAt",
              (SELECT json_build_object('versionId', v.id, 'version', v.version, 'hash', c.hash,
                        'toolCount', c.tool_count, 'discoveredAt', v.discovered_at,
                        'lastConfirmedAt', v.last_confirmed_at)
                 FROM device_catalog_version v JOIN tool_catalog c ON c.id = v.catalog_id
                WHERE v.id = d.catalog_version_id) AS catalog,
              (SELECT json_build_object('id', k.id, 'brokerId', k.broker_id, 'remoteAddress', k.remote_address,
                        'openedAt', k.opened_at, 'onlineAt', k.online_at)
                 FROM connection k WHERE k.id = d.connection_id) AS connection,
              coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'timeZone', g.time_zone)
                                 ORDER BY g.name)
                          FROM device_group_member m JOIN device_group g ON g.id = m.group_id
                         WHERE m.device_id = d.id), '[]') AS groups,
              coalesce((SELECT json_agg(t.tag ORDER BY t.tag) FROM device_tag t WHERE t.device_id = d.id), '[]')
                AS tags,
              coalesce((SELECT json_agg(json_build_object('id', q.id, 'claimedClientIdFingerprint', left(q.claimed_client_id, 8),
                                 'claimedSerial', q.claimed_serial, 'remoteAddress', q.remote_address,
                                 'createdAt', q.created_at) ORDER BY q.created_at)
                          FROM device_quarantine q WHERE q.device_id = d.id AND q.state = 'pending'), '[]')
                AS quarantine,
              coalesce((SELECT json_agg(json_build_object('id', t.id, 'prefix', t.prefix, 'createdAt', t.created_at,
                                 'revokedAt', t.revoked_at, 'lastUsedAt', t.last_used_at) ORDER BY t.created_at DESC)
                          FROM device_link_token t WHERE t.device_id = d.id), '[]') AS "linkTokens",
              (SELECT json_build_object('firmwareId', a.firmware_id, 'version', f.version,
                        'campaignId', a.campaign_id, 'assignedAt', a.assigned_at, 'offeredAt', a.offered_at)
                 FROM firmware_assignment a JOIN firmware f ON f.id = a.firmware_id
                WHERE a.device_id = d.id) AS "firmwareAssignment"
         FROM device d WHERE d.id = $1`,
      [id],
    );
    return rows[0];
  }
}
