export { createRedis, createRequestRedis, redisHealthCheck, Redis } from './redis';
export { DependencyUnavailableError, isRedisUnreachable, withinDeadline } from './dependency-unavailable';
export { watchRedis } from './redis-watch';
export {
  JOBS,
  QUEUE_NAMES,
  physicalQueueName,
  type JobData,
  type JobName,
  type JobsOf,
  type QueueName,
} from './jobs';
export { JOB_DEFAULTS } from './job-defaults';
export { QueueClient, type QueueClientOptions } from './queue-client';
export { closeQueueWorker, createQueueWorker, HandlerRegistryError, type JobHandlers } from './queue-worker';
export * from './voice-streams';
export {
  callWakeSchema,
  callWakeStream,
  publishCallWakes,
  readCallWake,
  type CallWake,
  type PartitionWake,
} from './call-wakes';
export * from './control-channel';
export { SessionStreamReader, type SessionStreamReaderOptions } from './session-stream-reader';
export { ReaderHealth } from './reader-health';
export { ensureConsumerGroup, isNoGroup } from './consumer-group';
