import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import type { LogEntry } from '@fleet/audit-export';
import { PG_POOL } from '../infra/tokens';

export interface SealLink extends LogEntry {
  keyId: string | null;
  signature: string | null;
}

/** The seal links the evidence log is made of, and the links a checkpoint committed to, as the database has them. */
@Injectable()
export class CheckpointRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** Every seal link after the last one the log holds of its device, in (device, seq) order: the next leaves. */
  async sealsAfter(known: Map<string, bigint>): Promise<SealLink[]> {
    const heads = JSON.stringify([...known].map(([deviceId, seq]) => ({ deviceId, seq: seq.toString() })));
    const { rows } = await sql<SealLink>`
      SELECT e.device_id AS "deviceId", e.seq::text AS seq, e.hash, e.seal_key_id AS "keyId",
             e.seal_signature AS signature
        FROM evidence e
        LEFT JOIN jsonb_to_recordset(${heads}::jsonb) AS k("deviceId" text, seq bigint) ON k."deviceId" = e.device_id
       WHERE e.stage = 'seal' AND e.seq > coalesce(k.seq, 0)
       ORDER BY e.device_id, e.seq`.execute(this.db);
    return rows;
  }

  /** The hash the database holds at each (device, seq) asked for; absent when there is no such link. */
  async hashesAt(entries: readonly LogEntry[]): Promise<Map<string, string>> {
    const at = JSON.stringify(entries.map((e) => ({ deviceId: e.deviceId, seq: e.seq })));
    const { rows } = await sql<{ deviceId: string; seq: string; hash: string }>`
      SELECT e.device_id AS "deviceId", e.seq::text AS seq, e.hash
        FROM jsonb_to_recordset(${at}::jsonb) AS k("deviceId" text, seq bigint)
        JOIN evidence e ON e.device_id = k."deviceId" AND e.seq = k.seq`.execute(this.db);
    return new Map(rows.map((r) => [`${r.deviceId}\u0000${r.seq}`, r.hash]));
  }
}
