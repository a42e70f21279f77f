import type { Clock } from '../clock/clock';
import { defaultClock } from '../clock/clock';
import { resolveDeviceConfig, type DeviceConfigOptions, type DeviceOptions } from '../device/device-options';
import { NO_FAULTS, type FaultKnobs } from '../device/faults';
import { efuseFor } from '../device/efuse';
import { macFor } from '../device/identity';
import type { NvsState } from '../device/nvs';
import { SimDevice } from '../device/sim-device';
import type { SimLogger } from '../util/logger';
import { summarise, type FleetSummary } from './fleet-summary';

export interface FleetOptions extends DeviceConfigOptions {
  readonly count: number;
  /** The first 1 to 5 octets of every MAC; the device index fills the rest (default 02:5a:00). */
  readonly macPrefix?: string;
  readonly firstIndex?: number;
  /** Spread the power-ons: at most this many per second (default: all at once). */
  readonly bootsPerSecond?: number;
  /** Fleet-wide fault knobs (devices may add their own on top). */
  readonly faults?: Partial<FaultKnobs>;
  /** Per-device options (firmware, initial state, faults) by index. */
  readonly perDevice?: (index: number) => Partial<Omit<DeviceOptions, keyof DeviceConfigOptions>>;
  /** Give every device an eFuse serial and HMAC key derived from its MAC and this seed (`efuseFor`). */
  readonly efuseSeed?: string;
  /** Saved NVS by MAC (a state file). */
  readonly nvs?: Readonly<Record<string, NvsState>>;
  readonly recordLimit?: number;
  readonly clock?: Clock;
  readonly logger?: SimLogger;
}

export const DEFAULT_MAC_PREFIX = '02:5a:00';

/**
 * Many simulated devices sharing one configuration, one board profile (tool catalog and MCP cores), one clock and
 * one set of fleet-wide fault knobs. Power-ons are spread so that OTA check-ins do not stampede.
 */
export class Fleet {
  readonly devices: readonly SimDevice[];
  private readonly fleetFaults: { current: FaultKnobs };
  private readonly clock: Clock;
  private cancelRamp: (() => void)[] = [];

  constructor(private readonly options: FleetOptions) {
    this.clock = options.clock ?? defaultClock();
    this.fleetFaults = { current: { ...NO_FAULTS, ...options.faults } };
    const shared = { config: resolveDeviceConfig(options), fleetFaults: this.fleetFaults };
    const prefix = options.macPrefix ?? DEFAULT_MAC_PREFIX;
    this.devices = Array.from({ length: options.count }, (_, i) => {
      const index = (options.firstIndex ?? 0) + i;
      const mac = macFor(prefix, index);
      const saved = options.nvs?.[mac];
      return new SimDevice(
        {
          otaUrl: options.otaUrl,
          mac,
          recordLimit: options.recordLimit ?? 0,
          clock: this.clock,
          ...(options.logger ? { logger: options.logger } : {}),
          ...(saved ? { nvs: saved } : {}),
          ...(options.efuseSeed !== undefined ? { efuse: efuseFor(mac, options.efuseSeed) } : {}),
          ...options.perDevice?.(index),
        },
        shared,
      );
    });
  }

  /** Powers every device on, `bootsPerSecond` at a time; resolves when the last one was switched on. */
  start(): Promise<void> {
    const rate = this.options.bootsPerSecond ?? Infinity;
    if (!Number.isFinite(rate)) {
      for (const d of this.devices) d.start();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const last = this.devices.length - 1;
      if (last < 0) return resolve();
      this.devices.forEach((device, i) => {
        const cancel = this.clock.after((i * 1000) / rate, () => {
          device.start();
          if (i === last) resolve();
        });
        this.cancelRamp.push(cancel);
      });
    });
  }

  async stop(): Promise<void> {
    for (const cancel of this.cancelRamp) cancel();
    this.cancelRamp = [];
    await Promise.all(this.devices.map((d) => d.stop()));
  }

  /** Changes the fleet-wide knobs; each device's own settings still win. */
  setFaults(knobs: Partial<FaultKnobs>): void {
    this.fleetFaults.current = { ...this.fleetFaults.current, ...knobs };
    for (const d of this.devices) d.setFaults({});
  }

  get faults(): FaultKnobs {
    return this.fleetFaults.current;
  }

  byMac(mac: string): SimDevice | undefined {
    return this.devices.find((d) => d.mac === mac.toLowerCase());
  }

  summary(): FleetSummary {
    return summarise(this.devices);
  }

  /** NVS of every device by MAC (for a state file). */
  exportNvs(): Record<string, NvsState> {
    return Object.fromEntries(this.devices.map((d) => [d.mac, d.nvsSnapshot()]));
  }

  /** Resolves when `predicate(summary)` holds, checking every `intervalMs`. */
  async waitFor(
    predicate: (s: FleetSummary) => boolean,
    timeoutMs = 60_000,
    intervalMs = 50,
  ): Promise<FleetSummary> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = this.summary();
      if (predicate(s)) return s;
      if (Date.now() > deadline)
        throw new Error(`fleet condition not met within ${timeoutMs} ms: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}

export function createFleet(options: FleetOptions): Fleet {
  return new Fleet(options);
}

export function createDevice(options: DeviceOptions): SimDevice {
  return new SimDevice(options);
}
