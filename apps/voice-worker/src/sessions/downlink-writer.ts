import { downlinkFields, voiceStreams, type DownlinkEntry, type Redis } from '@fleet/queues';

/** As the broker's own cap: far more than a reply, little enough that a stuck reader cannot fill Redis. */
const STREAM_MAXLEN = '3000';

/** Writes a session's down stream; the broker paces, encrypts and sends it (DESIGN §2). */
export class DownlinkWriter {
  constructor(private readonly redis: Redis) {}

  async write(sessionId: string, entries: readonly DownlinkEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const entry of entries) {
      pipeline.xadd(
        voiceStreams.down(sessionId),
        'MAXLEN',
        '~',
        STREAM_MAXLEN,
        '*',
        ...downlinkFields(entry),
      );
    }
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (failed?.[0]) throw failed[0];
  }

  frames(sessionId: string, opus: readonly Buffer[]): Promise<void> {
    return this.write(
      sessionId,
      opus.map((frame) => ({ kind: 'frame', opus: frame })),
    );
  }

  /** The broker sends the device its goodbye (it holds the session id and key): xiaozhi §1.5. */
  close(sessionId: string): Promise<void> {
    return this.write(sessionId, [{ kind: 'close' }]);
  }
}
