import { createHash } from 'node:crypto';
import type { QueryResult, QueryResultRow } from 'pg';
import { canonicalJson } from '@fleet/domain';

/** An approval binds device, tool and the exact arguments: their hash is what the approver signs off. */
export function argumentsHash(deviceId: string, tool: string, args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ deviceId, tool, arguments: args }))
    .digest('hex');
}

/** Anything that runs a parameterised query: a pool client, or a unit of the orchestrator's commit queue. */
export interface Queryable {
  query<R extends QueryResultRow>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
}

/** Opens the approval a user-only operator call waits for (idempotent per call). */
export async function openCallApproval(
  db: Queryable,
  call: { id: string; deviceId: string; tool: string; arguments: unknown; operatorId: string; ttlMs: number },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO approval (id, call_id, device_id, tool, arguments, arguments_hash, requested_by, expires_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::double precision / 1000))
     ON CONFLICT (call_id) DO UPDATE SET call_id = EXCLUDED.call_id
     RETURNING id`,
    [
      call.id,
      call.deviceId,
      call.tool,
      JSON.stringify(call.arguments),
      argumentsHash(call.deviceId, call.tool, call.arguments),
      call.operatorId,
      call.ttlMs,
    ],
  );
  return rows[0]!.id;
}
