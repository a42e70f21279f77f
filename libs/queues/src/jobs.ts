import { z } from 'zod';

// Every job the platform queues: its queue and the schema its data must satisfy. Producers and workers
// both validate against these, so a job is checked exactly as a request body is. (A call's wake-up is not a job:
// call-wakes.ts says why.)

const traceparent = z
  .string()
  .regex(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
  .optional();

export const JOBS = {
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

export function physicalQueueName(queue: QueueName): string {
  return queue;
}
