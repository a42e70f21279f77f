import type { Logger } from '@fleet/telemetry';
import type { ReaderHealth } from './reader-health';
import type { Redis } from './redis';

/** An idle reader renews its blocked read this often; nothing it hears waits for that (see `blockMs`). */
const IDLE_BLOCK_MS = 10_000;

export interface SessionStreamReaderOptions<T> {
  /** Reads (blocks on) the streams: a connection of its own, since a blocked XREAD holds it. */
  blocking: Redis;
  /** Writes the wake entries. */
  commands: Redis;
  /** A stream of this process's own: an entry there ends the blocked read so it picks up the new session list. */
  wakeKey: string;
  /** The stream a session's entries are on. */
  streamOf: (sessionId: string) => string;
  /** An entry's fields as the contract reads them; undefined skips an entry the contract refuses. */
  read: (fields: Buffer[]) => T | undefined;
  deliver: (sessionId: string, entry: T) => void;
  /** Entries per stream per read. */
  count: number;
  /**
   * How long one read blocks when nothing comes. A new entry, a watch, an unwatch or stop ends it at once (the wake
   * stream), so this only says how often an idle reader asks again. Default 10 s.
   */
  blockMs?: number;
  /** Names the direction in the log ("uplink", "downlink"). */
  what: string;
  logger: Logger;
  /** Told of every failed and successful read, so `/healthz` can report a reader that keeps failing. */
  health?: ReaderHealth;
}

/**
 * Reads the streams of the sessions this process serves with one blocking XREAD over all of them (the broker its
 * down streams, a voice worker its up streams). Adding or removing a session writes to the process's wake stream,
 * so the blocked read returns at once and the next one covers the new list.
 */
export class SessionStreamReader<T> {
  private readonly cursors = new Map<string, string>();
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(private readonly o: SessionStreamReaderOptions<T>) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Reads from the session's opening: what the other side wrote before the first read is not lost. */
  watch(sessionId: string, sinceMs: number): void {
    this.cursors.set(sessionId, `${sinceMs}-0`);
    this.wake();
  }

  unwatch(sessionId: string): void {
    this.cursors.delete(sessionId);
    this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private wake(): void {
    this.o.commands.xadd(this.o.wakeKey, 'MAXLEN', '~', '10', '*', 'w', '1').catch(() => undefined);
  }

  private async run(): Promise<void> {
    // From the start of the wake stream (a few entries at most), not '$': a watch written between two reads would
    // be missed by a read that starts after it with '$', and its session heard only when that read times out.
    let wakeCursor = '0-0';
    while (this.running) {
      const sessionOf = new Map([...this.cursors.keys()].map((s) => [this.o.streamOf(s), s]));
      const keys = [this.o.wakeKey, ...sessionOf.keys()];
      const ids = [wakeCursor, ...[...sessionOf.values()].map((s) => this.cursors.get(s)!)];
      let result: [Buffer, [Buffer, Buffer[]][]][] | null;
      try {
        result = await this.o.blocking.xreadBuffer(
          'COUNT',
          this.o.count,
          'BLOCK',
          this.o.blockMs ?? IDLE_BLOCK_MS,
          'STREAMS',
          ...keys,
          ...ids,
        );
      } catch (err) {
        if (!this.running) return;
        this.o.health?.failed(`${this.o.what} reader`, err);
        this.o.logger.warn({ err }, `${this.o.what} read failed; retrying`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      this.o.health?.succeeded(`${this.o.what} reader`);
      for (const [keyBuffer, entries] of result ?? []) {
        const key = keyBuffer.toString();
        const last = entries.at(-1)?.[0].toString();
        if (key === this.o.wakeKey) {
          if (last) wakeCursor = last;
          continue;
        }
        const sessionId = sessionOf.get(key);
        if (sessionId === undefined || !this.cursors.has(sessionId)) continue; // unwatched while reading
        if (last) this.cursors.set(sessionId, last);
        for (const [, fields] of entries) {
          const entry = this.o.read(fields);
          if (entry) this.o.deliver(sessionId, entry);
        }
      }
    }
  }
}
