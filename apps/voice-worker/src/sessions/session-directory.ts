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

/**
 * Which sessions are open and with what downlink format, for any worker that must answer a device: the session's
 * `opened` event by session id, and `voice:active` (device → session), which the broker keeps as it opens and
 * closes sessions.
 */
export class SessionDirectory {
  constructor(private readonly redis: Redis) {}

  async remember(opened: Opened): Promise<void> {
    await this.redis.set(infoKey(opened.sessionId), JSON.stringify(opened), 'EX', INFO_TTL_S);
  }

  async forget(sessionId: string): Promise<void> {
    await this.redis.del(infoKey(sessionId));
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
