/** Thrown out of anything awaiting on a device that lost power; the main task and the boot sequence stop there. */
export class PoweredOff extends Error {
  constructor() {
    super('the device lost power');
  }
}

export type MainTaskJob = () => void | Promise<void>;

/**
 * The firmware's main task: `Application::Schedule` appends to one list that one task runs in order. Tool
 * callbacks, what they schedule, the replies they produce and the app's reactions to server messages all wait
 * here, so a job that blocks (the reboot's 1 s, a failed download) holds back everything behind it (xiaozhi §3.3).
 */
export class MainTask {
  private readonly jobs: MainTaskJob[] = [];
  private running = false;
  private halted = false;

  constructor(private readonly onError: (err: unknown) => void) {}

  get pending(): number {
    return this.jobs.length;
  }

  schedule(job: MainTaskJob): void {
    if (this.halted) return;
    this.jobs.push(job);
    if (!this.running) void this.run();
  }

  /** esp_restart(): whatever was still queued is lost. */
  halt(): void {
    this.halted = true;
    this.jobs.length = 0;
  }

  private async run(): Promise<void> {
    this.running = true;
    for (let job = this.jobs.shift(); job !== undefined && !this.halted; job = this.jobs.shift()) {
      try {
        await job();
      } catch (err) {
        if (!(err instanceof PoweredOff)) this.onError(err);
      }
    }
    this.running = false;
  }
}
