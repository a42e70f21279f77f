import type { PlatformEvent } from '@fleet/domain';
import { API_BASE } from './http';

export type { PlatformEvent };
export type EventType = PlatformEvent['type'];
export type EventOf<T extends EventType> = Extract<PlatformEvent, { type: T }>;
type Handler = (event: PlatformEvent) => void;

const TYPES: readonly EventType[] = ['presence', 'call', 'approval', 'campaign', 'catalog', 'voice_turn'];

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
    for (const type of TYPES) {
      source.addEventListener(type, (message: MessageEvent<string>) => {
        let event: PlatformEvent;
        try {
          event = JSON.parse(message.data) as PlatformEvent;
        } catch {
          return;
        }
        for (const handler of this.handlers) handler(event);
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
