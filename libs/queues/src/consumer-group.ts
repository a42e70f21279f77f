import type { Redis } from './redis';

/**
 * Creates a consumer group if it is missing (and its stream with it). BUSYGROUP means it exists: fine. `from`
 * is where a new group starts: '$' for a first start (history is not ours), '0' when recreating one that
 * vanished (a Redis restart without persistence): whatever was written since the restart is still to be read.
 */
export async function ensureConsumerGroup(
  redis: Redis,
  stream: string,
  group: string,
  from: '$' | '0' = '$',
): Promise<'created' | 'existed'> {
  try {
    await redis.xgroup('CREATE', stream, group, from, 'MKSTREAM');
    return 'created';
  } catch (err) {
    if ((err as Error).message.includes('BUSYGROUP')) return 'existed';
    throw err;
  }
}

/** Redis answers NOGROUP when the stream or its group is gone (deleted, or Redis restarted empty). */
export function isNoGroup(err: unknown): boolean {
  return typeof (err as Error)?.message === 'string' && (err as Error).message.startsWith('NOGROUP');
}
