import type { ListenSignal } from '../sessions/listen-events';
import type { Heard } from './announcement-delivery.repository';

/**
 * What ends an announcement's playback in one session, from the device's own messages (xiaozhi §2.1): before
 * `tts stop`, an `abort` (a button, the wake word) or the session closing cuts it; after, `listen start` (auto
 * mode re-sends it only once local playback drained), `listen stop` or a goodbye (back to idle) show it played
 * through. Anything else, or nothing within the expected time, is `none`.
 */
export class PlaybackWatch {
  private stoppedAt: number | undefined;
  private outcome: { heard: Heard; at: Date } | undefined;
  private wake: (() => void) | undefined;

  constructor(readonly sessionId: string) {}

  /** `tts stop` left for the device. */
  ttsStopped(): void {
    this.stoppedAt = Date.now();
  }

  signal(signal: ListenSignal): void {
    if (signal.type === 'abort') return this.stoppedAt === undefined ? this.end('abort') : undefined;
    if (this.stoppedAt === undefined) return; // the session's own first `listen start`, before the speech
    if (signal.state === 'start') this.end('listen_start');
    else if (signal.state === 'stop') this.end('idle');
  }

  closed(): void {
    this.end(this.stoppedAt === undefined ? 'closed' : 'idle');
  }

  get aborted(): boolean {
    return this.outcome?.heard === 'abort' || this.outcome?.heard === 'closed';
  }

  /** Resolves with how playback ended, or `none` when nothing settled it within `withinMs` of `tts stop`. */
  result(withinMs: number): Promise<{ heard: Heard; at?: Date }> {
    if (this.outcome) return Promise.resolve(this.outcome);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve(this.outcome ?? { heard: 'none' });
      }, withinMs);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve(this.outcome!);
      };
    });
  }

  private end(heard: Heard): void {
    if (this.outcome) return;
    this.outcome = { heard, at: new Date() };
    this.wake?.();
  }
}
