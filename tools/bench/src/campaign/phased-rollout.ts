import type { Client } from 'pg';
import { round } from '../harness/report';

export interface DispatchPace {
  calls: number;
  /** The most upgrade calls made within any 60 s. */
  peakPerMinute: number;
  /** Calls over the time from the first to the last one, per minute. */
  meanPerMinute: number;
  /** First to last call, in minutes. */
  minutes: number;
}

/** The campaign's phases: a canary of the first devices by id, then the percentages (DESIGN §3 phased rollouts). */
export async function benchPhases(
  sql: Client,
  o: { canary: number; canarySoakS: number; percents: { percent: number; soakS: number }[] },
): Promise<unknown[]> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM device WHERE board = 'bread-compact-wifi' ORDER BY id LIMIT $1`,
    [o.canary],
  );
  return [
    { name: 'canary', devices: rows.map((r) => r.id), soakS: o.canarySoakS },
    ...o.percents.map((p) => ({ name: `${p.percent} %`, percent: p.percent, soakS: p.soakS })),
  ];
}

export async function dispatchPace(sql: Client, campaignId: string): Promise<DispatchPace> {
  const { rows } = await sql.query<{ calls: number; peak: number | null; seconds: number | null }>(
    `SELECT count(*)::int AS calls,
            (SELECT max(n) FROM (SELECT count(*) OVER (ORDER BY created_at
                                   RANGE BETWEEN interval '60 seconds' PRECEDING AND CURRENT ROW) AS n
                                   FROM call WHERE campaign_id = $1) w)::int AS peak,
            extract(epoch FROM max(created_at) - min(created_at))::float8 AS seconds
       FROM call WHERE campaign_id = $1`,
    [campaignId],
  );
  const r = rows[0]!;
  const minutes = (r.seconds ?? 0) / 60;
  return {
    calls: r.calls,
    peakPerMinute: r.peak ?? 0,
    meanPerMinute: round(r.calls / Math.max(minutes, 1 / 60), 0),
    minutes: round(minutes, 2),
  };
}

export async function phaseLogOf(sql: Client, campaignId: string): Promise<unknown[]> {
  const { rows } = await sql.query<{ log: unknown[] }>(
    `SELECT phase_log AS log FROM campaign WHERE id = $1`,
    [campaignId],
  );
  return rows[0]?.log ?? [];
}
