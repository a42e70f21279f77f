import { randomBytes } from 'node:crypto';
import type { Aedes } from 'aedes';
import {
  buildSessionNonce,
  deviceP2pTopic,
  encodeServerMessage,
  parseDeviceMessage,
  serverMessage,
  type Mac,
} from '@fleet/protocol';
import {
  uplinkFields,
  voiceStreams,
  clearVoiceSessionActive,
  markVoiceSessionActive,
  type AudioFormat,
  type DownlinkEntry,
  type Redis,
  type VoiceSessionEvent,
} from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';
import type { BrokerMetrics } from '../broker-metrics';
import type { ClientIdentity } from '../mqtt/client-identity';
import type { DeviceVoiceHooks } from '../mqtt/device-edge';
import { DownlinkPacer } from './downlink-pacer';
import type { DownlinkReader } from './downlink-reader';
import { SessionRegistry } from './session-registry';
import type { UdpEndpoint, UplinkAudio } from './udp-endpoint';
import { FIRST_DOWNLINK_SEQUENCE, type VoiceSession } from './voice-session';

type DeviceIdentity = Extract<ClientIdentity, { kind: 'device' }>;

export interface VoiceChannelSettings {
  brokerId: string;
  publicUdpHost: string;
  publicUdpPort: number;
  downlink: AudioFormat;
  /** xiaozhi §1.4: the device treats its channel as closed after 120 s without traffic. */
  idleMs: number;
}

/** What a stream may hold at most: far more than a reply, little enough that a stuck reader cannot fill Redis. */
const STREAM_MAXLEN = '3000';
/** Streams outlive their session a little, so a voice worker can read the last frames. */
const STREAM_TTL_S = 300;

/**
 * The broker's half of a voice session (xiaozhi §1.4–1.6, DESIGN §2): answers a device hello with its own UDP
 * address and a fresh key, moves decrypted Opus to the voice worker and paced Opus back, and ends the session
 * on either side's goodbye, a disconnect or silence.
 */
export class VoiceChannel implements DeviceVoiceHooks {
  readonly sessions = new SessionRegistry();
  private readonly pacers = new Map<string, DownlinkPacer>();
  private sweeper: NodeJS.Timeout | undefined;
  private udp!: UdpEndpoint;
  private reader!: DownlinkReader;

  constructor(
    private readonly aedes: Aedes,
    private readonly redis: Redis,
    private readonly settings: VoiceChannelSettings,
    private readonly metrics: BrokerMetrics,
    private readonly logger: Logger,
  ) {}

  /** The UDP socket and the downlink reader both call back into this channel, so they are wired after it. */
  connect(udp: UdpEndpoint, reader: DownlinkReader): void {
    this.udp = udp;
    this.reader = reader;
  }

