import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool, type Transaction, type DB } from '@fleet/db';
import type { ChainLink } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';
import type { Period } from './audit-report.repository';

/** One device's stretch of chain an export covers: from the first link of the period's calls to the last. */
export interface CoveredChain {
  deviceId: string;
  fromSeq: string;
  prevHash: string;
  headSeq: string;
  headHash: string;
}

export interface LinkRow {
  deviceId: string;
  seq: string;
  callId: string;
  stage: ChainLink;
  payload: unknown;
  prevHash: string;
  hash: string;
  createdAt: Date;
  sealKeyId: string | null;
  sealSignature: string | null;
}

export interface SealedCallRow {
  callId: string;
  deviceId: string;
  createdAt: Date;
  verdict: string | null;
  reason: string | null;
  sealedAt: Date | null;
}

/** The export's reads, in one repeatable-read snapshot so that chains, seals and call rows agree. */
@Injectable()
export class AuditExportRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  inSnapshot<T>(read: (snapshot: ExportSnapshot) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute((trx) => read(new ExportSnapshot(trx)));
  }
}

export class ExportSnapshot {
  constructor(private readonly trx: Transaction<DB>) {}

  coveredChains(p: Period): Promise<CoveredChain[]> {
    return this.trx
      .with('touched', (db) =>
        db
          .selectFrom('call as c')
          .innerJoin('evidence as e', 'e.call_id', 'c.id')
          .where('c.created_at', '>=', p.from)
          .where('c.created_at', '<', p.to)
          .select((eb) => [
            'e.device_id',
            eb.fn.min<string>('e.seq').as('from_seq'),
            eb.fn.max<string>('e.seq').as('to_seq'),
          ])
          .groupBy('e.device_id'),
      )
      .selectFrom('touched as t')
      .innerJoin('evidence as f', (j) =>
        j.onRef('f.device_id', '=', 't.device_id').onRef('f.seq', '=', 't.from_seq'),
      )
      .innerJoin('evidence as l', (j) =>
        j.onRef('l.device_id', '=', 't.device_id').onRef('l.seq', '=', 't.to_seq'),
      )
      .select([
        't.device_id as deviceId',
        't.from_seq as fromSeq',
        'f.prev_hash as prevHash',
        't.to_seq as headSeq',
        'l.hash as headHash',
      ])
      .orderBy('t.device_id')
      .execute();
  }

  /** Every link of the covered stretches, in chain order. */
  links(chains: CoveredChain[]): Promise<LinkRow[]> {
    const ranges = sql<{ device_id: string; from_seq: string; to_seq: string }>`(
      SELECT * FROM unnest(${chains.map((c) => c.deviceId)}::text[], ${chains.map((c) => c.fromSeq)}::bigint[],
                           ${chains.map((c) => c.headSeq)}::bigint[]) AS x(device_id, from_seq, to_seq))`;
    return this.trx
      .selectFrom(ranges.as('r'))
      .innerJoin('evidence as e', (j) =>
        j
          .onRef('e.device_id', '=', 'r.device_id')
          .onRef('e.seq', '>=', 'r.from_seq')
          .onRef('e.seq', '<=', 'r.to_seq'),
      )
      .select([
        'e.device_id as deviceId',
        'e.seq',
        'e.call_id as callId',
        'e.stage',
        'e.payload',
        'e.prev_hash as prevHash',
        'e.hash',
        'e.created_at as createdAt',
        'e.seal_key_id as sealKeyId',
        'e.seal_signature as sealSignature',
      ])
      .orderBy('e.device_id')
      .orderBy('e.seq')
      .execute();
  }

  calls(ids: string[]): Promise<SealedCallRow[]> {
    return this.trx
      .selectFrom('call')
      .where(sql<boolean>`id = ANY(${ids}::uuid[])`)
      .select([
        'id as callId',
        'device_id as deviceId',
        'created_at as createdAt',
        'verdict',
        'verdict_reason as reason',
        'sealed_at as sealedAt',
      ])
      .orderBy('id')
      .execute();
  }
}
