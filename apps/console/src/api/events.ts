import { EVENT_TYPES, platformEventSchema, type PlatformEvent } from '@fleet/api-contract';
import { API_BASE } from './http';
import { readEvent } from './read-event';

export type { EventOf, EventType, PlatformEvent } from '@fleet/api-contract';
type Handler = (event: PlatformEvent) => void;

/**
 * One EventSource on GET /events for the whole console, opened while anything listens (the browser sends
 * the session cookie; EventSource cannot send headers). It reconnects by itself (the API sends `retry`).
 * Notices are best effort: views re-read the rows they announce rather than trusting the notice alone.
 */
class EventStream {
  private source: EventSource | undefined;
  private readonly handlers = new Set<Handler>();
  private readonly connectionListeners = new Set<(open: boolean) => void>();
  open = false;
  /** Notices dropped because they did not parse with their contract schema (shown in the console's log). */
  dropped = 0;

  subscribe(handler: Handler): () => void {
    this.handlers.add(handler);
    this.ensureOpen();
    return () => {
      this.handlers.delete(handler);
      if (this.handlers.size === 0) this.close();
    };
  }

  onConnection(listener: (open: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  close(): void {
    this.source?.close();
    this.source = undefined;
    this.setOpen(false);
  }

  private ensureOpen(): void {
    if (this.source) return;
    const source = new EventSource(`${API_BASE}/events`, { withCredentials: true });
    source.onopen = () => this.setOpen(true);
    source.onerror = () => this.setOpen(false);
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (message: MessageEvent<string>) => {
        const read = readEvent(platformEventSchema, type, message.data);
        if (!read.ok) {
          this.dropped++;
          console.warn(`dropped a "${type}" event (${this.dropped} so far): ${read.problem}`);
          return;
        }
        for (const handler of this.handlers) handler(read.event);
      });
    }
    this.source = source;
  }

  private setOpen(open: boolean): void {
    if (this.open === open) return;
    this.open = open;
    for (const listener of this.connectionListeners) listener(open);
  }
}

export const eventStream = new EventStream();
