import { evidenceHash, GENESIS_HASH, type EvidenceStage } from '@fleet/domain';
import type { PoolClient } from 'pg';

export interface EvidenceUnit {
  callId: string;
  deviceId: string;
  rows: { stage: EvidenceStage; payload: unknown }[];
}

interface Head {
  seq: bigint;
  hash: string;
}

interface Row {
  callId: string;
  deviceId: string;
  stage: EvidenceStage;
  seq: string;
  payload: string;
  prevHash: string;
  hash: string;
}

const INSERT = `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at)
  SELECT u.call_id::uuid, u.device_id, u.stage::"EvidenceStage", u.seq, u.payload, u.prev_hash, u.hash, $1::timestamptz
    FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::jsonb[], $7::text[], $8::text[])
      AS u(call_id, device_id, stage, seq, payload, prev_hash, hash)`;

/**
 * Appends evidence with the orchestrator's group commit (apps/orchestrator/src/evidence/commit-queue.ts, which a
 * tool may not import): many calls' rows in one transaction that first locks the writer's lease FOR KEY SHARE, each
 * row chained to its device's previous one by evidenceHash, the same `unnest` insert. `statement: 'per-batch'`
 * is what the orchestrator does (every unit's rows in one INSERT before COMMIT); `'per-call'` is one INSERT per
 * call inside the shared transaction, what it did before issue 9 measured the difference.
 */
export class ChainedEvidenceWriter {
  private readonly heads = new Map<string, Head>();

  constructor(
    private readonly lease: { name: string; holder: string; token: number },
    private readonly statement: 'per-call' | 'per-batch',
  ) {}

  async commit(client: PoolClient, batch: readonly EvidenceUnit[]): Promise<void> {
    const tentative = new Map<string, Head>();
    const createdAt = new Date().toISOString();
    const rows = batch.map((unit) => this.chain(unit, createdAt, tentative));
    await client.query('BEGIN');
    try {
      const { rowCount } = await client.query(
        `SELECT name FROM service_lease WHERE name = $1 AND holder = $2 AND token = $3 AND expires_at > now() FOR KEY SHARE`,
        [this.lease.name, this.lease.holder, this.lease.token],
      );
      if (rowCount !== 1) throw new Error('the bench lease is gone');
      if (this.statement === 'per-batch') await insert(client, createdAt, rows.flat());
      else for (const unitRows of rows) await insert(client, createdAt, unitRows);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    for (const [device, head] of tentative) this.heads.set(device, head);
  }

  private chain(unit: EvidenceUnit, createdAt: string, tentative: Map<string, Head>): Row[] {
    let head = tentative.get(unit.deviceId) ??
      this.heads.get(unit.deviceId) ?? { seq: 0n, hash: GENESIS_HASH };
    const out = unit.rows.map((row) => {
      const seq = head.seq + 1n;
      const hash = evidenceHash(head.hash, {
        ...unit,
        stage: row.stage,
        seq,
        payload: row.payload,
        createdAt,
      });
      const chained: Row = {
        callId: unit.callId,
        deviceId: unit.deviceId,
        stage: row.stage,
        seq: seq.toString(),
        payload: JSON.stringify(row.payload),
        prevHash: head.hash,
        hash,
      };
      head = { seq, hash };
      return chained;
    });
    tentative.set(unit.deviceId, head);
    return out;
  }
}

async function insert(client: PoolClient, createdAt: string, rows: readonly Row[]): Promise<void> {
  await client.query(INSERT, [
    createdAt,
    rows.map((r) => r.callId),
    rows.map((r) => r.deviceId),
    rows.map((r) => r.stage),
    rows.map((r) => r.seq),
    rows.map((r) => r.payload),
    rows.map((r) => r.prevHash),
    rows.map((r) => r.hash),
  ]);
}
