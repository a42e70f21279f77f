import { createDatabase, type Pool } from '@fleet/db';
import type { WebhookEvent } from '@fleet/domain';
import { QueueClient, type Redis } from '@fleet/queues';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/**
 * Records one delivery per webhook that listens for the event, then queues each for the delivery worker (which
 * signs, sends and retries with backoff). The rows make a delivery survive a restart.
 */
export class WebhookNotifier {
  private readonly queue: QueueClient<'webhooks'>;
  private readonly deliveries: WebhookDeliveriesRepository;

  constructor(pool: Pool, redis: Redis, prefix: string) {
    this.queue = new QueueClient('webhooks', redis, prefix);
    this.deliveries = new WebhookDeliveriesRepository(createDatabase(pool));
  }

  async notify(event: WebhookEvent, payload: Record<string, unknown>): Promise<number> {
    const ids = await this.deliveries.record(event, { event, at: new Date().toISOString(), ...payload });
    for (const deliveryId of ids) await this.queue.add('webhook.deliver', { deliveryId });
    return ids.length;
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
