import { Injectable } from '@nestjs/common';
import { CallProgressRepository, type CallProgressRow } from './call-progress.repository';
import { EventWaits } from '../events/event-waits';

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
 * Follows a call until its verdict: woken by the orchestrator's `call` notices, re-reading the row on every wake
 * and every half second, since a notice may be missed. The row is the truth either way.
 */
@Injectable()
export class CallWatcher {
  constructor(
    private readonly waits: EventWaits,
    private readonly calls: CallProgressRepository,
  ) {}

  async watch(callId: string, options: WatchOptions): Promise<WatchEnd> {
    const deadline = Date.now() + options.timeoutMs;
    let row: CallProgressRow | undefined;
    for (;;) {
      const fresh = await this.calls.progress(callId);
      if (fresh && fresh.state !== row?.state) await options.onState(fresh);
      row = fresh ?? row;
      if (row?.verdict) return { kind: 'sealed', row };
      if (options.signal.aborted || this.waits.stopped.aborted) return { kind: 'aborted', row };
      if (Date.now() >= deadline) return { kind: 'timeout', row };
      await this.waits.nap(
        { type: 'call', id: callId },
        Math.min(POLL_MS, deadline - Date.now()),
        options.signal,
      );
    }
  }
}
