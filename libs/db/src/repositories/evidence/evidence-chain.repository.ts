import type { Pool, PoolClient } from 'pg';
import { GENESIS_HASH } from '@fleet/domain';
import type { EvidenceDocument } from '../calls/call-steps.repository';

/** The last link of a device's chain: what its next evidence row is hashed onto. */
export interface ChainHead {
  seq: bigint;
  hash: string;
}

/** A lease a batch writes under (name and fencing token, as LeaseStore hands them out). */
export interface LeaseRef {
  name: string;
  token: string;
}

/** An evidence row chained and waiting for its batch's single INSERT. */
export type ChainedRow = EvidenceDocument;

/**
 * The evidence writer's statements for a batch of general units, on the connection of its transaction (a batch
 * of call steps is one statement of its own: call-steps.repository). Plain pg rather than Kysely: fixed
 * statements whose parameters are whole documents, so a query builder would only add a compile step per batch
 * (DESIGN §6; STYLE §7: bulk writes as one statement, measured in docs/BENCHMARKS.md §4).
 */
export const evidenceChainRepository = {
  /**
   * Opens the batch transaction and locks the holder's live leases FOR KEY SHARE (see CommitQueue), returning the
   * names still held.
   */
  async beginLocked(client: PoolClient, holder: string, leases: readonly LeaseRef[]): Promise<Set<string>> {
    await client.query('BEGIN');
    if (leases.length === 0) return new Set();
    const { rows } = await client.query<{ name: string }>({
      name: 'lock-leases',
      text: `SELECT name FROM service_lease
              WHERE holder = $1 AND expires_at > now()
                AND (name, token) IN (SELECT f.name, f.token FROM jsonb_to_recordset($2::jsonb) AS f(name text, token bigint))
                FOR KEY SHARE`,
      values: [holder, JSON.stringify(leases)],
    });
    return new Set(rows.map((r) => r.name));
  },

  /** The heads of several devices' chains in one round trip (a device without evidence starts at genesis). */
  async loadHeads(db: Pool | PoolClient, deviceIds: readonly string[]): Promise<Map<string, ChainHead>> {
    const { rows } = await db.query<{ device_id: string; seq: string; hash: string }>({
      name: 'load-chain-heads',
      text: `SELECT d.id AS device_id, h.seq::text AS seq, h.hash
               FROM unnest($1::text[]) AS d(id)
               CROSS JOIN LATERAL (SELECT e.seq, e.hash FROM evidence e WHERE e.device_id = d.id
                                    ORDER BY e.seq DESC LIMIT 1) h`,
      values: [deviceIds],
    });
    const heads = new Map<string, ChainHead>(
      deviceIds.map((id) => [id, { seq: 0n, hash: GENESIS_HASH }] as const),
    );
    for (const r of rows) heads.set(r.device_id, { seq: BigInt(r.seq), hash: r.hash });
    return heads;
  },

  /** Every row of a batch in one statement (one INSERT per unit cost Postgres twice the CPU per row). */
  async insertRows(client: PoolClient, rows: readonly ChainedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await client.query({
      name: 'insert-evidence',
      text: `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at,
                                   seal_key_id, seal_signature)
             SELECT e."callId", e."deviceId", e.stage, e.seq, e.payload, e."prevHash", e.hash, e."createdAt",
                    e."sealKeyId", e."sealSignature"
               FROM jsonb_to_recordset($1::jsonb) AS e(
                      "callId" uuid, "deviceId" text, stage "EvidenceStage", seq bigint, payload jsonb,
                      "prevHash" text, hash text, "createdAt" timestamptz, "sealKeyId" text, "sealSignature" text)`,
      values: [JSON.stringify(rows)],
    });
  },
};

/** A unique violation on (device_id, seq): another transaction extended the device's chain first. */
export function isChainConflict(err: unknown): boolean {
  const pg = err as { code?: string; constraint?: string };
  return pg.code === '23505' && pg.constraint === 'evidence_device_id_seq_key';
}
