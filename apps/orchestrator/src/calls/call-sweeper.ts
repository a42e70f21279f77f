import type { Logger } from '@fleet/telemetry';
import type { DeviceRegistry } from '../devices/device-registry';
import type { PresenceHandler } from '../devices/presence-handler';
import type { OrchestratorMetrics } from '../orchestrator-metrics';
import type { CallRepository } from './call-repository';
import type { CallRunner } from './call-runner';

const DISCOVERY_RETRY_MS = 30_000;

/**
 * Deadlines and expiries are rows, not timers in memory (DESIGN §1): this sweep reads the owned partitions for
 * calls whose due time has come (a deadline, an approval decided or expired, a cancellation to seal, a lost
 * wake-up) and retries discovery of online devices that are not ready yet. It sleeps until the earliest due time
 * the rows hold, at least `everyMs` and at most `idleMs` apart; the runner tells it (`dueBy`) of a wait it has just
 * begun that ends sooner. An idle platform is swept every `idleMs` instead of every second.
 */
export class CallSweeper {
  private timer: NodeJS.Timeout | undefined;
  /** When the next sweep is set to run (ms since the epoch). */
  private nextAt = Infinity;
  private running = false;
  private stopped = false;

  constructor(
    private readonly calls: CallRepository,
    private readonly runner: CallRunner,
    private readonly devices: DeviceRegistry,
    private readonly presence: PresenceHandler,
    private readonly ownedPartitions: () => number[],
    private readonly metrics: OrchestratorMetrics,
    private readonly logger: Logger,
    private readonly everyMs: number,
    private readonly idleMs = Math.max(everyMs, 10_000),
  ) {}

  start(): void {
    this.stopped = false;
    this.at(Date.now() + this.everyMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Something owned is due at `at` (a call began to wait): sweep by then, and not sooner than every `everyMs`. */
  dueBy(at: Date): void {
    this.at(Math.max(at.getTime(), Date.now()));
  }

  private at(when: number): void {
    if (this.stopped || when >= this.nextAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.nextAt = when;
    this.timer = setTimeout(() => void this.sweepAndRearm(), Math.max(0, when - Date.now()));
  }

  private async sweepAndRearm(): Promise<void> {
    this.nextAt = Infinity;
    const next = await this.sweep();
    const now = Date.now();
    const due = next?.getTime() ?? Infinity;
    this.at(Math.min(Math.max(due, now + this.everyMs), now + this.idleMs));
  }

  /**
   * One sweep; answers the earliest due time still ahead (undefined: none known). One that cannot look now (it
   * failed, or another is running) answers now: look again soon.
   */
  async sweep(): Promise<Date | undefined> {
    if (this.running) return new Date();
    this.running = true;
    try {
      const partitions = this.ownedPartitions();
      this.metrics.ownedPartitions.set(partitions.length);
      if (partitions.length === 0) return undefined;
      const { due, next } = await this.calls.dueForSweep(partitions);
      for (const call of due) this.runner.schedule(call.id, call.deviceId);
      let online = 0;
      for (const device of this.devices.all()) {
        if (!device.online) continue;
        online++;
        const retryDue = Date.now() - device.discoveryStartedAt > DISCOVERY_RETRY_MS;
        if (!device.ready && !device.lane.busy && retryDue && device.connectionId)
          this.presence.whenBack(device, device.connectionId);
      }
      this.metrics.knownDevices.set({ state: 'online' }, online);
      return next ?? undefined;
    } catch (err) {
      this.logger.warn({ err }, 'sweep failed');
      return new Date();
    } finally {
      this.running = false;
    }
  }
}
