import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { canonicalJson } from '@fleet/domain';
import { waitFor } from './wait-for';

/**
 * A user-only call's approval exists only once the orchestrator's pre-flight has passed the call (DESIGN §4).
 * Where an orchestrator runs, wait for it; where none does (API tests), pass pre-flight as the orchestrator
 * would: open the approval with its findings.
 */
export async function approvalOf(pool: Pool, callId: string, timeoutMs = 15_000): Promise<string> {
  return waitFor(
    async () => {
      const { rows } = await pool.query<{ id: string }>('SELECT id FROM approval WHERE call_id = $1', [
        callId,
      ]);
      return rows[0]?.id;
    },
    { what: `the approval of call ${callId}`, timeoutMs },
  );
}

export async function passPreflight(
  pool: Pool,
  callId: string,
  options: { ttlMs?: number; preflight?: unknown } = {},
): Promise<string> {
  const call = await pool.query<{ device_id: string; tool: string; arguments: unknown }>(
    'SELECT device_id, tool, arguments FROM call WHERE id = $1',
    [callId],
  );
  const { device_id: deviceId, tool, arguments: args } = call.rows[0]!;
  const hash = createHash('sha256')
    .update(canonicalJson({ deviceId, tool, arguments: args }))
    .digest('hex');
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO approval (id, call_id, device_id, tool, arguments, arguments_hash, requested_by, expires_at, preflight)
     SELECT gen_random_uuid(), c.id, c.device_id, c.tool, c.arguments, $2, c.operator_id,
            now() + make_interval(secs => coalesce($3::int, c.approval_ttl_ms, 3600000) / 1000.0), $4
       FROM call c WHERE c.id = $1
     RETURNING id`,
    [callId, hash, options.ttlMs ?? null, JSON.stringify(options.preflight ?? { rules: [] })],
  );
  return rows[0]!.id;
}
