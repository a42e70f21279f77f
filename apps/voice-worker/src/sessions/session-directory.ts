import {
  voiceSessionEventSchema,
  voiceStreams,
  type AudioFormat,
  type Redis,
  type VoiceSessionEvent,
} from '@fleet/queues';

type Opened = Extract<VoiceSessionEvent, { event: 'opened' }>;

export interface OpenSession {
  sessionId: string;
  mac: string;
  downlink: AudioFormat;
}

const infoKey = (sessionId: string) => `voice:session:${sessionId}`;
/** A session the broker never closed (it crashed) lapses like the device's own 120 s, and a bit more. */
const INFO_TTL_S = 6 * 3600;

// Deletes the hash entry only if it still names this session (a newer session of the device keeps its entry).
const DELETE_IF_SAME = `if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0`;

/**
 * Which sessions are open and with what downlink format, for any worker that must answer a device: the session's
 * `opened` event by session id, and `voice:active` (device → session). The broker is to maintain `voice:active`;
 * until it does, the worker owning a session writes the same entries (idempotent with the broker's).
 */
export class SessionDirectory {
  constructor(private readonly redis: Redis) {}

  async remember(opened: Opened): Promise<void> {
    await this.redis
      .multi()
      .set(infoKey(opened.sessionId), JSON.stringify(opened), 'EX', INFO_TTL_S)
      .hset(voiceStreams.active, opened.mac, opened.sessionId)
      .exec();
  }

  async forget(sessionId: string, mac: string): Promise<void> {
    await this.redis.del(infoKey(sessionId));
    await this.redis.eval(DELETE_IF_SAME, 1, voiceStreams.active, mac, sessionId);
  }

  async isOpen(sessionId: string): Promise<boolean> {
    return (await this.redis.exists(infoKey(sessionId))) === 1;
  }

  async session(sessionId: string): Promise<OpenSession | undefined> {
    const text = await this.redis.get(infoKey(sessionId));
    if (!text) return undefined;
    const parsed = voiceSessionEventSchema.safeParse(JSON.parse(text));
    if (!parsed.success || parsed.data.event !== 'opened') return undefined;
    return { sessionId, mac: parsed.data.mac, downlink: parsed.data.downlink };
  }

  /** The device's open session, if any: a turn from text is spoken only then. */
  async openSessionOf(mac: string): Promise<OpenSession | undefined> {
    const sessionId = await this.redis.hget(voiceStreams.active, mac);
    return sessionId ? this.session(sessionId) : undefined;
  }
}
