import type { Pool } from '@fleet/db';
import type { WebhookEvent } from '@fleet/domain';
import { QueueClient, type Redis } from '@fleet/queues';

/**
 * Records one delivery per webhook that listens for the event, then queues each for the delivery worker (which
 * signs, sends and retries with backoff). The rows make a delivery survive a restart.
 */
export class WebhookNotifier {
  private readonly queue: QueueClient<'webhooks'>;

  constructor(
    private readonly pool: Pool,
    redis: Redis,
    prefix: string,
  ) {
    this.queue = new QueueClient('webhooks', redis, prefix);
  }

  async notify(event: WebhookEvent, payload: Record<string, unknown>): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>(
      `INSERT INTO webhook_delivery (id, webhook_id, event, payload)
       SELECT gen_random_uuid(), w.id, $1, $2 FROM webhook w WHERE NOT w.disabled AND $1 = ANY (w.events)
       RETURNING id`,
      [event, JSON.stringify({ event, at: new Date().toISOString(), ...payload })],
    );
    for (const row of rows) await this.queue.add('webhook.deliver', { deliveryId: row.id });
    return rows.length;
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
