import { PLATFORM_EVENTS_CHANNEL, platformEventSchema, type PlatformEvent } from '@fleet/domain';
import type { Redis } from '@fleet/queues';

/**
 * Publishes change notices for live views; best effort, the database is the record. The notices of one turn of the
 * event loop go to Redis in one write (a pipeline of PUBLISHes, in order): a call's `sending` and `sent`, a wave
 * of seals. Each write wakes Redis and, on a small machine, takes the core from whoever was running.
 */
export class PlatformEventBus {
  private pending: string[] = [];

  constructor(private readonly redis: Redis) {}

  publish(event: PlatformEvent): void {
    this.pending.push(JSON.stringify(event));
    if (this.pending.length === 1) setImmediate(() => this.flush());
  }

  private flush(): void {
    const messages = this.pending;
    this.pending = [];
    if (messages.length === 1) {
      this.redis.publish(PLATFORM_EVENTS_CHANNEL, messages[0]!).catch(() => undefined);
      return;
    }
    const pipeline = this.redis.pipeline();
    for (const message of messages) pipeline.publish(PLATFORM_EVENTS_CHANNEL, message);
    pipeline.exec().catch(() => undefined);
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
