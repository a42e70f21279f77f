import { callWakeStream, readCallWake, SessionStreamReader, type CallWake, type Redis } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';

/** How far back a new owner reads its partition's stream: the takeover's own scan covers anything older. */
const REREAD_MS = 5_000;

/**
 * The wake-ups of this replica's partitions (@fleet/queues call-wakes): one blocking read over all their streams,
 * each entry handed to `deliver` with its partition. A partition is read from a little before it was taken over
 * (a wake-up heard twice is harmless: every step starts from the call's row).
 */
export class PartitionWakes {
  private readonly reader: SessionStreamReader<CallWake>;

  constructor(o: {
    /** A connection of its own: a blocked read holds it. */
    blocking: Redis;
    commands: Redis;
    prefix: string;
    replicaId: string;
    deliver: (partition: number, wake: CallWake) => void;
    logger: Logger;
  }) {
    this.reader = new SessionStreamReader({
      blocking: o.blocking,
      commands: o.commands,
      wakeKey: `${o.prefix}:call-wakes:reader:${o.replicaId}`,
      streamOf: (partition) => callWakeStream(o.prefix, Number(partition)),
      read: readCallWake,
      deliver: (partition, wake) => o.deliver(Number(partition), wake),
      count: 1_000,
      // Idle, the read is renewed this often; a watch, an unwatch or stop ends it at once.
      blockMs: 10_000,
      what: 'call wake-up',
      logger: o.logger,
    });
  }

  start(): void {
    this.reader.start();
  }

  watch(partition: number): void {
    this.reader.watch(String(partition), Date.now() - REREAD_MS);
  }

  unwatch(partition: number): void {
    this.reader.unwatch(String(partition));
  }

  stop(): Promise<void> {
    return this.reader.stop();
  }
}
