import type { DefaultJobOptions } from 'bullmq';
import type { QueueName } from './jobs';

// Job options in one place. Completed jobs are dropped quickly: the durable record of a call, turn or
// delivery is its Postgres row, never the BullMQ job (its id vanishes after completion).
export const JOB_DEFAULTS: Record<QueueName, DefaultJobOptions> = {
  'voice-turns': {
    attempts: 1, // a voice turn is answered now or not at all; a late retry would talk over the user
    removeOnComplete: { age: 3600, count: 1_000 },
    removeOnFail: { age: 24 * 3600 },
  },
  webhooks: {
    attempts: 10,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: { age: 3600, count: 1_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  },
};
