import type { Client } from 'pg';
import { latencySummary, type LatencySummary } from '../platform/latency';

export interface SealedCalls {
  /** Verdicts of the calls asked for, as Postgres has them. */
  verdicts: Record<string, number>;
  /** `call.sealed_at - call.created_at`: the row inserted to the verdict committed, by the database's clock. */
  serverMs: LatencySummary;
  /** Where the server's time goes: row inserted → "sending" committed (queue, policy), and → sealed (device, verify). */
  toSendingMs: LatencySummary;
  sendingToSealedMs: LatencySummary;
  /** Calls with all five evidence rows committed (DESIGN §1), of those asked for. */
  withFiveRows: number;
  /** Prerequisite calls the ordering rules ran for them (origin `system`, their own evidence and verdict). */
  prerequisites: number;
}

/** What the database says about a set of calls: each must be sealed with five evidence rows to count. */
export async function readSealedCalls(sql: Client, callIds: string[]): Promise<SealedCalls> {
  const { rows } = await sql.query<{
    verdict: string | null;
    ms: number | null;
    send: number | null;
    seal: number | null;
    stages: number;
  }>(
    `SELECT c.verdict, extract(epoch FROM c.sealed_at - c.created_at) * 1000 AS ms,
            extract(epoch FROM c.sent_at - c.created_at) * 1000 AS send,
            extract(epoch FROM c.sealed_at - c.sent_at) * 1000 AS seal,
            (SELECT count(DISTINCT e.stage)::int FROM evidence e WHERE e.call_id = c.id AND e.stage <> 'seal') AS stages
       FROM call c WHERE c.id = ANY($1::uuid[])`,
    [callIds],
  );
  const verdicts: Record<string, number> = {};
  for (const r of rows) verdicts[r.verdict ?? 'unsealed'] = (verdicts[r.verdict ?? 'unsealed'] ?? 0) + 1;
  const { rows: prereq } = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM call WHERE parent_call_id = ANY($1::uuid[])',
    [callIds],
  );
  return {
    verdicts,
    serverMs: latencySummary(rows.filter((r) => r.ms !== null).map((r) => Number(r.ms))),
    toSendingMs: latencySummary(rows.filter((r) => r.send !== null).map((r) => Number(r.send))),
    sendingToSealedMs: latencySummary(rows.filter((r) => r.seal !== null).map((r) => Number(r.seal))),
    withFiveRows: rows.filter((r) => r.stages === 5).length,
    prerequisites: prereq[0]?.n ?? 0,
  };
}
