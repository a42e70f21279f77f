import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
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
}

/** Evidence in chain order, a page at a time along the unique (device_id, seq) index; calls beside their seals. */
@Injectable()
export class IntegrityRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async page(
    limit: number,
    after: { deviceId: string; seq: string } | undefined,
    deviceId?: string,
  ): Promise<ChainRow[]> {
    const { rows } = await this.pool.query<ChainRow>(
      // Qualified in ORDER BY: a bare `seq` would sort by the text column of the same name.
      `SELECT id::text, call_id AS "callId", device_id AS "deviceId", stage, seq::text, payload,
              prev_hash AS "prevHash", hash, created_at AS "createdAt"
         FROM evidence e
        WHERE ($2::text IS NULL OR (e.device_id, e.seq) > ($2::text, $3::bigint))
          AND ($4::text IS NULL OR e.device_id = $4)
        ORDER BY e.device_id, e.seq LIMIT $1`,
      [limit, after?.deviceId ?? null, after?.seq ?? null, deviceId ?? null],
    );
    return rows;
  }

  /** Chain heads recorded where the application cannot rewrite them: the chain must still pass through them. */
  async heads(deviceId?: string): Promise<{ deviceId: string; seq: string; hash: string }[]> {
    const { rows } = await this.pool.query<{ deviceId: string; seq: string; hash: string }>(
      `SELECT device_id AS "deviceId", seq::text, hash FROM evidence_chain_head
        WHERE $1::text IS NULL OR device_id = $1`,
      [deviceId ?? null],
    );
    return rows;
  }

  /**
   * Every call that is sealed or has a seal link, in id order a page at a time: a sealed call without a seal and
   * a seal whose call lost its verdict are both what the check is for.
   */
  async seals(limit: number, afterCallId: string | undefined, deviceId?: string): Promise<SealRow[]> {
    const { rows } = await this.pool.query<SealRow>(
      `SELECT c.id AS "callId", c.device_id AS "deviceId", c.verdict::text AS verdict, c.verdict_reason AS reason,
              c.sealed_at AS "sealedAt", s.id::text AS "sealId", s.seq::text AS "sealSeq",
              s.device_id AS "sealDeviceId", s.payload AS "sealPayload"
         FROM call c LEFT JOIN evidence s ON s.call_id = c.id AND s.stage = 'seal'
        WHERE (c.verdict IS NOT NULL OR s.id IS NOT NULL)
          AND ($2::uuid IS NULL OR c.id > $2::uuid)
          AND ($3::text IS NULL OR c.device_id = $3)
        ORDER BY c.id LIMIT $1`,
      [limit, afterCallId ?? null, deviceId ?? null],
    );
    return rows;
  }
}
