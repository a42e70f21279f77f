import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import {
  evidenceHash,
  GENESIS_HASH,
  partitionOf,
  SEAL_LINK,
  type ChainLink,
  type EvidenceStage,
  type SealPayload,
  type Verdict,
} from '@fleet/domain';
import { databaseOn, type Database } from '@fleet/db';
import type { Histogram } from '@fleet/telemetry';
import type { Lease } from '../coordination/lease-store';

export class LeaseLostError extends Error {
  constructor(partition: number) {
    super(`partition ${partition} is no longer owned by this replica`);
    this.name = 'LeaseLostError';
  }
}

export interface EvidenceRowInput {
  stage: EvidenceStage;
  payload: unknown;
}

/** A call's seal as its call row gets it: the same verdict, reason and time go into the chain. */
export interface SealInput {
  verdict: Verdict;
  reason: string;
  sealedAt: Date;
}

/** What a unit can do inside the batch transaction. */
export interface UnitTx {
  query<R extends QueryResultRow>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
  /** Kysely on the batch's connection, for a repository that writes in the same transaction (DESIGN §8). */
  readonly db: Database;
  /**
   * Appends rows to the device's hash chain (seq and hash are assigned here, in order), then the call's seal when
   * given: a link of its own after them (DESIGN §6), in the same transaction as the call row it seals.
   */
  appendEvidence(callId: string, deviceId: string, rows: EvidenceRowInput[], seal?: SealInput): Promise<void>;
}

interface Pending<T> {
  partition: number;
  run: (tx: UnitTx) => Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

interface ChainHead {
  seq: bigint;
  hash: string;
}

/** How often a unit is run again after another batch took the seq it chained onto (a few suffice: see commitAlone). */
const CHAIN_CONFLICT_ATTEMPTS = 5;

/** A unique violation on (device_id, seq): another transaction extended the device's chain first. */
function isChainConflict(err: unknown): boolean {
  const pg = err as { code?: string; constraint?: string };
  return pg.code === '23505' && pg.constraint === 'evidence_device_id_seq_key';
}

/** An evidence row chained and waiting for its batch's single INSERT. */
interface ChainedRow {
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
 * Group commit (DESIGN §6): the steps of many concurrent calls share one transaction, and each caller goes on
 * only once its step is committed, so batching costs no durability. Every batch first locks the leases of the
 * partitions it writes for (FOR KEY SHARE): a replica that lost a lease cannot write, and nobody can take a lease
 * while a batch under it is being committed (a takeover locks the row FOR UPDATE first, see LeaseStore.acquire).
 * KEY SHARE rather than SHARE so that the holder's own renewals, plain UPDATEs, never wait for batches: under a
 * saturated pipeline the batches overlap without a gap, and a renewal waiting for a gap missed its TTL.
 * Evidence is chained per device in the order it is appended.
 */
export class CommitQueue {
  private queue: Pending<unknown>[] = [];
  private running = 0;
  private readonly heads = new Map<string, ChainHead>();

  constructor(
    private readonly pool: Pool,
    private readonly holder: string,
    private readonly leaseOf: (partition: number) => Lease | undefined,
    private readonly options: { maxConcurrentBatches: number; maxBatchSize: number; latency?: Histogram },
  ) {}

