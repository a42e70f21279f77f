import type { Pool } from '@fleet/db';
import type { BootFacts } from './device-repository';

/**
 * Boot reports of many check-ins in one statement: each report row, and each device row brought up to date
 * from the latest of its reports in the batch (a device that checked in twice in the same few milliseconds).
 *
 * The batch travels as one JSON document rather than one array per column: a `jsonb[]` parameter is sent as an
 * array literal in which every quote of every system-info body is escaped again (pg's escapeElement, then
 * Postgres' array parser), which was most of what a batch cost to send; JSON.stringify is native.
 */
export async function writeBootReports(
  pool: Pool,
  reports: (BootFacts & { receivedAt: Date })[],
): Promise<void> {
  const rows = reports.map((f, ord) => ({
    ord,
    device_id: f.mac,
    client_id: f.clientId,
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
    received_at: f.receivedAt.toISOString(),
  }));
  await pool.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS u(ord int, device_id text, client_id text,
         firmware_version text, board text, board_name text, ota_label text, remote_address text, user_agent text,
         body jsonb, complaints jsonb, firmware_offered jsonb, chip_model text, updates_device boolean,
         received_at timestamptz)
     ), report AS (
       INSERT INTO boot_report (device_id, client_id, firmware_version, board, ota_label, remote_address, user_agent,
                                body, complaints, firmware_offered, received_at)
       SELECT device_id, client_id, firmware_version, board, ota_label, remote_address, user_agent,
              coalesce(body, 'null'::jsonb), coalesce(complaints, 'null'::jsonb), firmware_offered, received_at
         FROM input ORDER BY ord
     )
     UPDATE device d SET firmware_version = coalesce(u.firmware_version, d.firmware_version),
            board = coalesce(u.board, d.board), board_name = coalesce(u.board_name, d.board_name),
            ota_label = coalesce(u.ota_label, d.ota_label), chip_model = coalesce(u.chip_model, d.chip_model),
            last_boot_at = u.received_at, updated_at = now()
       FROM (SELECT DISTINCT ON (device_id) * FROM input WHERE updates_device ORDER BY device_id, ord DESC) u
      WHERE d.id = u.device_id`,
    [JSON.stringify(rows)],
  );
}
