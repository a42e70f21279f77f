import { isNoGroup, voiceStreams, type Redis } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';
import { parseEvent, SESSION_GROUP, type SessionEventHandlers } from './session-events';
import type { SessionDirectory } from './session-directory';

/** A pending `opened` entry idle this long belongs to a worker that stopped heart-beating: it is taken over. */
const ORPHAN_AFTER_MS = 30_000;
const EVERY_MS = 10_000;

/**
 * Keeps this worker's sessions its own and adopts those of dead workers. The owner re-claims its pending
 * entries every few seconds (resetting their idle time); an entry idle for ORPHAN_AFTER_MS is claimed by whoever
 * runs next, and adopted if the session is still open, acknowledged otherwise.
 */
export class SessionReclaimer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly consumer: string,
    private readonly owned: () => string[],
    private readonly directory: SessionDirectory,
    private readonly handlers: Pick<SessionEventHandlers, 'opened'>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.tick().catch((err: unknown) => {
        // The group reader recreates a group a Redis restart lost; nothing of ours to reclaim meanwhile.
        if (!isNoGroup(err)) this.logger.warn({ err }, 'session reclaim failed');
      });
    }, EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  async tick(): Promise<void> {
    const mine = this.owned();
    if (mine.length > 0) {
      await this.redis.xclaim(voiceStreams.sessions, SESSION_GROUP, this.consumer, 0, ...mine, 'JUSTID');
    }
    const [, entries] = (await this.redis.xautoclaim(
      voiceStreams.sessions,
      SESSION_GROUP,
      this.consumer,
      ORPHAN_AFTER_MS,
      '0-0',
      'COUNT',
      20,
    )) as [string, [string, string[]][]];
    for (const [id, fields] of entries) {
      const event = parseEvent(fields);
      if (event?.event === 'opened' && (await this.directory.isOpen(event.sessionId))) {
        this.logger.info({ sessionId: event.sessionId }, 'adopting a voice session of a stopped worker');
        await this.handlers.opened(event, id);
      } else {
        await this.redis.xack(voiceStreams.sessions, SESSION_GROUP, id);
      }
    }
  }
}
