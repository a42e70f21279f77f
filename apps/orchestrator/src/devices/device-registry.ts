import { partitionOf } from '@fleet/domain';
import { DeviceRuntime } from './device-runtime';

/** The runtimes of the devices in the partitions this replica owns. */
export class DeviceRegistry {
  private readonly devices = new Map<string, DeviceRuntime>();

  constructor(private readonly owns: (partition: number) => boolean) {}

  /** The runtime of an owned device, created on first use; undefined for another replica's device. */
  get(mac: string): DeviceRuntime | undefined {
    const existing = this.devices.get(mac);
    if (existing) return existing;
    const partition = partitionOf(mac);
    if (!this.owns(partition)) return undefined;
    const runtime = new DeviceRuntime(mac, partition);
    this.devices.set(mac, runtime);
    return runtime;
  }

  inPartition(partition: number): DeviceRuntime[] {
    return [...this.devices.values()].filter((d) => d.partition === partition);
  }

  dropPartition(partition: number): void {
    for (const [mac, runtime] of this.devices) if (runtime.partition === partition) this.devices.delete(mac);
  }

  all(): DeviceRuntime[] {
    return [...this.devices.values()];
  }
}
