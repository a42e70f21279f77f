import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { EventRelay } from './event-relay';

/** What a wait is for: a call or a campaign, by id. */
export type Watched = { type: 'call'; id: string } | { type: 'campaign'; id: string };

/**
 * Naps that end at the next `fleet:events` notice about one call or campaign (one subscription per process, the
 * event relay's), after a time, on an abort, or when the process stops. Notices are best effort: whoever naps
 * re-reads the row after, and naps again.
 */
@Injectable()
export class EventWaits implements OnModuleDestroy {
  private readonly wakers = new Map<string, Set<() => void>>();
  private listening?: Promise<() => void>;
  private readonly stopping = new AbortController();

  constructor(private readonly relay: EventRelay) {}

  /** Aborted when the process stops (or the event stream ends): a wait should end then too. */
  get stopped(): AbortSignal {
    return this.stopping.signal;
  }

  async nap(what: Watched, ms: number, signal: AbortSignal): Promise<void> {
    await this.listen();
    const key = `${what.type}:${what.id}`;
    return new Promise<void>((resolve) => {
      const wakers = this.wakers.get(key) ?? new Set<() => void>();
      this.wakers.set(key, wakers);
      const wake = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        this.stopping.signal.removeEventListener('abort', wake);
        wakers.delete(wake);
        if (wakers.size === 0) this.wakers.delete(key);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      wakers.add(wake);
      signal.addEventListener('abort', wake, { once: true });
      this.stopping.signal.addEventListener('abort', wake, { once: true });
    });
  }

  onModuleDestroy(): void {
    this.stopping.abort();
  }

  private listen(): Promise<() => void> {
    this.listening ??= this.relay.add({
      onEvent: (event) => {
        const key =
          event.type === 'call'
            ? `call:${event.callId}`
            : event.type === 'campaign'
              ? `campaign:${event.campaignId}`
              : undefined;
        if (key) this.wakers.get(key)?.forEach((wake) => wake());
      },
      onClose: () => this.stopping.abort(),
    });
    return this.listening;
  }
}
