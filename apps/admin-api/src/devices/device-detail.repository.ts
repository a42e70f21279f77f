import { Inject, Injectable } from '@nestjs/common';
import { executeNamed, queryCompiler, sql, type Database, type Pool, type Row } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';
import { identityChangeView, type IdentityChangeJson, type IdentityChangeView } from './identity-changes';

type DeviceTable = Row<'device'>;

/** The device page shows the latest identity changes; each one cites its boot report or decision. */
const IDENTITY_CHANGES_SHOWN = 20;
/** And the last day's takeovers, counted, the latest of them with where each side came from. */
const TAKEOVERS_SHOWN = 20;

/** A json sub-select's object: its timestamps arrive as ISO strings, not as Dates. */
type AsJson<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

type CatalogJson = AsJson<{
  versionId: Row<'device_catalog_version'>['id'];
  version: Row<'device_catalog_version'>['version'];
  hash: Row<'tool_catalog'>['hash'];
  toolCount: Row<'tool_catalog'>['tool_count'];
  discoveredAt: Row<'device_catalog_version'>['discovered_at'];
  lastConfirmedAt: Row<'device_catalog_version'>['last_confirmed_at'];
}>;

type ConnectionJson = AsJson<{
  id: Row<'connection'>['id'];
  brokerId: Row<'connection'>['broker_id'];
  remoteAddress: Row<'connection'>['remote_address'];
  openedAt: Row<'connection'>['opened_at'];
  onlineAt: Row<'connection'>['online_at'];
}>;

type GroupJson = {
  id: Row<'device_group'>['id'];
  name: Row<'device_group'>['name'];
  timeZone: Row<'device_group'>['time_zone'];
};

type QuarantineJson = AsJson<{
  id: Row<'device_quarantine'>['id'];
  claimedClientIdFingerprint: string;
  claimedSerial: Row<'device_quarantine'>['claimed_serial'];
  remoteAddress: Row<'device_quarantine'>['remote_address'];
  createdAt: Row<'device_quarantine'>['created_at'];
}>;

type LinkTokenJson = AsJson<{
  id: Row<'device_link_token'>['id'];
  prefix: Row<'device_link_token'>['prefix'];
  createdAt: Row<'device_link_token'>['created_at'];
  revokedAt: Row<'device_link_token'>['revoked_at'];
  lastUsedAt: Row<'device_link_token'>['last_used_at'];
}>;

type FirmwareAssignmentJson = AsJson<{
  firmwareId: Row<'firmware_assignment'>['firmware_id'];
  version: Row<'firmware'>['version'];
  campaignId: Row<'firmware_assignment'>['campaign_id'];
  assignedAt: Row<'firmware_assignment'>['assigned_at'];
  offeredAt: Row<'firmware_assignment'>['offered_at'];
}>;

type TakeoverJson = AsJson<{
  at: Date;
  displacedAddress: Row<'connection'>['remote_address'];
  displacedClientIdFingerprint: string;
  byAddress: Row<'connection'>['remote_address'];
  byClientIdFingerprint: string | null;
}>;

interface TakeoversJson {
  lastHour: number;
  lastDay: number;
  recent: TakeoverJson[];
}

export interface DeviceDetailRow {
  id: DeviceTable['id'];
  /** DESIGN §3: the Client-Id is a device secret; the page shows the first 8 hex of its hash, nothing more. */
  clientIdFingerprint: string;
  serialNumber: DeviceTable['serial_number'];
  dialect: DeviceTable['dialect'];
  status: DeviceTable['status'];
  board: DeviceTable['board'];
  boardName: DeviceTable['board_name'];
  firmwareVersion: DeviceTable['firmware_version'];
  otaLabel: DeviceTable['ota_label'];
  chipModel: DeviceTable['chip_model'];
  online: DeviceTable['online'];
  connectionId: DeviceTable['connection_id'];
  lastSeenAt: DeviceTable['last_seen_at'];
  lastBootAt: DeviceTable['last_boot_at'];
  lastStatus: DeviceTable['last_status'];
  lastStatusAt: DeviceTable['last_status_at'];
  awaitingActivation: boolean;
  createdAt: DeviceTable['created_at'];
  updatedAt: DeviceTable['updated_at'];
  catalog: CatalogJson | null;
  connection: ConnectionJson | null;
  groups: GroupJson[];
  tags: Row<'device_tag'>['tag'][];
  quarantine: QuarantineJson[];
  /** ListenAI devices: their link tokens, never the secrets. */
  linkTokens: LinkTokenJson[];
  firmwareAssignment: FirmwareAssignmentJson | null;
  /** The latest identity changes, newest first. */
  identityChanges: IdentityChangeView[];
  /** DESIGN §3, one live connection per device: how often a newer connection took over, and from where. */
  takeovers: TakeoversJson;
}

type DetailResult = Omit<DeviceDetailRow, 'identityChanges'> & { identityChanges: IdentityChangeJson[] };

/** Everything the device page shows, in one statement (json sub-selects, each on an index). */
@Injectable()
export class DeviceDetailRepository {
  /** Compiled once: building and compiling this statement cost more of a request than running it. */
  private readonly query = compileDetail(queryCompiler);

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async find(id: string): Promise<DeviceDetailRow | undefined> {
    // A named statement: each connection plans it once, not on every request (planning its eight sub-selects
    // cost Postgres several times what running them does).
    const rows = (await executeNamed(this.pool, 'device-detail', this.query, [id])) as DetailResult[];
    const row = rows[0];
    return row && { ...row, identityChanges: row.identityChanges.map(identityChangeView) };
  }
}

