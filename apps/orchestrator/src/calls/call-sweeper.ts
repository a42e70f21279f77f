import type { Logger } from '@fleet/telemetry';
import type { DeviceRegistry } from '../devices/device-registry';
import type { PresenceHandler } from '../devices/presence-handler';
import type { OrchestratorMetrics } from '../orchestrator-metrics';
import type { CallRepository } from './call-repository';
import type { CallRunner } from './call-runner';

const DISCOVERY_RETRY_MS = 30_000;

/**
 * Deadlines and expiries are rows, not timers in memory (DESIGN §1): this sweep reads the owned partitions for
 * calls past a deadline, approvals decided or expired, cancellations to seal and lost wake-ups, and retries
 * discovery of online devices that are not ready yet.
 */
export class CallSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly calls: CallRepository,
    private readonly runner: CallRunner,
    private readonly devices: DeviceRegistry,
    private readonly presence: PresenceHandler,
    private readonly ownedPartitions: () => number[],
    private readonly metrics: OrchestratorMetrics,
    private readonly logger: Logger,
    private readonly everyMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const partitions = this.ownedPartitions();
      if (partitions.length === 0) return;
      for (const call of await this.calls.needingAttention(partitions, false))
        this.runner.schedule(call.id, call.deviceId);
      let online = 0;
      for (const device of this.devices.all()) {
        if (!device.online) continue;
        online++;
        const retryDue = Date.now() - device.discoveryStartedAt > DISCOVERY_RETRY_MS;
        if (!device.ready && !device.lane.busy && retryDue && device.connectionId)
          this.presence.whenBack(device, device.connectionId);
      }
      this.metrics.knownDevices.set({ state: 'online' }, online);
      this.metrics.ownedPartitions.set(partitions.length);
    } catch (err) {
      this.logger.warn({ err }, 'sweep failed');
    } finally {
      this.running = false;
    }
  }
}