  start(): void {
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(10_000, this.settings.idleMs / 2));
    this.sweeper.unref();
  }

  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const session of this.sessions.all()) await this.close(session, 'broker_shutdown');
  }

  deviceMessage(identity: DeviceIdentity, type: string, raw: Buffer): void {
    if (type !== 'hello' && type !== 'goodbye') {
      // listen and abort only keep the session alive; the voice worker reads them from the fleet topic.
      const open = this.sessions.ofConnection(identity.connectionId);
      if (open) open.lastActivityAt = Date.now();
      return;
    }
    const parsed = parseDeviceMessage(raw);
    if (!parsed.ok) {
      this.metrics.malformedInput.inc({ kind: `voice_${parsed.error.kind}` });
      return;
    }
    const message = parsed.value.message;
    if (message.type === 'hello' && type === 'hello') {
      // xiaozhi §1.3: the gateway drops a hello with a version other than 3 or a transport other than UDP.
      if (message.version !== 3 || message.transport !== 'udp') {
        this.metrics.malformedInput.inc({ kind: 'voice_unsupported_hello' });
        return;
      }
      void this.open(identity, message.audio_params).catch((err: unknown) =>
        this.logger.error({ err, mac: identity.mac }, 'cannot open a voice session'),
      );
    } else if (message.type === 'goodbye') {
      const session = this.sessions.ofConnection(identity.connectionId);
      // The device's goodbye names its session; an old or foreign id closes nothing.
      if (session && session.sessionId === message.session_id) void this.close(session, 'device_goodbye');
    }
  }

  deviceGone(identity: DeviceIdentity): void {
    const session = this.sessions.ofConnection(identity.connectionId);
    if (session) void this.close(session, 'disconnected');
  }

  /** Called by the UDP endpoint for each accepted packet. */
  uplink(audio: UplinkAudio): void {
    this.redis
      .xadd(
        voiceStreams.up(audio.session.sessionId),
        'MAXLEN',
        '~',
        STREAM_MAXLEN,
        '*',
        ...uplinkFields(audio),
      )
      .catch((err: unknown) => this.logger.warn({ err }, 'cannot queue uplink audio'));
  }

  /** Called by the downlink reader for each entry the voice worker wrote. */
  downlink(sessionId: string, entry: DownlinkEntry): void {
    this.pacers.get(sessionId)?.push(entry);
  }

  private async open(
    identity: DeviceIdentity,
    params: { sample_rate?: number; channels?: number; frame_duration?: number } | undefined,
  ): Promise<void> {
    const previous = this.sessions.ofConnection(identity.connectionId);
    if (previous) await this.close(previous, 'replaced_by_hello');
    const now = Date.now();
    const session: VoiceSession = {
      sessionId: randomBytes(8).toString('hex'),
      mac: identity.mac,
      connectionId: identity.connectionId,
      ssrc: identity.ssrc,
      key: randomBytes(16),
      nonce: Buffer.from(buildSessionNonce(identity.ssrc)),
      uplink: {
        sampleRate: params?.sample_rate ?? 16000,
        channels: params?.channels ?? 1,
        frameDurationMs: params?.frame_duration ?? 60,
      },
      downlink: this.settings.downlink,
      lastUplinkSequence: 0,
      nextDownlinkSequence: FIRST_DOWNLINK_SEQUENCE,
      downlinkTimestamp: 0,
      lastActivityAt: now,
    };
    this.sessions.add(session);
    this.pacers.set(
      session.sessionId,
      new DownlinkPacer(
        session.downlink.frameDurationMs,
        (opus) => void this.udp.send(session, opus),
        () => void this.close(session, 'server_goodbye', true),
      ),
    );
    this.reader.watch(session.sessionId, now);
    this.metrics.voiceSessions.set(this.sessions.size);
    await this.markActive(session);
    await this.announce({
      event: 'opened',
      sessionId: session.sessionId,
      mac: session.mac,
      connectionId: session.connectionId,
      brokerId: this.settings.brokerId,
      uplink: session.uplink,
      downlink: session.downlink,
      at: new Date(now).toISOString(),
    });
    this.send(
      session.mac,
      encodeServerMessage(
        serverMessage.hello({
          sessionId: session.sessionId,
          udpServer: this.settings.publicUdpHost,
          udpPort: this.settings.publicUdpPort,
          key: session.key,
          nonce: session.nonce,
          audioParams: {
            format: 'opus',
            sample_rate: session.downlink.sampleRate,
            channels: session.downlink.channels,
            frame_duration: session.downlink.frameDurationMs,
          },
        }),
      ),
    );
  }

  private async close(session: VoiceSession, reason: string, sendGoodbye = false): Promise<void> {
    if (this.sessions.get(session.sessionId) !== session) return;
    this.sessions.remove(session);
    this.pacers.get(session.sessionId)?.stop();
    this.pacers.delete(session.sessionId);
    this.reader.unwatch(session.sessionId);
    this.metrics.voiceSessions.set(this.sessions.size);
    // xiaozhi §1.5: honoured only with the exact session id, which only the broker holds.
    if (sendGoodbye) this.send(session.mac, encodeServerMessage(serverMessage.goodbye(session.sessionId)));
    await this.clearActive(session);
    await this.announce({
      event: 'closed',
      sessionId: session.sessionId,
      mac: session.mac,
      reason,
      at: new Date().toISOString(),
    });
    await Promise.all(
      [voiceStreams.up(session.sessionId), voiceStreams.down(session.sessionId)].map((key) =>
        this.redis.expire(key, STREAM_TTL_S).catch(() => undefined),
      ),
    );
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.settings.idleMs;
    for (const session of this.sessions.all()) {
      if (session.lastActivityAt < cutoff) void this.close(session, 'idle');
    }
  }

  /** `voice:active` tells campaigns (and voice workers) which devices are in a conversation now. */
  private async markActive(session: VoiceSession): Promise<void> {
    await markVoiceSessionActive(this.redis, session.mac, session.sessionId).catch((err: unknown) =>
      this.logger.warn({ err, sessionId: session.sessionId }, 'cannot mark the voice session active'),
    );
  }

  private async clearActive(session: VoiceSession): Promise<void> {
    await clearVoiceSessionActive(this.redis, session.mac, session.sessionId).catch((err: unknown) =>
      this.logger.warn({ err, sessionId: session.sessionId }, 'cannot clear the active voice session'),
    );
  }

  private async announce(event: VoiceSessionEvent): Promise<void> {
    try {
      await this.redis.xadd(
        voiceStreams.sessions,
        'MAXLEN',
        '~',
        '10000',
        '*',
        'event',
        JSON.stringify(event),
      );
    } catch (err) {
      this.logger.warn({ err, sessionId: event.sessionId }, 'cannot announce a voice session event');
    }
  }

  private send(mac: Mac, text: string): void {
    this.aedes.publish(
      {
        cmd: 'publish',
        topic: deviceP2pTopic(mac),
        payload: Buffer.from(text),
        qos: 0,
        retain: false,
        dup: false,
      },
      (err) => {
        if (err) this.logger.warn({ err, mac }, 'cannot send to the device');
      },
    );
  }
}
