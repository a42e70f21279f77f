import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface PendingDelivery {
  id: string;
  event: string;
  payload: unknown;
  state: 'pending' | 'delivered' | 'failed';
  webhook: { url: string; secret: string; disabled: boolean };
}

/** The delivery worker's rows: what to send, and how each attempt went. */
@Injectable()
export class DeliveriesRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async find(id: string): Promise<PendingDelivery | null> {
    const row = await this.db
      .selectFrom('webhook_delivery as d')
      .innerJoin('webhook as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.event', 'd.payload', 'd.state', 'w.url', 'w.secret', 'w.disabled'])
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const { url, secret, disabled, ...delivery } = row;
    return { ...delivery, webhook: { url, secret, disabled } };
  }

  async delivered(id: string, attempts: number): Promise<void> {
    await this.db
      .updateTable('webhook_delivery')
      .set({
        state: 'delivered',
        attempts,
        delivered_at: new Date(),
        last_error: null,
        next_attempt_at: null,
      })
      .where('id', '=', id)
      .execute();
  }

  async attemptFailed(
    id: string,
    attempts: number,
    error: string,
    nextAttemptAt: Date | null,
  ): Promise<void> {
    await this.db
      .updateTable('webhook_delivery')
      .set({
        state: nextAttemptAt ? 'pending' : 'failed',
        attempts,
        last_error: error.slice(0, 2000),
        next_attempt_at: nextAttemptAt,
      })
      .where('id', '=', id)
      .execute();
  }
}
