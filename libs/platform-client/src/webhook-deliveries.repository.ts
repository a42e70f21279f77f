import { sql, type Database } from '@fleet/db';
import type { WebhookEvent } from '@fleet/domain';

/** `webhook_delivery` rows: one per enabled webhook that listens for an event. */
export class WebhookDeliveriesRepository {
  constructor(private readonly db: Database) {}

  /** One statement for every listening webhook; returns the new deliveries' ids. */
  async record(event: WebhookEvent, body: Record<string, unknown>): Promise<string[]> {
    const rows = await this.db
      .insertInto('webhook_delivery')
      .columns(['id', 'webhook_id', 'event', 'payload'])
      .expression((eb) =>
        eb
          .selectFrom('webhook as w')
          .select([
            sql<string>`gen_random_uuid()`.as('id'),
            'w.id as webhook_id',
            eb.val(event).as('event'),
            eb.val(JSON.stringify(body)).as('payload'),
          ])
          .where('w.disabled', '=', false)
          .where(sql<boolean>`${event} = ANY (w.events)`),
      )
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }
}
