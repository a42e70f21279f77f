import type { CallWake } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';
import type { CallRepository } from '../calls/call-repository';
import type { CallRunner } from '../calls/call-runner';
import type { CatalogRepository } from '../discovery/catalog-repository';
import type { DeviceDirectory } from '../devices/device-directory.repository';
import type { DeviceRegistry } from '../devices/device-registry';
import type { PresenceHandler } from '../devices/presence-handler';
import type { CommitQueue } from '../evidence/commit-queue';
import type { RpcIds } from '../mcp/rpc-ids';
import type { Lease } from './lease-store';
import type { PartitionWakes } from './partition-wakes';
import type { PartitionHooks } from './partition-manager';

export interface TakeoverDeps {
  devices: DeviceRegistry;
  directory: DeviceDirectory;
  catalogs: CatalogRepository;
  calls: CallRepository;
  runner: CallRunner;
  presence: PresenceHandler;
  commits: CommitQueue;
  rpcIds: RpcIds;
  /** This replica's reading of its partitions' wake-ups. */
  wakes: Pick<PartitionWakes, 'watch' | 'unwatch'>;
  logger: Logger;
}

const DRAIN_TIMEOUT_MS = 10_000;

/**
 * What owning a partition means in this replica: its wake-ups heard, its devices' runtimes (presence and catalog
 * read back from Postgres), and every unfinished call resumed from its row. Losing it drops all of that.
 */
export class PartitionTakeover implements PartitionHooks {
  private readonly owned = new Set<number>();

  constructor(private readonly deps: TakeoverDeps) {}

  /** A wake-up of one of this replica's partitions (one it no longer owns is not its business). */
  wake(partition: number, wake: CallWake): void {
    if (!this.owned.has(partition)) return;
    const { devices, runner, presence } = this.deps;
    if (wake.kind === 'call') {
      runner.schedule(wake.callId, wake.deviceId);
      return;
    }
    const device = devices.get(wake.deviceId);
    if (device?.online && device.connectionId) {
      device.discoveredOn = undefined; // forces a new discovery on the same connection
      presence.whenBack(device, device.connectionId);
    }
  }

  async acquired(partition: number, _lease: Lease): Promise<void> {
    const { devices, directory, catalogs, calls, runner, presence, commits } = this.deps;
    commits.forgetPartition(partition);
    for (const row of await directory.inPartition(partition)) {
      const device = devices.get(row.id);
      if (!device) continue;
      device.board = row.board;
      device.firmwareVersion = row.firmwareVersion;
      device.dialect = row.dialect;
      const current = await catalogs.loadCurrent(row.id);
      if (current) device.catalog = current.view;
      if (!row.online || !row.connectionId) continue;
      device.online = true;
      device.connectionId = row.connectionId;
      device.onlineAt = row.onlineAt ?? undefined;
      // Discovered on this connection already (by the previous owner) when it was confirmed after it came online.
      if (current && row.onlineAt && current.confirmedAt >= row.onlineAt)
        device.discoveredOn = row.connectionId;
      else presence.whenBack(device, row.connectionId);
    }
    // Heard from a little before now on; anything older is found by the scan below.
    this.owned.add(partition);
    this.deps.wakes.watch(partition);
    for (const call of await calls.unsealed([partition])) runner.schedule(call.id, call.deviceId);
  }

  async draining(partition: number): Promise<void> {
    this.stopHearing(partition);
    const lanes = this.deps.devices.inPartition(partition).map((d) => d.lane.idle());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS)));
    await Promise.race([Promise.all(lanes), timeout]);
    clearTimeout(timer); // else it holds the process open for the rest of the drain timeout
  }

  lost(partition: number): void {
    this.stopHearing(partition);
    const macs = this.deps.devices.inPartition(partition).map((d) => d.mac);
    this.deps.devices.dropPartition(partition);
    this.deps.commits.forgetPartition(partition);
    this.deps.rpcIds.forget(macs);
  }

  closeAll(): Promise<void> {
    for (const partition of [...this.owned]) this.stopHearing(partition);
    return Promise.resolve();
  }

  private stopHearing(partition: number): void {
    this.owned.delete(partition);
    this.deps.wakes.unwatch(partition);
  }
}
