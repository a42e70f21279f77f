import { Queue } from 'bullmq';
import { partitionOf } from '@fleet/domain';
import { createRedis, physicalQueueName } from '@fleet/queues';
import type { Harness } from './harness';

/** The data of jobs waiting in a queue (what the orchestrator or voice worker would pick up). */
export async function waitingJobs(
  h: Harness,
  queue: 'calls' | 'voice-turns' | 'webhooks',
  deviceId?: string,
) {
  const connection = createRedis(h.redis.url);
  const partition = queue === 'calls' ? partitionOf(deviceId!) : undefined;
  const q = new Queue(physicalQueueName(queue, partition), { connection, prefix: h.queuePrefix });
  try {
    return (await q.getJobs(['waiting', 'delayed', 'active', 'completed'])).map((j) => ({
      name: j.name,
      data: j.data as Record<string, unknown>,
    }));
  } finally {
    await q.close();
    connection.disconnect();
  }
}
