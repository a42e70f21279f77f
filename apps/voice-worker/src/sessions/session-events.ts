import {
  ensureConsumerGroup,
  isNoGroup,
  voiceSessionEventSchema,
  voiceStreams,
  type ReaderHealth,
  type Redis,
  type VoiceSessionEvent,
} from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';

type Opened = Extract<VoiceSessionEvent, { event: 'opened' }>;
type Closed = Extract<VoiceSessionEvent, { event: 'closed' }>;

export const SESSION_GROUP = 'voice-workers';

export interface SessionEventHandlers {
  /** This worker now owns the session (its `opened` entry stays pending in the group until it closes). */
  opened(event: Opened, entryId: string): Promise<void>;
  /** Every worker hears every close: the owner stops, anyone may tidy the directory. */
  closed(event: Closed): Promise<void>;
}

type StreamReply = [string, [string, string[]][]][] | null;

/**
 * `voice:sessions` read two ways. A consumer group shares the `opened` events out, one worker per session, and
 * keeps each one pending while the worker owns it: if the worker dies, another claims the entry (see
 * SessionReclaimer). A plain tail read hears every `closed` event, whichever worker happened to own the session.
 */
export class SessionEventsReader {
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly groupConnection: Redis,
    private readonly tailConnection: Redis,
    private readonly consumer: string,
    private readonly handlers: SessionEventHandlers,
    private readonly logger: Logger,
    private readonly health?: ReaderHealth,
  ) {}

  async start(): Promise<void> {
    await ensureConsumerGroup(this.groupConnection, voiceStreams.sessions, SESSION_GROUP);
    this.running = true;
    this.loops = [this.readGroup(), this.readTail()];
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async readGroup(): Promise<void> {
    await this.loop('session group reader', async () => {
      const reply = (await this.groupConnection.xreadgroup(
        'GROUP',
        SESSION_GROUP,
        this.consumer,
        'COUNT',
        20,
        'BLOCK',
        500,
        'STREAMS',
        voiceStreams.sessions,
        '>',
      )) as StreamReply;
      for (const [id, fields] of reply?.[0]?.[1] ?? []) {
        const event = parseEvent(fields);
        if (event?.event === 'opened') await this.handlers.opened(event, id);
        else await this.groupConnection.xack(voiceStreams.sessions, SESSION_GROUP, id);
      }
    });
  }

  private async readTail(): Promise<void> {
    let cursor = '$';
    await this.loop('session tail reader', async () => {
      const reply: StreamReply = await this.tailConnection.xread(
        'COUNT',
        100,
        'BLOCK',
        500,
        'STREAMS',
        voiceStreams.sessions,
        cursor,
      );
      for (const [id, fields] of reply?.[0]?.[1] ?? []) {
        cursor = id;
        const event = parseEvent(fields);
        if (event?.event === 'closed') await this.handlers.closed(event);
      }
    });
  }

  private async loop(name: string, read: () => Promise<void>): Promise<void> {
    while (this.running) {
      try {
        await read();
        this.health?.succeeded(name);
      } catch (err) {
        if (!this.running) return;
        this.health?.failed(name, err);
        if (isNoGroup(err) && (await this.recreateGroup())) continue;
        this.logger.warn({ err }, 'reading voice:sessions failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /**
   * Redis restarted empty (or someone deleted the stream): the group is gone and every read fails NOGROUP
   * until it exists again. Recreated from the stream's start, so the sessions the broker opened since the
   * restart are shared out as usual. Sessions owned before it stay owned (the worker keeps their state).
   */
  private async recreateGroup(): Promise<boolean> {
    try {
      const result = await ensureConsumerGroup(
        this.groupConnection,
        voiceStreams.sessions,
        SESSION_GROUP,
        '0',
      );
      if (result === 'created') this.logger.warn('voice:sessions consumer group was missing; recreated it');
      return true;
    } catch (err) {
      this.logger.warn({ err }, 'cannot recreate the voice:sessions consumer group');
      return false;
    }
  }
}

export function parseEvent(fields: string[]): VoiceSessionEvent | undefined {
  const index = fields.indexOf('event');
  const text = index >= 0 ? fields[index + 1] : undefined;
  if (text === undefined) return undefined;
  try {
    const parsed = voiceSessionEventSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
