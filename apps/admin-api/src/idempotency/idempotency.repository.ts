import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, jsonParam, sql, type Database, type Pool } from '@fleet/db';
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
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async claim(operatorId: string, key: string, requestHash: string): Promise<Claim> {
    const inserted = await this.db
      .insertInto('idempotency_record')
      .values({
        key,
        operator_id: operatorId,
        request_hash: requestHash,
        status_code: RUNNING,
        response_body: '{}',
      })
      .onConflict((c) => c.doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 1n) return { kind: 'claimed' };
    const takenOver = await this.db
      .updateTable('idempotency_record')
      .set({ created_at: sql<Date>`now()` })
      .where('key', '=', key)
      .where('operator_id', '=', operatorId)
      .where('request_hash', '=', requestHash)
      .where('status_code', '=', RUNNING)
      .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${STALE_AFTER_S})`)
      .executeTakeFirst();
    if (takenOver.numUpdatedRows === 1n) return { kind: 'claimed' };
    const row = await this.db
      .selectFrom('idempotency_record')
      .select(['request_hash', 'status_code', 'response_body'])
      .where('key', '=', key)
      .where('operator_id', '=', operatorId)
      .executeTakeFirst();
    if (!row) return this.claim(operatorId, key, requestHash); // released between our two statements
    return row.status_code === RUNNING
      ? { kind: 'in_progress', requestHash: row.request_hash }
      : { kind: 'done', requestHash: row.request_hash, statusCode: row.status_code, body: row.response_body };
  }

  async complete(operatorId: string, key: string, statusCode: number, body: unknown): Promise<void> {
    await this.db
      .updateTable('idempotency_record')
      .set({ status_code: statusCode, response_body: jsonParam(body ?? null) })
      .where('key', '=', key)
      .where('operator_id', '=', operatorId)
      .execute();
  }

  /** A request that failed leaves nothing behind, so its retry runs for real. */
  async release(operatorId: string, key: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_record')
      .where('key', '=', key)
      .where('operator_id', '=', operatorId)
      .where('status_code', '=', RUNNING)
      .execute();
  }
}
