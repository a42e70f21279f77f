import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import type { ChainLink } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';

export interface ChainRow {
  id: string;
  callId: string;
  deviceId: string;
  stage: ChainLink;
  seq: string;
  payload: unknown;
  prevHash: string;
  hash: string;
  createdAt: Date;
}

/** A call that is sealed or has a seal (or both), with what its row and its seal say. */
export interface SealRow {
  callId: string;
  deviceId: string;
  verdict: string | null;
  reason: string | null;
  sealedAt: Date | null;
  sealId: string | null;
  sealSeq: string | null;
  sealDeviceId: string | null;
  sealPayload: unknown;
  sealHash: string | null;
  sealKeyId: string | null;
  sealSignature: string | null;
}

/** Evidence in chain order, a page at a time along the unique (device_id, seq) index; calls beside their seals. */
@Injectable()
export class IntegrityRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  page(
    limit: number,
    after: { deviceId: string; seq: string } | undefined,
    deviceId?: string,
  ): Promise<ChainRow[]> {
    let query = this.db
      .selectFrom('evidence as e')
      .select([
        'e.id',
        'e.call_id as callId',
        'e.device_id as deviceId',
        'e.stage',
        'e.seq',
        'e.payload',
        'e.prev_hash as prevHash',
        'e.hash',
        'e.created_at as createdAt',
      ])
      .orderBy('e.device_id')
      .orderBy('e.seq')
      .limit(limit);
    if (after) {
      query = query.where((eb) =>
        eb(eb.refTuple('e.device_id', 'e.seq'), '>', eb.tuple(after.deviceId, after.seq)),
      );
    }
    if (deviceId) query = query.where('e.device_id', '=', deviceId);
    return query.execute();
  }

  /** Chain heads recorded where the application cannot rewrite them: the chain must still pass through them. */
  heads(deviceId?: string): Promise<{ deviceId: string; seq: string; hash: string }[]> {
    let query = this.db.selectFrom('evidence_chain_head').select(['device_id as deviceId', 'seq', 'hash']);
    if (deviceId) query = query.where('device_id', '=', deviceId);
    return query.execute();
  }

  /**
   * Every call that is sealed or has a seal link, in id order a page at a time: a sealed call without a seal and
   * a seal whose call lost its verdict are both what the check is for.
   */
  seals(limit: number, afterCallId: string | undefined, deviceId?: string): Promise<SealRow[]> {
    let query = this.db
      .selectFrom('call as c')
      .leftJoin('evidence as s', (j) => j.onRef('s.call_id', '=', 'c.id').on('s.stage', '=', 'seal'))
      .select([
        'c.id as callId',
        'c.device_id as deviceId',
        'c.verdict',
        'c.verdict_reason as reason',
        'c.sealed_at as sealedAt',
        's.id as sealId',
        's.seq as sealSeq',
        's.device_id as sealDeviceId',
        's.payload as sealPayload',
        's.hash as sealHash',
        's.seal_key_id as sealKeyId',
        's.seal_signature as sealSignature',
      ])
      .where((eb) => eb.or([eb('c.verdict', 'is not', null), eb('s.id', 'is not', null)]))
      .orderBy('c.id')
      .limit(limit);
    if (afterCallId) query = query.where('c.id', '>', afterCallId);
    if (deviceId) query = query.where('c.device_id', '=', deviceId);
    return query.execute();
  }
}
