import { jsonParam, sql, type Database, type NewRow } from '@fleet/db';
import type { BootFacts, IdentityChange } from './device-repository';

/**
 * Boot reports of many check-ins in one statement: each report row, the identity changes it shows (DESIGN §3:
 * an event with the report as its evidence), and each device row brought up to date from the latest of its
 * reports in the batch (a device that checked in twice in the same few milliseconds).
 *
 * The batch travels as one JSON document rather than one array per column: a `jsonb[]` parameter is sent as an
 * array literal in which every quote of every system-info body is escaped again (pg's escapeElement, then
 * Postgres' array parser), which was most of what a batch cost to send; JSON.stringify is native. The statement
 * stays one `sql` template (Kysely has no builder for jsonb_to_recordset, a writing CTE chain or DISTINCT ON
 * over a derived table); the input rows are typed from the generated tables.
 */
type ReportColumns = Pick<
  NewRow<'boot_report'>,
  'device_id' | 'client_id' | 'firmware_version' | 'board' | 'ota_label' | 'remote_address' | 'user_agent'
>;
type DeviceColumns = Pick<NewRow<'device'>, 'board_name' | 'chip_model'>;
type InputRow = Required<ReportColumns> &
  Required<DeviceColumns> & {
    ord: number;
    body: unknown;
    complaints: unknown;
    firmware_offered: unknown;
    updates_device: boolean;
    issued_client_id: NewRow<'device'>['mqtt_client_id_hash'];
    changes: IdentityChange[] | null;
    received_at: string;
  };

export async function writeBootReports(
  db: Database,
  reports: (BootFacts & { receivedAt: Date })[],
): Promise<void> {
  const rows = reports.map((f, ord): InputRow => ({
    ord,
    device_id: f.mac,
    client_id: f.clientIdHash,
    firmware_version: f.firmwareVersion ?? null,
    board: f.board ?? null,
    board_name: f.boardName ?? null,
    ota_label: f.otaLabel ?? null,
    remote_address: f.remoteAddress ?? null,
    user_agent: f.userAgent ?? null,
    // The report keeps a JSON null body as such (the column is NOT NULL); no firmware offered is SQL NULL.
    body: f.body ?? null,
    complaints: f.complaints ?? null,
    firmware_offered: f.firmwareOffered ?? null,
    chip_model: f.chipModel ?? null,
    updates_device: f.updatesDevice,
    issued_client_id: f.issuedMqttClientIdHash ?? null,
    changes: f.identityChanges?.length ? f.identityChanges : null,
    received_at: f.receivedAt.toISOString(),
  }));
  // Report ids are drawn first (MATERIALIZED: once per row), so the identity events can cite their report.
  await sql`WITH input AS MATERIALIZED (
       SELECT u.*, nextval(pg_get_serial_sequence('boot_report', 'id')) AS report_id
         FROM jsonb_to_recordset(${jsonParam(rows)}::jsonb) AS u(ord int, device_id text, client_id text,
           firmware_version text, board text, board_name text, ota_label text, remote_address text, user_agent text,
           body jsonb, complaints jsonb, firmware_offered jsonb, chip_model text, updates_device boolean,
           issued_client_id text, changes jsonb, received_at timestamptz)
     ), report AS (
       INSERT INTO boot_report (id, device_id, client_id, firmware_version, board, ota_label, remote_address,
                                user_agent, body, complaints, firmware_offered, received_at)
       SELECT report_id, device_id, client_id, firmware_version, board, ota_label, remote_address, user_agent,
              coalesce(body, 'null'::jsonb), coalesce(complaints, 'null'::jsonb), firmware_offered, received_at
         FROM input ORDER BY ord
       RETURNING id
     ), change AS (
       INSERT INTO device_identity_event (device_id, field, previous, current, source, boot_report_id, at)
       SELECT i.device_id, c.field::"IdentityField", c.previous, c.current, 'check_in', i.report_id, i.received_at
         FROM input i CROSS JOIN LATERAL jsonb_to_recordset(i.changes) AS c(field text, previous text, current text)
        WHERE i.changes IS NOT NULL AND i.report_id IN (SELECT id FROM report)
     )
     UPDATE device d SET firmware_version = coalesce(u.firmware_version, d.firmware_version),
            board = coalesce(u.board, d.board), board_name = coalesce(u.board_name, d.board_name),
            ota_label = coalesce(u.ota_label, d.ota_label), chip_model = coalesce(u.chip_model, d.chip_model),
            mqtt_client_id_hash = coalesce(u.issued_client_id, d.mqtt_client_id_hash),
            last_boot_at = u.received_at, updated_at = now()
       FROM (SELECT DISTINCT ON (device_id) * FROM input WHERE updates_device ORDER BY device_id, ord DESC) u
      WHERE d.id = u.device_id`.execute(db);
}
