import type { VersionSignals } from '@fleet/domain';
import type { Pool } from '../../client/pg-pool';

// What release health is computed from (libs/domain release-health), read from the platform's own rows: boot
// check-ins say which version a device ran when (each one starts a run of that version until the next), its
// connections say when it was on the air, its calls' verdicts how it answered, the upgrade calls and the
// regressions found after them how upgrades to the version went.

export interface ReleaseWindow {
  since: Date;
  until: Date;
  /** A rollback counts against the release only when found within this many hours of the verified upgrade. */
  regressionWithinHours: number;
}

/**
 * The version a release replaced and the boards it runs on: the version its devices ran just before their first
 * run of it (the most common one), and the boards of those devices.
 */
export async function replacedVersion(
  pool: Pool,
  version: string,
  window: ReleaseWindow,
): Promise<{ baseline: string | null; boards: string[] }> {
  const { rows } = await pool.query<{ baseline: string | null; boards: string[] | null }>(
    `WITH runs AS (
       SELECT device_id, board, firmware_version AS version, received_at,
              lag(firmware_version) OVER (PARTITION BY device_id ORDER BY received_at) AS before
         FROM boot_report WHERE firmware_version IS NOT NULL AND received_at <= $3
     ), onto AS (
       SELECT device_id, board, before FROM runs
        WHERE version = $1 AND received_at >= $2 AND before IS DISTINCT FROM version
     )
     SELECT (SELECT before FROM onto WHERE before IS NOT NULL GROUP BY before ORDER BY count(*) DESC, before LIMIT 1)
              AS baseline,
            (SELECT array_agg(DISTINCT board ORDER BY board) FROM runs WHERE version = $1 AND board IS NOT NULL
                AND received_at >= $2) AS boards`,
    [version, window.since, window.until],
  );
  return { baseline: rows[0]?.baseline ?? null, boards: rows[0]?.boards ?? [] };
}

/** The signals of one version on some boards (all boards when `boards` is empty) within a window. */
export async function versionSignals(
  pool: Pool,
  version: string,
  boards: string[],
  window: ReleaseWindow,
): Promise<VersionSignals> {
  const { rows } = await pool.query<{
    devices: number;
    device_hours: number;
    offline_hours: number;
    reconnects: number;
    calls: number;
    device_error: number;
    no_response: number;
    verified: number | null;
    effect_mismatch: number | null;
    failed: number | null;
    regressions: number;
  }>(
    `WITH boots AS (
       SELECT id, device_id, board, firmware_version AS version, received_at AS from_at,
              coalesce(lead(received_at) OVER (PARTITION BY device_id ORDER BY received_at), $4) AS to_at
         FROM boot_report WHERE received_at <= $4
     ), runs AS MATERIALIZED (
       SELECT id, device_id, greatest(from_at, $3) AS from_at, least(to_at, $4) AS to_at FROM boots
        WHERE version = $1 AND (cardinality($2::text[]) = 0 OR board = ANY($2::text[]))
          AND to_at > $3 AND from_at < $4
     ), conns AS (
       SELECT r.id AS run, c.opened_at,
              row_number() OVER (PARTITION BY r.id ORDER BY c.opened_at) AS nth,
              extract(epoch FROM least(coalesce(c.closed_at, $4), r.to_at) - greatest(c.opened_at, r.from_at)) AS on_s
         FROM runs r JOIN connection c ON c.device_id = r.device_id
          AND c.opened_at < r.to_at AND coalesce(c.closed_at, $4) > r.from_at
     ), per_run AS (
       SELECT r.id, extract(epoch FROM r.to_at - r.from_at) AS len_s,
              coalesce((SELECT sum(greatest(on_s, 0)) FROM conns WHERE run = r.id), 0) AS on_s,
              (SELECT count(*) FROM conns WHERE run = r.id AND nth > 1) AS reconnects
         FROM runs r
     ), call_mix AS (
       SELECT count(*) AS calls,
              count(*) FILTER (WHERE c.verdict = 'device_error') AS device_error,
              count(*) FILTER (WHERE c.verdict = 'no_response') AS no_response
         FROM runs r JOIN call c ON c.device_id = r.device_id
          AND c.created_at >= r.from_at AND c.created_at < r.to_at AND c.verdict IS NOT NULL
     ), images AS (
       SELECT '%/firmware/' || sha256 || '.bin' AS url FROM firmware WHERE version = $1
     ), upgrades AS (
       SELECT c.id, c.verdict, c.sealed_at FROM call c
        WHERE c.tool = 'self.upgrade_firmware' AND c.verdict IS NOT NULL AND c.created_at >= $3 AND c.created_at < $4
          AND c.arguments->>'url' LIKE ANY (SELECT url FROM images)
          AND (cardinality($2::text[]) = 0
               OR EXISTS (SELECT 1 FROM device d WHERE d.id = c.device_id AND d.board = ANY($2::text[])))
     )
     SELECT (SELECT count(DISTINCT device_id) FROM runs)::int AS devices,
            coalesce((SELECT sum(len_s) FROM per_run), 0)::float8 / 3600 AS device_hours,
            coalesce((SELECT sum(greatest(len_s - on_s, 0)) FROM per_run), 0)::float8 / 3600 AS offline_hours,
            coalesce((SELECT sum(reconnects) FROM per_run), 0)::int AS reconnects,
            m.calls::int, m.device_error::int, m.no_response::int,
            CASE WHEN EXISTS (SELECT 1 FROM images) THEN
              (SELECT count(*) FILTER (WHERE verdict = 'verified') FROM upgrades)::int END AS verified,
            CASE WHEN EXISTS (SELECT 1 FROM images) THEN
              (SELECT count(*) FILTER (WHERE verdict = 'effect_mismatch') FROM upgrades)::int END AS effect_mismatch,
            CASE WHEN EXISTS (SELECT 1 FROM images) THEN
              (SELECT count(*) FILTER (WHERE verdict NOT IN ('verified', 'effect_mismatch')) FROM upgrades)::int
            END AS failed,
            (SELECT count(*) FROM upgrade_regression g JOIN upgrades u ON u.id = g.call_id
              WHERE g.detected_at <= u.sealed_at + make_interval(hours => $5))::int AS regressions
       FROM call_mix m`,
    [version, boards, window.since, window.until, window.regressionWithinHours],
  );
  const r = rows[0]!;
  return {
    version,
    devices: r.devices,
    deviceHours: r.device_hours,
    upgrades:
      r.verified === null
        ? null
        : { verified: r.verified, effectMismatch: r.effect_mismatch ?? 0, failed: r.failed ?? 0 },
    regressions: r.regressions,
    reconnects: r.reconnects,
    offlineHours: r.offline_hours,
    calls: { total: r.calls, deviceError: r.device_error, noResponse: r.no_response },
  };
}

/** Versions that ran on some device within the window (the ones worth a gauge), most device-hours first. */
export async function activeVersions(pool: Pool, window: ReleaseWindow, limit = 20): Promise<string[]> {
  const { rows } = await pool.query<{ version: string }>(
    `WITH boots AS (
       SELECT firmware_version AS version, received_at AS from_at,
              coalesce(lead(received_at) OVER (PARTITION BY device_id ORDER BY received_at), $2) AS to_at
         FROM boot_report WHERE received_at <= $2
     )
     SELECT version FROM boots WHERE version IS NOT NULL AND to_at > $1
      GROUP BY version ORDER BY sum(extract(epoch FROM least(to_at, $2) - greatest(from_at, $1))) DESC LIMIT $3`,
    [window.since, window.until, limit],
  );
  return rows.map((r) => r.version);
}
