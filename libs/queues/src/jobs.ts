import { z } from 'zod';

// Every job the platform queues: its queue and the schema its data must satisfy. Producers and workers
// both validate against these, so a job is checked exactly as a request body is.

const traceparent = z
  .string()
  .regex(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
  .optional();

export const JOBS = {
  /**
   * Wake the pipeline for one call (new, approved, cancelled). The call row, with its idempotency key, exists
   * before the job; the job is only a wake-up and may be delivered twice. It goes to the queue of the device's
   * partition (`calls-p07`), which only that partition's owner reads.
   */
  'call.run': {
    queue: 'calls',
    data: z.object({ callId: z.uuid(), deviceId: z.string(), traceparent }),
  },
  /** Discover a device's catalog again now (on demand), in its partition like its calls. */
  'device.discover': {
    queue: 'calls',
    data: z.object({ deviceId: z.string() }),
  },
  /** One voice turn, started from text or from a session's audio. */
  'voice.turn': {
    queue: 'voice-turns',
    data: z.object({ turnId: z.uuid(), traceparent }),
  },
  /** Deliver one webhook event (the delivery row holds the payload and the attempts so far). */
  'webhook.deliver': {
    queue: 'webhooks',
    data: z.object({ deliveryId: z.uuid() }),
  },
} as const;

export type JobName = keyof typeof JOBS;
export type JobData<N extends JobName> = z.infer<(typeof JOBS)[N]['data']>;
export type QueueName = (typeof JOBS)[JobName]['queue'];
export type JobsOf<Q extends QueueName> = {
  [N in JobName]: (typeof JOBS)[N]['queue'] extends Q ? N : never;
}[JobName];

export const QUEUE_NAMES: QueueName[] = [...new Set(Object.values(JOBS).map((j) => j.queue))];

/** Queues split by partition: one physical BullMQ queue per partition. */
export const PARTITIONED_QUEUES: ReadonlySet<QueueName> = new Set(['calls']);

export function physicalQueueName(queue: QueueName, partition?: number): string {
  if (!PARTITIONED_QUEUES.has(queue)) return queue;
  if (partition === undefined) throw new Error(`queue ${queue} needs a partition`);
  return `${queue}-p${String(partition).padStart(2, '0')}`;
}
