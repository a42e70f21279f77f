import { withStorableText } from '@fleet/protocol';
import type { PoolClient, QueryResult, QueryResultRow } from 'pg';
import type { Database } from '../../client/kysely';
import { databaseOn } from '../../client/single-connection';
import { distinctLeases, LeaseLostError, type ChainContext } from './chain-context';
import { chainLinks, type EvidenceRowInput, type SealInput } from './chain-links';
import {
  evidenceChainRepository as store,
  isChainConflict,
  type ChainHead,
  type ChainedRow,
} from './evidence-chain.repository';

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

export interface Unit {
  partition: number;
  run: (tx: UnitTx) => Promise<unknown>;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Runs general units (code that writes through `tx`: discovery's catalogs, an approval opened with its call's
 * move) in one transaction: BEGIN, the leases locked, each unit in turn, every unit's evidence in one INSERT,
 * COMMIT. A unit whose lease is gone is refused without touching the others; a unit that throws aborts the
 * transaction (the caller then runs the units one by one).
 */
export async function runUnitTransaction(ctx: ChainContext, batch: readonly Unit[]): Promise<Outcome[]> {
  const client = await ctx.pool.connect();
  const tentative = new Map<string, ChainHead>();
  const rows: ChainedRow[] = [];
  try {
    const leases = batch.map((u) => ctx.leaseOf(u.partition));
    const held = await store.beginLocked(client, ctx.holder, distinctLeases(leases));
    const tx = unitTx(ctx, client, tentative, rows);
    const outcomes: Outcome[] = [];
    for (const [i, unit] of batch.entries()) {
      const lease = leases[i];
      if (!lease || !held.has(lease.name)) {
        outcomes.push({ ok: false, error: new LeaseLostError(unit.partition) });
        continue;
      }
      outcomes.push({ ok: true, value: await unit.run(tx) });
    }
    // Nothing reads evidence back inside a batch; a failing insert fails the batch, retried unit by unit.
    await store.insertRows(client, rows);
    await client.query('COMMIT');
    for (const [device, head] of tentative) ctx.heads.set(device, head);
    return outcomes;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (isChainConflict(err)) for (const device of tentative.keys()) ctx.heads.delete(device);
    throw err;
  } finally {
    client.release();
  }
}

function unitTx(
  ctx: ChainContext,
  client: PoolClient,
  tentative: Map<string, ChainHead>,
  batchRows: ChainedRow[],
): UnitTx {
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
        tentative.get(deviceId) ??
        ctx.heads.get(deviceId) ??
        (await store.loadHeads(client, [deviceId])).get(deviceId)!;
      const storable = withStorableText({ rows, seal });
      const chained = chainLinks(
        head,
        callId,
        deviceId,
        storable.rows,
        storable.seal,
        new Date().toISOString(),
        ctx.signSeal,
      );
      batchRows.push(...chained.rows);
      tentative.set(deviceId, chained.head);
    },
  };
}
