import { Queue } from 'bullmq';
import { partitionOf } from '@fleet/domain';
import { callWakeStream, createRedis, physicalQueueName, readCallWake } from '@fleet/queues';
import type { Harness } from './harness';

/**
 * What waits for a worker: the jobs of a BullMQ queue, or for `calls` the wake-ups on the device's partition
 * stream (what the orchestrator would hear), each as its name and data.
 */
export async function waitingJobs(
  h: Harness,
  queue: 'calls' | 'voice-turns' | 'webhooks',
  deviceId?: string,
): Promise<{ name: string; data: Record<string, unknown> }[]> {
  const connection = createRedis(h.redis.url);
  try {
    if (queue === 'calls') {
      const entries = await connection.xrangeBuffer(
        callWakeStream(h.queuePrefix, partitionOf(deviceId!)),
        '-',
        '+',
      );
      return entries.flatMap(([, fields]) => {
        const wake = readCallWake(fields);
        if (!wake) return [];
        const { kind, ...data } = wake;
        return [{ name: kind, data }];
      });
    }
    const q = new Queue(physicalQueueName(queue), { connection, prefix: h.queuePrefix });
    try {
      return (await q.getJobs(['waiting', 'delayed', 'active', 'completed'])).map((j) => ({
        name: j.name,
        data: j.data as Record<string, unknown>,
      }));
    } finally {
      await q.close();
    }
  } finally {
    connection.disconnect();
  }
}
