import { Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOBS, physicalQueueName, type JobData, type JobName, type JobsOf, type QueueName } from './jobs';

export type JobHandlers<Q extends QueueName> = {
  [N in JobsOf<Q>]: (data: JobData<N>, job: Job) => Promise<unknown>;
};

/** Thrown at start-up: a worker without a handler for one of its queue's jobs must not run. */
export class HandlerRegistryError extends Error {}

/**
 * A worker for one queue. It refuses to start unless every job of that queue has exactly one handler, and it
 * validates each job's data with the job's schema before the handler sees it.
 */
export function createQueueWorker<Q extends QueueName>(
  queue: Q,
  handlers: JobHandlers<Q>,
  options: { connection: Redis; prefix: string } & Omit<WorkerOptions, 'connection' | 'prefix'>,
): Worker {
  const workerOptions = options;
  const expected = (Object.keys(JOBS) as JobName[]).filter((name) => JOBS[name].queue === queue).sort();
  const given = Object.keys(handlers).sort();
  if (expected.join() !== given.join()) {
    throw new HandlerRegistryError(
      `queue ${queue}: handlers for [${given.join(', ')}] but its jobs are [${expected.join(', ')}]`,
    );
  }
  const worker = new Worker(
    physicalQueueName(queue),
    async (job) => {
      const name = job.name as JobName;
      const spec = JOBS[name];
      if (!spec || spec.queue !== queue) throw new Error(`unknown job ${job.name} on queue ${queue}`);
      const data = spec.data.parse(job.data);
      const handler = (handlers as Record<string, (data: unknown, job: Job) => Promise<unknown>>)[name]!;
      return handler(data, job);
    },
    workerOptions,
  );
  // Unheard 'error' events would be thrown; the caller may add its own listener to log them.
  worker.on('error', () => undefined);
  return worker;
}

/**
 * Closes a worker made by createQueueWorker on `connection`. Closing while BullMQ still checks its links (the
 * blocking one is its own duplicate) makes that check fail into an 'error' event on a link whose listeners close()
 * already removed, which Node throws: the check is let finish first. While Redis is unreachable the check would
 * wait for it forever, so then the worker is closed at once (its own error listener hears what fails meanwhile).
 */
export async function closeQueueWorker(worker: Worker, connection: Redis): Promise<void> {
  if (connection.status === 'ready') await worker.waitUntilReady().catch(() => undefined);
  await worker.close();
}
