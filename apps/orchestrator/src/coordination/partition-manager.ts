import type { Logger } from '@fleet/telemetry';
import type { Lease, LeaseStore } from './lease-store';
import { ALL_PARTITIONS, partitionLeaseName } from './partition-names';

export interface PartitionHooks {
  /** This replica now owns the partition: start reading its queue and resume its unfinished calls. */
  acquired(partition: number, lease: Lease): Promise<void>;
  /** Finish what is in flight and stop taking new work; the lease is released after this resolves. */
  draining(partition: number): Promise<void>;
  /** The lease is gone (released, or lost to expiry): drop every in-memory claim on the partition. */
  lost(partition: number): void;
}

const KIND = 'orchestrator';

/**
 * Shares the call partitions out between the live orchestrator replicas: each takes its fair share
 * (ceil(partitions / live replicas)), renews what it holds, hands surplus back when a replica joins, and picks
 * up what an expired replica (SIGKILL) left, after the lease's TTL.
 */
export class PartitionManager {
  private readonly owned = new Map<number, Lease>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;

  private hooks!: PartitionHooks;

  constructor(
    private readonly store: LeaseStore,
    private readonly renewEveryMs: number,
    private readonly logger: Logger,
  ) {}

  /** Starts taking partitions; `hooks` act on what is taken (they need the manager first, to know what is owned). */
  async start(hooks: PartitionHooks): Promise<void> {
    this.hooks = hooks;
    await this.tick();
    this.schedule();
  }

  /** The lease under which writes for this partition are allowed, if this replica owns it. */
  leaseOf(partition: number): Lease | undefined {
    return this.owned.get(partition);
  }

  ownedPartitions(): number[] {
    return [...this.owned.keys()].sort((a, b) => a - b);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    await Promise.all(this.ownedPartitions().map((partition) => this.release(partition)));
    await this.store.leave(KIND).catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => this.schedule());
    }, this.renewEveryMs);
  }

  private async tick(): Promise<void> {
    try {
      const { live, held } = await this.store.beatAndRenew(KIND, [...this.owned.values()]);
      this.forgetLost(held);
      const fair = Math.ceil(ALL_PARTITIONS.length / live);
      if (this.owned.size < fair) await this.acquireUpTo(fair);
      else if (this.owned.size > fair) {
        for (const partition of this.ownedPartitions().slice(fair)) await this.release(partition);
      }
    } catch (err) {
      // Postgres unreachable: leases run out on their own; keep trying.
      this.logger.warn({ err }, 'partition lease round failed');
    }
  }

  /** Every partition whose lease the round could not renew is lost: its in-memory claims go. */
  private forgetLost(still: Set<string>): void {
    for (const [partition, lease] of this.owned) {
      if (!still.has(lease.name)) {
        this.owned.delete(partition);
        this.logger.warn({ partition }, 'partition lease lost');
        this.hooks.lost(partition);
      }
    }
  }

  private async acquireUpTo(fair: number): Promise<void> {
    // Start at a random partition so replicas joining together do not contend for the same ones.
    const offset = Math.floor(Math.random() * ALL_PARTITIONS.length);
    for (let i = 0; i < ALL_PARTITIONS.length && this.owned.size < fair && !this.stopped; i++) {
      const partition = (offset + i) % ALL_PARTITIONS.length;
      if (this.owned.has(partition)) continue;
      const lease = await this.store.acquire(partitionLeaseName(partition));
      if (!lease) continue;
      this.owned.set(partition, lease);
      this.logger.info({ partition, token: lease.token }, 'partition acquired');
      try {
        await this.hooks.acquired(partition, lease);
      } catch (err) {
        this.logger.error({ err, partition }, 'taking over a partition failed; releasing it');
        await this.release(partition);
      }
    }
  }

  private async release(partition: number): Promise<void> {
    const lease = this.owned.get(partition);
    if (!lease) return;
    await this.hooks
      .draining(partition)
      .catch((err: unknown) => this.logger.warn({ err, partition }, 'drain failed'));
    this.owned.delete(partition);
    this.hooks.lost(partition);
    await this.store.release(lease).catch(() => undefined);
    this.logger.info({ partition }, 'partition released');
  }
}
