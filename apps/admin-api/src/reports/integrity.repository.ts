import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import type { EvidenceStage } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';

export interface ChainRow {
  id: string;
  callId: string;
  deviceId: string;
  stage: EvidenceStage;
  seq: string;
  payload: unknown;
  prevHash: string;
  hash: string;
  createdAt: Date;
}

/** Evidence in chain order, a page at a time along the unique (device_id, seq) index. */
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
}
