import { readUplinkFields, voiceStreams, type Redis, type UplinkFrame } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';

/**
 * Reads the up streams of this worker's sessions with one blocking XREAD over all of them (as the broker reads
 * the down streams). Adding or removing a session writes to this worker's wake stream, so the read returns.
 */
export class UplinkReader {
  private readonly cursors = new Map<string, string>();
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly wakeKey: string;

  constructor(
    private readonly blocking: Redis,
    private readonly commands: Redis,
    workerId: string,
    private readonly deliver: (sessionId: string, frame: UplinkFrame) => void,
    private readonly logger: Logger,
  ) {
    this.wakeKey = `voice:worker:${workerId}:wake`;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** From the session's opening: frames the broker queued before this worker started reading are not lost. */
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
      const keys = [this.wakeKey, ...sessions.map((s) => voiceStreams.up(s))];
      const ids = [wakeCursor, ...sessions.map((s) => this.cursors.get(s)!)];
      let result: [Buffer, [Buffer, Buffer[]][]][] | null;
      try {
        result = await this.blocking.xreadBuffer('COUNT', 200, 'BLOCK', 1000, 'STREAMS', ...keys, ...ids);
      } catch (err) {
        if (!this.running) return;
        this.logger.warn({ err }, 'uplink read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      for (const [keyBuffer, entries] of result ?? []) {
        const key = keyBuffer.toString();
        const last = entries.at(-1)?.[0].toString();
        if (key === this.wakeKey) {
          if (last) wakeCursor = last;
          continue;
        }
        const sessionId = key.slice('voice:'.length, -':up'.length);
        if (!this.cursors.has(sessionId)) continue;
        if (last) this.cursors.set(sessionId, last);
        for (const [, fields] of entries) {
          const frame = readUplinkFields(fields);
          if (frame) this.deliver(sessionId, frame);
        }
      }
    }
  }
}
