import { NO_FAULTS, type FaultKnobs } from '../device/faults';
import { ListenAiDevice, type ListenAiDeviceOptions, type ListenAiFaults } from './listenai-device';

export interface ListenAiFleetOptions extends Omit<
  ListenAiDeviceOptions,
  'mac' | 'token' | 'fleetFaults' | 'faults'
> {
  /** Each device's MAC and the token the platform issued for it. */
  readonly devices: readonly { mac: string; token: string }[];
  /** Spread the first links: at most this many per second (default: all at once). */
  readonly connectsPerSecond?: number;
  readonly faults?: Partial<ListenAiFaults>;
}

export interface ListenAiFleetSummary {
  devices: number;
  linked: number;
  refused: number;
  links: number;
}

/** Many simulated ListenAI devices with one set of fleet-wide fault knobs, their first links spread out. */
export class ListenAiFleet {
  readonly devices: readonly ListenAiDevice[];
  private readonly fleetFaults: { current: FaultKnobs };
  private readonly ramp = new Set<NodeJS.Timeout>();

  constructor(private readonly options: ListenAiFleetOptions) {
    this.fleetFaults = { current: { ...NO_FAULTS, ...options.faults } };
    const { devices, connectsPerSecond: _r, faults: _f, ...shared } = options;
    this.devices = devices.map(
      ({ mac, token }) =>
        new ListenAiDevice({ recordLimit: 0, ...shared, mac, token, fleetFaults: this.fleetFaults }),
    );
  }

  start(): void {
    const rate = this.options.connectsPerSecond;
    this.devices.forEach((device, i) => {
      if (!rate) return device.start();
      const timer = setTimeout(
        () => {
          this.ramp.delete(timer);
          device.start();
        },
        (i / rate) * 1000,
      );
      this.ramp.add(timer);
    });
  }

  setFaults(knobs: Partial<ListenAiFaults>): void {
    this.fleetFaults.current = { ...this.fleetFaults.current, ...knobs };
  }

  summary(): ListenAiFleetSummary {
    return {
      devices: this.devices.length,
      linked: this.devices.filter((d) => d.linked).length,
      refused: this.devices.filter((d) => d.refused).length,
      links: this.devices.reduce((n, d) => n + d.linkCount, 0),
    };
  }

  async stop(): Promise<void> {
    for (const timer of this.ramp) clearTimeout(timer);
    this.ramp.clear();
    await Promise.all(this.devices.map((d) => d.stop()));
  }
}
