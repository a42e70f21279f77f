import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { partitionOf } from '@fleet/domain';
import { databaseOn } from '../../client/single-connection';
import type { Database } from '../../client/kysely';
import { chainLinks, type EvidenceRowInput, type SealInput } from './chain-links';
import {
  evidenceChainRepository as store,
  isChainConflict,
  type ChainHead,
  type ChainedRow,
  type LeaseRef,
} from './evidence-chain.repository';

export class LeaseLostError extends Error {
  constructor(partition: number) {
    super(`partition ${partition} is no longer owned by this replica`);
    this.name = 'LeaseLostError';
  }
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

export interface CommitQueueOptions {
  maxConcurrentBatches: number;
  maxBatchSize: number;
  /** Seconds per batch transaction, BEGIN to COMMIT (a prom-client histogram fits). */
  latency?: { observe(seconds: number): void };
}

interface Pending<T> {
  partition: number;
  run: (tx: UnitTx) => Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** How often a unit is run again after another batch took the seq it chained onto (a few suffice: see commitAlone). */
const CHAIN_CONFLICT_ATTEMPTS = 5;

/**
 * Group commit (DESIGN §6): the steps of many concurrent calls share one transaction, and each caller goes on
 * only once its step is committed, so batching costs no durability. Every batch first locks the leases of the
 * partitions it writes for (FOR KEY SHARE): a replica that lost a lease cannot write, and nobody can take a lease
 * while a batch under it is being committed (a takeover locks the row FOR UPDATE first, see LeaseStore.acquire).
 * KEY SHARE rather than SHARE so that the holder's own renewals, plain UPDATEs, never wait for batches: under a
 * saturated pipeline the batches overlap without a gap, and a renewal waiting for a gap missed its TTL.
 * Evidence is chained per device in the order it is appended. The orchestrator and the evidence benchmark both
 * write through this class.
 */
export class CommitQueue {
  private queue: Pending<unknown>[] = [];
  private running = 0;
  private readonly heads = new Map<string, ChainHead>();

  constructor(
    private readonly pool: Pool,
    private readonly holder: string,
    private readonly leaseOf: (partition: number) => LeaseRef | undefined,
    private readonly options: CommitQueueOptions,
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
  private async transaction(batch: Pending<unknown>[]): Promise<Outcome[]> {
    const client = await this.pool.connect();
    const tentative = new Map<string, ChainHead>();
    const rows: ChainedRow[] = [];
    try {
      const valid = await this.beginLocked(client, batch);
      const tx = this.tx(client, tentative, rows);
      const outcomes: Outcome[] = [];
      for (const unit of batch) {
        if (!valid.has(unit.partition)) {
          outcomes.push({ ok: false, error: new LeaseLostError(unit.partition) });
          continue;
        }
        // A unit that throws aborts the transaction: the caller retries the batch unit by unit.
        outcomes.push({ ok: true, value: await unit.run(tx) });
      }
      // Every unit's evidence in one statement. Nothing reads evidence back inside a batch, and a failing insert
      // fails the batch, retried unit by unit.
      await store.insertAndCommit(client, rows);
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

  /** BEGIN, and the batch's leases locked, in one round trip. */
  private async beginLocked(client: PoolClient, batch: Pending<unknown>[]): Promise<Set<number>> {
    const leases = new Map<number, LeaseRef>();
    for (const unit of batch) {
      const lease = this.leaseOf(unit.partition);
      if (lease) leases.set(unit.partition, lease);
    }
    const list = [...leases.entries()];
    // One row per lease, however many of the batch's partitions it covers.
    const distinct = new Map([...leases.values()].map((l) => [`${l.name}\u0000${l.token}`, l]));
    const names = await store.beginLocked(client, this.holder, [...distinct.values()]);
    return new Set(list.filter(([, l]) => names.has(l.name)).map(([p]) => p));
  }

  private tx(client: PoolClient, tentative: Map<string, ChainHead>, batchRows: ChainedRow[]): UnitTx {
    let db: Database | undefined;
    return {
      query: (sql, params) => client.query(sql, params),
      // Built on first use: most units never need it, and a batch shares one.
      get db() {
        return (db ??= databaseOn(client));
      },
      appendEvidence: async (callId, deviceId, rows, seal) => {
        if (rows.length === 0 && !seal) return;
        const head =
          tentative.get(deviceId) ?? this.heads.get(deviceId) ?? (await store.loadHead(client, deviceId));
        const chained = chainLinks(head, callId, deviceId, rows, seal, new Date().toISOString());
        batchRows.push(...chained.rows);
        tentative.set(deviceId, chained.head);
      },
    };
  }
}
