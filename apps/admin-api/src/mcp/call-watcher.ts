import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { EventRelay } from '../events/event-relay';
import { CallProgressRepository, type CallProgressRow } from './call-progress.repository';

export interface WatchOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Each state the call is seen in, once, in order. */
  onState(row: CallProgressRow): void | Promise<void>;
}

export type WatchEnd =
  | { kind: 'sealed'; row: CallProgressRow }
  | { kind: 'timeout' | 'aborted'; row: CallProgressRow | undefined };

const POLL_MS = 500; // fallback only: `fleet:events` notices are best effort

/**
 * Follows a call until its verdict: woken by the orchestrator's `call` notices on `fleet:events` (one
 * subscription per process, the event relay's), re-reading the row on every wake and every half second, since
 * a notice may be missed. The row is the truth either way.
 */
@Injectable()
export class CallWatcher implements OnModuleDestroy {
  private readonly wakers = new Map<string, Set<() => void>>();
  private listening?: Promise<() => void>;
  private readonly stopping = new AbortController();

  constructor(
    private readonly relay: EventRelay,
    private readonly calls: CallProgressRepository,
  ) {}

  async watch(callId: string, options: WatchOptions): Promise<WatchEnd> {
    await this.listen();
    const deadline = Date.now() + options.timeoutMs;
    let row: CallProgressRow | undefined;
    for (;;) {
      const fresh = await this.calls.progress(callId);
      if (fresh && fresh.state !== row?.state) await options.onState(fresh);
      row = fresh ?? row;
      if (row?.verdict) return { kind: 'sealed', row };
      if (options.signal.aborted || this.stopping.signal.aborted) return { kind: 'aborted', row };
      if (Date.now() >= deadline) return { kind: 'timeout', row };
      await this.nap(callId, Math.min(POLL_MS, deadline - Date.now()), options.signal);
    }
  }

  onModuleDestroy(): void {
    this.stopping.abort();
  }

  private listen(): Promise<() => void> {
    this.listening ??= this.relay.add({
      onEvent: (event) => {
        if (event.type === 'call') this.wakers.get(event.callId)?.forEach((wake) => wake());
      },
      onClose: () => this.stopping.abort(),
    });
    return this.listening;
  }

  /** Sleeps until the call's next notice, the poll interval, an abort, or the process stopping. */
  private nap(callId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const wakers = this.wakers.get(callId) ?? new Set<() => void>();
      this.wakers.set(callId, wakers);
      const wake = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        this.stopping.signal.removeEventListener('abort', wake);
        wakers.delete(wake);
        if (wakers.size === 0) this.wakers.delete(callId);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      wakers.add(wake);
      signal.addEventListener('abort', wake, { once: true });
      this.stopping.signal.addEventListener('abort', wake, { once: true });
    });
  }
}
