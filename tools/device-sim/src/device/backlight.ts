import type { Clock } from '../clock/clock';

/**
 * The firmware's Backlight: SetBrightness moves the real level 1 % per 5 ms timer tick toward the target, and
 * `brightness()` reads the level reached so far (xiaozhi §3.4 #3). Computed from the clock instead of ticking a
 * timer, so 10,000 idle screens cost nothing.
 */
export class Backlight {
  private from = 0;
  private target = 0;
  private startedAt = 0;

  constructor(
    private readonly clock: Clock,
    private readonly stepMs: number,
  ) {}

  /** The level the screen shows now. */
  current(): number {
    if (this.stepMs <= 0) return this.target;
    const steps = Math.floor((this.clock.now() - this.startedAt) / this.stepMs);
    const distance = Math.abs(this.target - this.from);
    return this.from + Math.sign(this.target - this.from) * Math.min(steps, distance);
  }

  get targetLevel(): number {
    return this.target;
  }

  /**
   * Backlight::SetBrightness: above 100 is 100; a level equal to the one shown right now returns at once, without
   * saving it and without changing the target (so a ramp under way carries on). Returns whether to persist.
   */
  set(level: number, permanent: boolean): boolean {
    const wanted = Math.min(level, 100);
    const now = this.current();
    if (now === wanted) return false;
    this.from = now;
    this.target = wanted;
    this.startedAt = this.clock.now();
    return permanent;
  }

  /** Backlight::RestoreBrightness at boot: the saved level (0 or less becomes 10), ramping up from 0. */
  restore(saved: number): void {
    this.set(saved <= 0 ? 10 : saved, false);
  }
}
