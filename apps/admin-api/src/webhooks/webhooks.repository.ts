import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface WebhookRecord {
  id: string;
  url: string;
  events: string[];
  disabled: boolean;
  createdBy: string;
  createdAt: Date;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  event: string;
  payload: unknown;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** Never the secret: it is shown once, at creation, by the service. */
const PUBLIC = [
  'id',
  'url',
  'events',
  'disabled',
  'created_by as createdBy',
  'created_at as createdAt',
] as const;

@Injectable()
export class WebhooksRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  list(): Promise<WebhookRecord[]> {
    return this.db.selectFrom('webhook').select(PUBLIC).orderBy('created_at').execute();
  }

  create(w: { url: string; events: string[]; secret: string; createdBy: string }): Promise<WebhookRecord> {
    return this.db
      .insertInto('webhook')
      .values({ id: randomUUID(), url: w.url, events: w.events, secret: w.secret, created_by: w.createdBy })
      .returning(PUBLIC)
      .executeTakeFirstOrThrow();
  }

  async update(
    id: string,
    change: { url?: string; events?: string[]; disabled?: boolean },
  ): Promise<WebhookRecord | null> {
    if (Object.keys(change).length === 0) {
      return (
        (await this.db.selectFrom('webhook').select(PUBLIC).where('id', '=', id).executeTakeFirst()) ?? null
      );
    }
    const updated = await this.db
      .updateTable('webhook')
      .set(change)
      .where('id', '=', id)
      .returning(PUBLIC)
      .executeTakeFirst();
    return updated ?? null;
  }

  /** A webhook goes with its delivery history. */
  delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('webhook_delivery').where('webhook_id', '=', id).execute();
      const { numDeletedRows } = await tx
        .deleteFrom('webhook')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return numDeletedRows === 1n;
    });
  }

  deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
    return this.db
      .selectFrom('webhook_delivery')
      .select([
        'id',
        'webhook_id as webhookId',
        'event',
        'payload',
        'state',
        'attempts',
        'last_error as lastError',
        'next_attempt_at as nextAttemptAt',
        'created_at as createdAt',
        'delivered_at as deliveredAt',
      ])
      .where('webhook_id', '=', webhookId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('webhook').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }
}
