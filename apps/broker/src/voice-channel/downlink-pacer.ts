import type { DownlinkEntry } from '@fleet/queues';

/**
 * Sends a session's downlink at the pace of its frames (the device plays what arrives; a burst would overflow
 * its buffer). Timing is anchored at the first frame of a run, so timer jitter does not add up.
 */
export class DownlinkPacer {
  private readonly queue: DownlinkEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private runStartedAt = 0;
  private framesInRun = 0;
  private stopped = false;

  constructor(
    private readonly frameDurationMs: number,
    private readonly sendFrame: (opus: Buffer) => void,
    private readonly onClose: () => void,
  ) {}

  push(entry: DownlinkEntry): void {
    if (this.stopped) return;
    this.queue.push(entry);
    if (!this.timer) this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
  }

  private tick(): void {
    this.timer = undefined;
    while (!this.stopped) {
      const entry = this.queue.shift();
      if (!entry) {
        this.framesInRun = 0; // the next frame starts a new run
        return;
      }
      if (entry.kind === 'close') return this.onClose();
      if (entry.kind === 'end') {
        this.framesInRun = 0;
        continue;
      }
      if (this.framesInRun === 0) this.runStartedAt = Date.now();
      this.sendFrame(entry.opus);
      this.framesInRun++;
      const due = this.runStartedAt + this.framesInRun * this.frameDurationMs;
      this.timer = setTimeout(() => this.tick(), Math.max(0, due - Date.now()));
      return;
    }
  }
}
