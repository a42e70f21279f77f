import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { DependencyUnavailableError, isRedisUnreachable, withinDeadline } from './dependency-unavailable';
import { JOB_DEFAULTS } from './job-defaults';
import { JOBS, physicalQueueName, type JobData, type JobsOf, type QueueName } from './jobs';

export interface QueueClientOptions {
  /**
   * How long `add` may take before it fails with DependencyUnavailableError. A connection from
   * createRequestRedis fails at once while Redis is down, but BullMQ first waits for the connection to have
   * been ready once: this bounds that wait too. Unset: wait as long as it takes.
   */
  addTimeoutMs?: number;
}

/**
 * A typed producer: only the jobs of its queue, with data validated before it reaches Redis.
 *
 * The queue runs on a connection of its own, a duplicate of the one it is given (same options, so a fail-fast
 * connection stays fail-fast): BullMQ defines its Lua scripts (about forty) on whatever connection it holds, and
 * ioredis copies every script defined on a connection into each pipeline, MULTI and auto-pipeline it builds there.
 * On the admin API's request connection that made every rate-limit count and every batch of wake-ups pay for
 * BullMQ's scripts.
 */
export class QueueClient<Q extends QueueName> {
  readonly queue: Queue;
  private readonly connection: Redis;

  constructor(
    readonly name: Q,
    connection: Redis,
    prefix: string,
    private readonly options: QueueClientOptions = {},
  ) {
    // Not auto-pipelined even when the original is: each auto-pipeline would copy BullMQ's scripts again.
    this.connection = connection.duplicate({ enableAutoPipelining: false });
    // Its outages are the original's too, and logged by whoever owns that (watchRedis).
    this.connection.on('error', () => undefined);
    this.queue = new Queue(physicalQueueName(name), {
      connection: this.connection,
      prefix,
      defaultJobOptions: JOB_DEFAULTS[name],
    });
    // BullMQ re-emits its Redis link's errors here; without a listener Node throws them. Each add() reports its
    // own failure, and the Redis client's outages are logged by whoever owns it (watchRedis).
    this.queue.on('error', () => undefined);
  }

  async add<N extends JobsOf<Q>>(job: N, data: JobData<N>, options?: JobsOptions): Promise<string> {
    const parsed = JOBS[job].data.parse(data);
    // A fail-fast connection (createRequestRedis) that is not connected now would only make BullMQ wait.
    if (this.connection.options.enableOfflineQueue === false && this.connection.status !== 'ready') {
      throw new DependencyUnavailableError('redis', `queueing ${job}: redis is ${this.connection.status}`);
    }
    try {
      const added = await withinDeadline(
        this.queue.add(job, parsed, options),
        this.options.addTimeoutMs,
        'redis',
        `queueing ${job}`,
      );
      return added.id!;
    } catch (err) {
      if (isRedisUnreachable(err) && !(err instanceof DependencyUnavailableError)) {
        throw new DependencyUnavailableError('redis', `queueing ${job}: ${(err as Error).message}`);
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    // Closing while BullMQ is still checking its Redis link makes that check fail into an 'error' event that
    // no listener hears any more; let it finish first. A link not ready now (Redis unreachable) may never be,
    // and the check would wait for it forever: ending the link makes the check fail at once, while the queue's
    // listener still hears it.
    if (this.connection.status !== 'ready') this.connection.disconnect();
    await this.queue.waitUntilReady().catch(() => undefined);
    await this.queue.close();
    // BullMQ leaves a connection it was handed open; this one is the producer's own.
    this.connection.disconnect();
  }
}
