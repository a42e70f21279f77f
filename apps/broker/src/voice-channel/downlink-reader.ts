import { readDownlinkFields, voiceStreams, type DownlinkEntry, type Redis } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';

/**
 * Reads the down streams of this replica's sessions with one blocking XREAD over all of them. Adding or
 * removing a session writes to a wake stream of this replica's own, so the blocked read returns at once.
 */
export class DownlinkReader {
  private readonly cursors = new Map<string, string>();
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly wakeKey: string;

  constructor(
    private readonly blocking: Redis,
    private readonly commands: Redis,
    brokerId: string,
    private readonly deliver: (sessionId: string, entry: DownlinkEntry) => void,
    private readonly logger: Logger,
  ) {
    this.wakeKey = `voice:broker:${brokerId}:wake`;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Starts at the session's creation time: what the voice worker wrote before the first read is not lost. */
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
    this.commands.xadd(this.wakeKey, 'MAXLEN', '~', '10', '*', 'w', '1').catch(() => undefined);
  }

  private async run(): Promise<void> {
    let wakeCursor = '$';
    while (this.running) {
      const sessions = [...this.cursors.keys()];
      const keys = [this.wakeKey, ...sessions.map((s) => voiceStreams.down(s))];
      const ids = [wakeCursor, ...sessions.map((s) => this.cursors.get(s)!)];
      let result: [Buffer, [Buffer, Buffer[]][]][] | null;
      try {
        result = await this.blocking.xreadBuffer('COUNT', 100, 'BLOCK', 1000, 'STREAMS', ...keys, ...ids);
      } catch (err) {
        if (!this.running) return;
        this.logger.warn({ err }, 'downlink read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      for (const [keyBuffer, entries] of result ?? []) {
        const key = keyBuffer.toString();
        const last = entries[entries.length - 1]?.[0].toString();
        if (key === this.wakeKey) {
          if (last) wakeCursor = last;
          continue;
        }
        const sessionId = key.slice('voice:'.length, -':down'.length);
        if (!this.cursors.has(sessionId)) continue;
        if (last) this.cursors.set(sessionId, last);
        for (const [, fields] of entries) {
          const entry = readDownlinkFields(fields);
          if (entry) this.deliver(sessionId, entry);
        }
      }
    }
  }
}
