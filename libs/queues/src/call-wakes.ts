import { z } from 'zod';
import { DependencyUnavailableError, isRedisUnreachable, withinDeadline } from './dependency-unavailable';
import type { Redis } from './redis';

// DESIGN §3: a call's row is the call (idempotency and the "sending" row live in Postgres); what reaches the owner
// of its partition is only a wake-up, which may come twice or be lost: the owner's sweep runs a queued call whose
// wake-up never came, and a new owner reads every unfinished call of the partition when it takes it over. So a
// wake-up needs no job life cycle: it is one entry on its partition's Redis stream, written with one XADD and read
// by the owner's one blocking XREAD over all its partitions. As a BullMQ job it cost the owner four round trips
// (two fetches, a blocking pop, a completion: scripts of 17 and 26 keys) for a message it only needed to hear
// (docs/BENCHMARKS.md §11).

const traceparent = z
  .string()
  .regex(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
  .optional();

/** What a wake-up asks of the partition's owner. */
export const callWakeSchema = z.discriminatedUnion('kind', [
  /** Run the call as far as it can go now (new, approved, cancelled). */
  z.object({ kind: z.literal('call'), callId: z.uuid(), deviceId: z.string().min(1), traceparent }),
  /** Discover the device's catalog again now (on demand). */
  z.object({ kind: z.literal('discover'), deviceId: z.string().min(1) }),
]);
export type CallWake = z.infer<typeof callWakeSchema>;

/** Entries kept per partition: far more than one owner reads between two of its reads. */
const STREAM_LENGTH = 10_000;

/** The stream of a partition's wake-ups (under the platform's queue prefix, as its BullMQ queues are). */
export function callWakeStream(prefix: string, partition: number): string {
  return `${prefix}:call-wakes:p${String(partition).padStart(2, '0')}`;
}

/** An entry's fields as written: the wake-up's JSON under `w`. Undefined for an entry the contract refuses. */
export function readCallWake(fields: Buffer[]): CallWake | undefined {
  const at = fields.findIndex((f, i) => i % 2 === 0 && f.toString() === 'w');
  if (at < 0) return undefined;
  try {
    const parsed = callWakeSchema.safeParse(JSON.parse(fields[at + 1]!.toString()));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A wake-up and the partition whose owner must hear it. */
export interface PartitionWake {
  partition: number;
  wake: CallWake;
}

/**
 * Writes wake-ups, each validated first and each to its partition's stream, all in one round trip (a pipeline):
 * a producer's wake-ups of one turn, whatever partitions they go to. Fails with DependencyUnavailableError while
 * Redis cannot be reached (within `timeoutMs`, when given).
 */
export async function publishCallWakes(
  redis: Redis,
  prefix: string,
  wakes: readonly PartitionWake[],
  timeoutMs?: number,
): Promise<void> {
  const entries = wakes.map(({ partition, wake }) => ({
    stream: callWakeStream(prefix, partition),
    entry: JSON.stringify(callWakeSchema.parse(wake)),
  }));
  const partitions = [...new Set(wakes.map((w) => w.partition))];
  const what = `waking partition${partitions.length === 1 ? '' : 's'} ${partitions.join(', ')}`;
  // A fail-fast connection (createRequestRedis) that is not connected now would only wait.
  if (redis.options.enableOfflineQueue === false && redis.status !== 'ready') {
    throw new DependencyUnavailableError('redis', `${what}: redis is ${redis.status}`);
  }
  const pipeline = redis.pipeline();
  for (const { stream, entry } of entries)
    pipeline.xadd(stream, 'MAXLEN', '~', STREAM_LENGTH, '*', 'w', entry);
  try {
    const results = await withinDeadline(pipeline.exec(), timeoutMs, 'redis', what);
    const failed = results?.find(([err]) => err)?.[0];
    if (failed) throw failed;
  } catch (err) {
    if (isRedisUnreachable(err) && !(err instanceof DependencyUnavailableError)) {
      throw new DependencyUnavailableError('redis', `${what}: ${(err as Error).message}`);
    }
    throw err;
  }
}
