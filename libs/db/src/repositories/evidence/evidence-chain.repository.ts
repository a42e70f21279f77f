import { escapeLiteral, type PoolClient, type QueryResult } from 'pg';
import { GENESIS_HASH, type ChainLink } from '@fleet/domain';

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
export interface ChainedRow {
  callId: string;
  deviceId: string;
  stage: ChainLink;
  seq: string;
  payload: string;
  prevHash: string;
  hash: string;
  createdAt: string;
}

/**
 * The evidence writer's statements, on the connection of its batch transaction. Plain pg rather than Kysely: they
 * are three fixed statements whose parameters are whole arrays (`unnest`), so a query builder would only add a
 * compile step per batch (DESIGN §6; STYLE §7: bulk writes through `unnest`, measured in docs/BENCHMARKS.md §4).
 */
export const evidenceChainRepository = {
  /**
   * Opens the batch transaction and locks the holder's live leases FOR KEY SHARE (see CommitQueue) in one round
   * trip, returning the names still held: a lone call's evidence unit paid a round trip for the BEGIN alone. Two
   * statements go in one simple-protocol message, which takes no bind parameters, so the values are written as
   * literals: the holder and names through pg's escapeLiteral, the fencing tokens checked to be integers.
   */
  async beginLocked(client: PoolClient, holder: string, leases: readonly LeaseRef[]): Promise<Set<string>> {
    if (leases.length === 0) {
      await client.query('BEGIN');
      return new Set();
    }
    const pairs = leases.map((l) => {
      if (!/^-?\d{1,19}$/.test(l.token)) throw new Error(`lease ${l.name}: fencing token is not an integer`);
      return `(${escapeLiteral(l.name)}, ${l.token}::bigint)`;
    });
    const results = (await client.query(
      `BEGIN; SELECT name FROM service_lease
        WHERE holder = ${escapeLiteral(holder)} AND expires_at > now() AND (name, token) IN (${pairs.join(', ')})
        FOR KEY SHARE`,
    )) as unknown as [QueryResult, QueryResult<{ name: string }>];
    return new Set(results[1].rows.map((r) => r.name));
  },

  async loadHead(client: PoolClient, deviceId: string): Promise<ChainHead> {
    const { rows } = await client.query<{ seq: string; hash: string }>(
      'SELECT seq::text, hash FROM evidence WHERE device_id = $1 ORDER BY evidence.seq DESC LIMIT 1',
      [deviceId],
    );
    const row = rows[0];
    return row ? { seq: BigInt(row.seq), hash: row.hash } : { seq: 0n, hash: GENESIS_HASH };
  },

  /**
   * Every row of a batch in one statement (one INSERT per unit cost Postgres twice the CPU per row), and the
   * COMMIT, in one round trip: a lone call paid one for each. One simple-protocol message takes no bind
   * parameters, so every value is a literal: text through pg's escapeLiteral, the seq checked to be an integer.
   * A failing INSERT skips the COMMIT (the rest of the message is not run) and rejects, as before.
   */
  async insertAndCommit(client: PoolClient, rows: readonly ChainedRow[]): Promise<void> {
    if (rows.length === 0) {
      await client.query('COMMIT');
      return;
    }
    const column = (values: string[], type: string) =>
      `ARRAY[${values.map(escapeLiteral).join(', ')}]::${type}[]`;
    for (const r of rows)
      if (!/^\d{1,19}$/.test(r.seq)) throw new Error(`evidence seq ${r.seq} is not an integer`);
    await client.query(
      `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at)
       SELECT u.call_id::uuid, u.device_id, u.stage::"EvidenceStage", u.seq, u.payload, u.prev_hash, u.hash, u.created_at
         FROM unnest(${[
           column(
             rows.map((r) => r.callId),
             'text',
           ),
           column(
             rows.map((r) => r.deviceId),
             'text',
           ),
           column(
             rows.map((r) => r.stage),
             'text',
           ),
           `ARRAY[${rows.map((r) => r.seq).join(', ')}]::bigint[]`,
           column(
             rows.map((r) => r.payload),
             'jsonb',
           ),
           column(
             rows.map((r) => r.prevHash),
             'text',
           ),
           column(
             rows.map((r) => r.hash),
             'text',
           ),
           column(
             rows.map((r) => r.createdAt),
             'timestamptz',
           ),
         ].join(', ')})
           AS u(call_id, device_id, stage, seq, payload, prev_hash, hash, created_at);
       COMMIT`,
    );
  },
};

/** A unique violation on (device_id, seq): another transaction extended the device's chain first. */
export function isChainConflict(err: unknown): boolean {
  const pg = err as { code?: string; constraint?: string };
  return pg.code === '23505' && pg.constraint === 'evidence_device_id_seq_key';
}