// json aggregation: one typed sql fragment per sub-select (each on an index), as the page shows it. The device
// id is the statement's only parameter (a placeholder here; each find passes the real one in its place).
function compileDetail(db: Database) {
  return db
    .selectFrom('device as d')
    .select([
      'd.id',
      sql<string>`left(d.client_id, 8)`.as('clientIdFingerprint'),
      'd.serial_number as serialNumber',
      'd.dialect',
      'd.status',
      'd.board',
      'd.board_name as boardName',
      'd.firmware_version as firmwareVersion',
      'd.ota_label as otaLabel',
      'd.chip_model as chipModel',
      'd.online',
      'd.connection_id as connectionId',
      'd.last_seen_at as lastSeenAt',
      'd.last_boot_at as lastBootAt',
      'd.last_status as lastStatus',
      'd.last_status_at as lastStatusAt',
      sql<boolean>`d.status = 'awaiting_activation'`.as('awaitingActivation'),
      'd.created_at as createdAt',
      'd.updated_at as updatedAt',
      sql<CatalogJson | null>`(SELECT json_build_object('versionId', v.id, 'version', v.version, 'hash', c.hash,
                  'toolCount', c.tool_count, 'discoveredAt', v.discovered_at,
                  'lastConfirmedAt', v.last_confirmed_at)
           FROM device_catalog_version v JOIN tool_catalog c ON c.id = v.catalog_id
          WHERE v.id = d.catalog_version_id)`.as('catalog'),
      sql<ConnectionJson | null>`(SELECT json_build_object('id', k.id, 'brokerId', k.broker_id,
                  'remoteAddress', k.remote_address, 'openedAt', k.opened_at, 'onlineAt', k.online_at)
           FROM connection k WHERE k.id = d.connection_id)`.as('connection'),
      sql<GroupJson[]>`coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name,
                           'timeZone', g.time_zone) ORDER BY g.name)
                    FROM device_group_member m JOIN device_group g ON g.id = m.group_id
                   WHERE m.device_id = d.id), '[]')`.as('groups'),
      sql<string[]>`coalesce((SELECT json_agg(t.tag ORDER BY t.tag) FROM device_tag t
                   WHERE t.device_id = d.id), '[]')`.as('tags'),
      sql<QuarantineJson[]>`coalesce((SELECT json_agg(json_build_object('id', q.id,
                           'claimedClientIdFingerprint', left(q.claimed_client_id, 8),
                           'claimedSerial', q.claimed_serial, 'remoteAddress', q.remote_address,
                           'createdAt', q.created_at) ORDER BY q.created_at)
                    FROM device_quarantine q WHERE q.device_id = d.id AND q.state = 'pending'), '[]')`.as(
        'quarantine',
      ),
      sql<LinkTokenJson[]>`coalesce((SELECT json_agg(json_build_object('id', t.id, 'prefix', t.prefix,
                           'createdAt', t.created_at, 'revokedAt', t.revoked_at, 'lastUsedAt', t.last_used_at)
                           ORDER BY t.created_at DESC)
                    FROM device_link_token t WHERE t.device_id = d.id), '[]')`.as('linkTokens'),
      sql<FirmwareAssignmentJson | null>`(SELECT json_build_object('firmwareId', a.firmware_id,
                  'version', f.version, 'campaignId', a.campaign_id, 'assignedAt', a.assigned_at,
                  'offeredAt', a.offered_at)
           FROM firmware_assignment a JOIN firmware f ON f.id = a.firmware_id
          WHERE a.device_id = d.id)`.as('firmwareAssignment'),
      sql<IdentityChangeJson[]>`coalesce((SELECT json_agg(json_build_object('at', e.at, 'field', e.field,
                           'previous', e.previous, 'current', e.current, 'source', e.source,
                           'bootReportId', e.boot_report_id::text, 'quarantineId', e.quarantine_id,
                           'operatorId', e.operator_id) ORDER BY e.at DESC, e.id DESC)
                    FROM (SELECT * FROM device_identity_event WHERE device_id = d.id
                           ORDER BY at DESC, id DESC LIMIT ${sql.lit(IDENTITY_CHANGES_SHOWN)}) e), '[]')`.as(
        'identityChanges',
      ),
      // A takeover is a connection row closed as `takeover`; the one that took over is the device's next
      // connection, opened after it and before it closed (none when it never came online).
      sql<TakeoversJson>`(SELECT json_build_object('lastHour', c.last_hour, 'lastDay', c.last_day,
                  'recent', coalesce(r.items, '[]'))
           FROM (SELECT count(*) FILTER (WHERE k.closed_at > now() - interval '1 hour') AS last_hour,
                        count(*) AS last_day
                   FROM connection k
                  WHERE k.close_reason = 'takeover' AND k.closed_at > now() - interval '1 day'
                    AND k.device_id = d.id) c,
                (SELECT json_agg(json_build_object('at', t.closed_at, 'displacedAddress', t.remote_address,
                          'displacedClientIdFingerprint', left(t.client_id, 8), 'byAddress', n.remote_address,
                          'byClientIdFingerprint', left(n.client_id, 8)) ORDER BY t.closed_at DESC) AS items
                   FROM (SELECT * FROM connection k
                          WHERE k.close_reason = 'takeover' AND k.closed_at > now() - interval '1 day'
                            AND k.device_id = d.id
                          ORDER BY k.closed_at DESC LIMIT ${sql.lit(TAKEOVERS_SHOWN)}) t
                   LEFT JOIN LATERAL (SELECT m.remote_address, m.client_id FROM connection m
                                       WHERE m.device_id = t.device_id AND m.opened_at > t.opened_at
                                         AND m.opened_at <= t.closed_at AND m.id <> t.id
                                       ORDER BY m.opened_at DESC LIMIT 1) n ON true) r)`.as('takeovers'),
    ])
    .where('d.id', '=', '')
    .compile();
}
