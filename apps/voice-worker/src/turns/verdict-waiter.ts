import { subscribePlatformEvents } from '@fleet/platform-client';
import type { Redis } from '@fleet/queues';
import type { SealedCall, VerdictRepository } from './verdict.repository';

export type { SealedCall } from './verdict.repository';

const POLL_MS = 250; // fallback only: pub/sub notices are best effort

/**
 * Waits for a call's verdict: woken by the orchestrator's `call` notice on `fleet:events`, and polling the row as
 * a fallback, since a notice may be missed. The row is the truth either way.
 */
export class VerdictWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(
    private readonly calls: VerdictRepository,
    private readonly subscriber: Redis,
  ) {}

  start(): Promise<void> {
    return subscribePlatformEvents(this.subscriber, (event) => {
      if (event.type === 'call' && event.verdict) this.waiting.get(event.callId)?.forEach((wake) => wake());
    });
  }

  async wait(callId: string, timeoutMs: number, signal?: AbortSignal): Promise<SealedCall | undefined> {
    const deadline = Date.now() + timeoutMs;
    let wake = () => undefined as void;
    const wakers = this.waiting.get(callId) ?? new Set();
    this.waiting.set(callId, wakers);
    try {
      for (;;) {
        const sealed = await this.calls.sealed(callId);
        if (sealed || Date.now() >= deadline || signal?.aborted) return sealed;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          wakers.add(wake);
        });
        wakers.delete(wake);
      }
    } finally {
      wakers.delete(wake);
      if (wakers.size === 0) this.waiting.delete(callId);
    }
  }
}
