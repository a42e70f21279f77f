import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_DEFAULTS } from './job-defaults';
import { JOBS, physicalQueueName, type JobData, type JobsOf, type QueueName } from './jobs';

/** A typed producer: only the jobs of its queue, with data validated before it reaches Redis. */
export class QueueClient<Q extends QueueName> {
  readonly queue: Queue;

  /** `partition` picks the physical queue of a partitioned queue (see physicalQueueName). */
  constructor(
    readonly name: Q,
    connection: Redis,
    prefix: string,
    partition?: number,
  ) {
    this.queue = new Queue(physicalQueueName(name, partition), {
      connection,
      prefix,
      defaultJobOptions: JOB_DEFAULTS[name],
    });
    // BullMQ re-emits its Redis link's errors here; without a listener Node throws them. Each add() reports its
    // own failure, and the Redis client's outages are logged by whoever owns it (watchRedis).
    this.queue.on('error', () => undefined);
  }

  async add<N extends JobsOf<Q>>(job: N, data: JobData<N>, options?: JobsOptions): Promise<string> {
    const parsed = JOBS[job].data.parse(data);
    const added = await this.queue.add(job, parsed, options);
    return added.id!;
  }

  async close(): Promise<void> {
    // Closing while BullMQ is still checking its Redis link makes that check fail into an 'error' event that
    // no listener hears any more; let it finish first.
    await this.queue.waitUntilReady().catch(() => undefined);
    return this.queue.close();
  }
}
