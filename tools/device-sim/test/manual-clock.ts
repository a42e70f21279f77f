import type { Cancel, Clock } from '../src';

/** A clock that moves only when the test says so (for pure timing logic; device tests use real time). */
export class ManualClock implements Clock {
  private time = 1_000_000;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): Cancel {
    const timer = { at: this.time + ms, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.time = due.at;
      due.live = false;
      due.fn();
    }
    this.time = until;
    this.timers = this.timers.filter((t) => t.live);
  }
}
