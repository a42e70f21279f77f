import type { Worker } from 'bullmq';
import { createQueueWorker, type Redis } from '@fleet/queues';
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
  redis: Redis;
  queuePrefix: string;
  concurrency: number;
  logger: Logger;
}

const DRAIN_TIMEOUT_MS = 10_000;

/**
 * What owning a partition means in this replica: its queue's worker, its devices' runtimes (presence and catalog
 * read back from Postgres), and every unfinished call resumed from its row. Losing it drops all of that.
 */
export class PartitionTakeover implements PartitionHooks {
  private readonly workers = new Map<number, Worker>();

  constructor(private readonly deps: TakeoverDeps) {}

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
    const worker = createQueueWorker(
      'calls',
      {
        'call.run': (data) => {
          runner.schedule(data.callId, data.deviceId);
          return Promise.resolve();
        },
        'device.discover': (data) => {
          const device = devices.get(data.deviceId);
          if (device?.online && device.connectionId) {
            device.discoveredOn = undefined; // forces a new discovery on the same connection
            presence.whenBack(device, device.connectionId);
          }
          return Promise.resolve();
        },
      },
      {
        connection: this.deps.redis,
        prefix: this.deps.queuePrefix,
        partition,
        concurrency: this.deps.concurrency,
      },
    );
    // A worker reports Redis trouble as 'error' events; unheard, Node would throw them.
    worker.on('error', (err) =>
      this.deps.logger.warn({ err: err.message, partition }, 'partition queue worker error'),
    );
    this.workers.set(partition, worker);
    await worker.waitUntilReady();
    for (const call of await calls.needingAttention([partition], true))
      runner.schedule(call.id, call.deviceId);
  }

  async draining(partition: number): Promise<void> {
    await this.closeWorker(partition);
    const lanes = this.deps.devices.inPartition(partition).map((d) => d.lane.idle());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS)));
    await Promise.race([Promise.all(lanes), timeout]);
    clearTimeout(timer); // else it holds the process open for the rest of the drain timeout
  }

  lost(partition: number): void {
    void this.closeWorker(partition);
    const macs = this.deps.devices.inPartition(partition).map((d) => d.mac);
    this.deps.devices.dropPartition(partition);
    this.deps.commits.forgetPartition(partition);
    this.deps.rpcIds.forget(macs);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.workers.keys()].map((p) => this.closeWorker(p)));
  }

  private async closeWorker(partition: number): Promise<void> {
    const worker = this.workers.get(partition);
    if (!worker) return;
    this.workers.delete(partition);
    await worker
      .close()
      .catch((err: unknown) =>
        this.deps.logger.warn({ err, partition }, 'closing a partition worker failed'),
      );
  }
}