  submit<T>(partition: number, run: (tx: UnitTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ partition, run, resolve, reject } as Pending<unknown>);
      this.pump();
    });
  }

  /** Forget cached chain heads of a partition (its next owner may have written since). */
  forgetPartition(partition: number): void {
    for (const device of this.heads.keys()) if (partitionOf(device) === partition) this.heads.delete(device);
  }

  private pump(): void {
    while (this.running < this.options.maxConcurrentBatches && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatchSize);
      this.running++;
      void this.commit(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async commit(batch: Pending<unknown>[]): Promise<void> {
    const started = performance.now();
    try {
      const outcomes = await this.transaction(batch);
      outcomes.forEach((o, i) => (o.ok ? batch[i]!.resolve(o.value) : batch[i]!.reject(o.error)));
    } catch {
      // One unit broke the shared transaction: run each on its own so the others still commit.
      for (const unit of batch) await this.commitAlone(unit);
    } finally {
      this.options.latency?.observe((performance.now() - started) / 1000);
    }
  }

  /**
   * One unit in a transaction of its own. Two batches in flight may both extend one device's chain from the same
   * cached head; the second then meets the first's seq in the unique index (Postgres makes it wait for the first
   * to commit), its cached heads are dropped, and it is run again on the heads as committed.
   */
  private async commitAlone(unit: Pending<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const [o] = await this.transaction([unit]);
        return o!.ok ? unit.resolve(o!.value) : unit.reject(o!.error);
      } catch (err) {
        if (!isChainConflict(err) || attempt >= CHAIN_CONFLICT_ATTEMPTS) return unit.reject(err);
      }
    }
  }

  /** Runs the units in one transaction; a unit whose lease is gone is refused without touching the others. */
  private async transaction(
    batch: Pending<unknown>[],
  ): Promise<({ ok: true; value: unknown } | { ok: false; error: unknown })[]> {
    const client = await this.pool.connect();
    const db = databaseOn(client);
    const tentative = new Map<string, ChainHead>();
    const rows: ChainedRow[] = [];
    try {
      await client.query('BEGIN');
      const valid = await this.lockLeases(client, batch);
      const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
      for (const unit of batch) {
        if (!valid.has(unit.partition)) {
          outcomes.push({ ok: false, error: new LeaseLostError(unit.partition) });
          continue;
        }
        // A unit that throws aborts the transaction: the caller retries the batch unit by unit.
        outcomes.push({ ok: true, value: await unit.run(this.tx(client, db, tentative, rows)) });
      }
      // Every unit's evidence in one statement (issue 9: one INSERT per unit cost Postgres twice the CPU per row).
      // Nothing reads evidence back inside a batch, and a failing insert fails the batch, retried unit by unit.
      await insertEvidence(client, rows);
      await client.query('COMMIT');
      for (const [device, head] of tentative) this.heads.set(device, head);
      return outcomes;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (isChainConflict(err)) for (const device of tentative.keys()) this.heads.delete(device);
      throw err;
    } finally {
      client.release();
    }
  }

  private async lockLeases(client: PoolClient, batch: Pending<unknown>[]): Promise<Set<number>> {
    const leases = new Map<number, Lease>();
    for (const unit of batch) {
      const lease = this.leaseOf(unit.partition);
      if (lease) leases.set(unit.partition, lease);
    }
    if (leases.size === 0) return new Set();
    const list = [...leases.entries()];
    const { rows } = await client.query<{ name: string }>(
      `SELECT name FROM service_lease
        WHERE holder = $1 AND expires_at > now() AND (name, token) IN (SELECT * FROM unnest($2::text[], $3::bigint[]))
        FOR KEY SHARE`,
      [this.holder, list.map(([, l]) => l.name), list.map(([, l]) => l.token)],
    );
    const names = new Set(rows.map((r) => r.name));
    return new Set(list.filter(([, l]) => names.has(l.name)).map(([p]) => p));
  }

  private tx(
    client: PoolClient,
    db: Database,
    tentative: Map<string, ChainHead>,
    batchRows: ChainedRow[],
  ): UnitTx {
    return {
      query: (sql, params) => client.query(sql, params),
      db,
      appendEvidence: async (callId, deviceId, rows, seal) => {
        const links: { stage: ChainLink; payload: unknown }[] = seal
          ? [...rows, { stage: SEAL_LINK, payload: sealPayloadOf(seal) }]
          : rows;
        if (links.length === 0) return;
        let head =
          tentative.get(deviceId) ?? this.heads.get(deviceId) ?? (await this.loadHead(client, deviceId));
        const createdAt = new Date().toISOString();
        for (const row of links) {
          const seq = head.seq + 1n;
          const hash = evidenceHash(head.hash, {
            callId,
            deviceId,
            stage: row.stage,
            seq,
            payload: row.payload,
            createdAt,
          });
          batchRows.push({
            callId,
            deviceId,
            stage: row.stage,
            seq: seq.toString(),
            payload: JSON.stringify(row.payload),
            prevHash: head.hash,
            hash,
            createdAt,
          });
          head = { seq, hash };
        }
        tentative.set(deviceId, head);
      },
    };
  }

  private async loadHead(client: PoolClient, deviceId: string): Promise<ChainHead> {
    const { rows } = await client.query<{ seq: string; hash: string }>(
      'SELECT seq::text, hash FROM evidence WHERE device_id = $1 ORDER BY evidence.seq DESC LIMIT 1',
      [deviceId],
    );
    const row = rows[0];
    return row ? { seq: BigInt(row.seq), hash: row.hash } : { seq: 0n, hash: GENESIS_HASH };
  }
}

function sealPayloadOf(seal: SealInput): SealPayload {
  return { verdict: seal.verdict, reason: seal.reason, sealedAt: seal.sealedAt.toISOString() };
}

async function insertEvidence(client: PoolClient, rows: readonly ChainedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query(
    `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at)
     SELECT u.call_id::uuid, u.device_id, u.stage::"EvidenceStage", u.seq, u.payload, u.prev_hash, u.hash, u.created_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::jsonb[], $6::text[], $7::text[], $8::timestamptz[])
         AS u(call_id, device_id, stage, seq, payload, prev_hash, hash, created_at)`,
    [
      rows.map((r) => r.callId),
      rows.map((r) => r.deviceId),
      rows.map((r) => r.stage),
      rows.map((r) => r.seq),
      rows.map((r) => r.payload),
      rows.map((r) => r.prevHash),
      rows.map((r) => r.hash),
      rows.map((r) => r.createdAt),
    ],
  );
}
