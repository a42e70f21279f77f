import { PLATFORM_EVENTS_CHANNEL, platformEventSchema, type PlatformEvent } from '@fleet/domain';
import type { Redis } from '@fleet/queues';

/** Publishes change notices for live views; best effort, the database is the record. */
export class PlatformEventBus {
  constructor(private readonly redis: Redis) {}

  publish(event: PlatformEvent): void {
    this.redis.publish(PLATFORM_EVENTS_CHANNEL, JSON.stringify(event)).catch(() => undefined);
  }
}

/** Subscribes (on a connection of its own: a subscribed Redis connection can do nothing else). */
export function subscribePlatformEvents(
  subscriber: Redis,
  onEvent: (event: PlatformEvent) => void,
): Promise<void> {
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== PLATFORM_EVENTS_CHANNEL) return;
    try {
      const parsed = platformEventSchema.safeParse(JSON.parse(message));
      if (parsed.success) onEvent(parsed.data);
    } catch {
      // a malformed notice is dropped: readers re-read the rows anyway
    }
  });
  return subscriber.subscribe(PLATFORM_EVENTS_CHANNEL).then(() => undefined);
}
