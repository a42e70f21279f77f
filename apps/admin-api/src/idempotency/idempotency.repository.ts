import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_progress'; requestHash: string }
  | { kind: 'done'; requestHash: string; statusCode: number; body: unknown };

/** A status of 0 marks a request that is still running (or died running; taken over once stale). */
const RUNNING = 0;
const STALE_AFTER_S = 60;

/** `idempotency_record`: one row per (operator, key), holding the first answer to replay. */
@Injectable()
export class IdempotencyRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async claim(operatorId: string, key: string, requestHash: string): Promise<Claim> {
    const inserted = await this.pool.query(
      `INSERT INTO idempotency_record (key, operator_id, request_hash, status_code, response_body)
       VALUES ($1, $2, $3, ${RUNNING}, '{}') ON CONFLICT DO NOTHING`,
      [key, operatorId, requestHash],
    );
    if (inserted.rowCount === 1) return { kind: 'claimed' };
    const takenOver = await this.pool.query(
      `UPDATE idempotency_record SET created_at = now()
        WHERE key = $1 AND operator_id = $2 AND request_hash = $3 AND status_code = ${RUNNING}
          AND created_at < now() - make_interval(secs => ${STALE_AFTER_S})`,
      [key, operatorId, requestHash],
    );
    if (takenOver.rowCount === 1) return { kind: 'claimed' };
    const { rows } = await this.pool.query<{
      request_hash: string;
      status_code: number;
      response_body: unknown;
    }>(
      'SELECT request_hash, status_code, response_body FROM idempotency_record WHERE key = $1 AND operator_id = $2',
      [key, operatorId],
    );
    const row = rows[0];
    if (!row) return this.claim(operatorId, key, requestHash); // released between our two statements
    return row.status_code === RUNNING
      ? { kind: 'in_progress', requestHash: row.request_hash }
      : { kind: 'done', requestHash: row.request_hash, statusCode: row.status_code, body: row.response_body };
  }

  async complete(operatorId: string, key: string, statusCode: number, body: unknown): Promise<void> {
    await this.pool.query(
      'UPDATE idempotency_record SET status_code = $3, response_body = $4 WHERE key = $1 AND operator_id = $2',
      [key, operatorId, statusCode, JSON.stringify(body ?? null)],
    );
  }

  /** A request that failed leaves nothing behind, so its retry runs for real. */
  async release(operatorId: string, key: string): Promise<void> {
    await this.pool.query(
      `DELETE FROM idempotency_record WHERE key = $1 AND operator_id = $2 AND status_code = ${RUNNING}`,
      [key, operatorId],
    );
  }
}
