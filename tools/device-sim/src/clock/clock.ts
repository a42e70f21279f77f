import { TimerHeap } from './timer-heap';

export type Cancel = () => void;

/**
 * Time as the simulator sees it. Every firmware delay goes through one of these, so a test can run the real
 * firmware sequence with millisecond delays and a demo with the real ones.
 */
export interface Clock {
  now(): number;
  /** Runs `fn` once after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): Cancel;
}

/**
 * The default clock: wall time, and every device's timers in one shared heap behind a single Node timer.
 * Callbacks that throw are reported through `onError` and do not stop the others.
 */
export class SharedClock implements Clock {
  private readonly heap = new TimerHeap();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;

  constructor(private readonly onError: (err: unknown) => void = defaultOnError) {}

  now(): number {
    return Date.now();
  }

  /** How many timers are pending. */
  get pending(): number {
    return this.heap.live;
  }

  after(ms: number, fn: () => void): Cancel {
    const at = this.now() + Math.max(0, ms);
    const cancel = this.heap.push(at, fn);
    if (at < this.armedFor) this.arm();
    return () => {
      cancel();
      // Nothing left to wait for: let the process exit instead of idling on a timer for a cancelled entry.
      if (this.heap.live === 0) this.arm();
    };
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.heap.peek();
    this.armedFor = next ?? Infinity;
    if (next === undefined) return;
    this.timer = setTimeout(() => this.fire(), Math.max(0, next - this.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    for (const fn of this.heap.takeDue(this.now())) {
      try {
        fn();
      } catch (err) {
        this.onError(err);
      }
    }
    this.arm();
  }
}

function defaultOnError(err: unknown): void {
  process.emitWarning(`device-sim timer callback failed: ${(err as Error).stack ?? String(err)}`);
}

let shared: SharedClock | undefined;

/** One clock per process unless a caller injects its own. */
export function defaultClock(): SharedClock {
  shared ??= new SharedClock();
  return shared;
}

/** A promise that resolves after `ms` on `clock` (immediately for 0). */
export function sleep(clock: Clock, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => clock.after(ms, resolve));
}
