import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { PlatformEvent } from '@fleet/domain';
import { subscribePlatformEvents } from '@fleet/platform-client';
import { createRedis, type Redis } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { LOGGER } from '../infra/tokens';

export interface EventListener {
  onEvent(event: PlatformEvent): void;
  /** The process is stopping: end the stream so the server can close. */
  onClose(): void;
}

/**
 * One Redis subscription (`fleet:events`) per process, fanned out to every open event stream. Opened on the
 * first listener: a process nobody watches holds no subscription.
 */
@Injectable()
export class EventRelay implements OnModuleDestroy {
  private readonly listeners = new Set<EventListener>();
  private subscribed?: Promise<void>;
  private subscriber?: Redis;

  constructor(
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Resolves once the subscription is live, so a caller may announce readiness truthfully. */
  async add(listener: EventListener): Promise<() => void> {
    this.listeners.add(listener);
    this.subscribed ??= this.subscribe();
    await this.subscribed;
    return () => this.listeners.delete(listener);
  }

  onModuleDestroy(): void {
    for (const listener of this.listeners) listener.onClose();
    this.listeners.clear();
    this.subscriber?.disconnect();
  }

  private subscribe(): Promise<void> {
    const subscriber = createRedis(this.config.REDIS_URL);
    subscriber.on('error', () => undefined); // the main connection reports outages; ioredis resubscribes itself
    this.subscriber = subscriber;
    return subscribePlatformEvents(subscriber, (event) => {
      for (const listener of this.listeners) {
        try {
          listener.onEvent(event);
        } catch (err) {
          this.logger.warn({ err }, 'event stream write failed');
        }
      }
    });
  }
}
