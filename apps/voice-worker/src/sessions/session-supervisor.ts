import { voiceStreams, type Redis, type UplinkFrame, type VoiceSessionEvent } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';
import type { VadSettings } from '../audio/vad';
import type { VoiceMetrics } from '../voice-worker-metrics';
import type { Aborts } from './aborts';
import type { ListenSignal } from './listen-events';
import { SessionAudio, type Utterance } from './session-audio';
import type { SessionDirectory } from './session-directory';
import type { SessionEventHandlers } from './session-events';
import { SESSION_GROUP } from './session-events';
import type { UplinkReader } from './uplink-reader';

type Opened = Extract<VoiceSessionEvent, { event: 'opened' }>;

/** Resolves whether a turn came of it; if not, the session listens on at once. */
export type UtteranceSink = (
  session: { sessionId: string; mac: string },
  utterance: Utterance,
) => Promise<boolean>;

const REMEMBER_MS = 60_000; // listen signals and closes that arrive before (or instead of) the opened event

/**
 * The sessions this worker owns: it listens to their uplink, feeds each its listen signals, and hands every
 * utterance on. Signals for sessions it does not own yet are kept briefly, since MQTT and the session stream race.
 */
export class SessionSupervisor implements SessionEventHandlers {
  private readonly owned = new Map<string, { audio: SessionAudio; entryId: string; lastFrameAt: number }>();
  private readonly early = new Map<string, { signal: ListenSignal; at: number }>();
  private readonly closedRecently = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(
    private readonly deps: {
      redis: Redis;
      reader: UplinkReader;
      directory: SessionDirectory;
      aborts: Aborts;
      vad: Omit<VadSettings, 'sampleRate'>;
      metrics: VoiceMetrics;
      logger: Logger;
      onUtterance: UtteranceSink;
    },
  ) {}

  start(): void {
    this.stopped = false;
    this.sweepWhileNeeded();
  }

  /**
   * A sweep every 100 ms (a speaker's silence ends an utterance), but only while there are sessions or signals
   * to look after: an idle worker is not woken ten times a second for nothing.
   */
  private sweepWhileNeeded(): void {
    if (this.stopped || this.timer) return;
    if (this.owned.size + this.early.size + this.closedRecently.size === 0) return;
    this.timer = setInterval(() => {
      this.sweep();
      if (this.owned.size + this.early.size + this.closedRecently.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, 100);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const [sessionId, s] of this.owned) {
      s.audio.dispose();
      this.deps.reader.unwatch(sessionId);
    }
    this.owned.clear();
  }

  ownedEntries(): string[] {
    return [...this.owned.values()].map((s) => s.entryId);
  }

  async opened(event: Opened, entryId: string): Promise<void> {
    if (this.closedRecently.has(event.sessionId) || this.owned.has(event.sessionId)) {
      await this.deps.redis.xack(voiceStreams.sessions, SESSION_GROUP, entryId);
      return;
    }
    await this.deps.directory.remember(event);
    const audio = new SessionAudio(event.sessionId, event.mac, event.uplink, this.deps.vad, (utterance) =>
      this.utterance(audio, utterance),
    );
    this.owned.set(event.sessionId, { audio, entryId, lastFrameAt: Date.now() });
    this.sweepWhileNeeded();
    const early = this.early.get(event.sessionId);
    if (early) audio.signal(early.signal);
    this.deps.reader.watch(event.sessionId, Date.parse(event.at));
    this.deps.metrics.sessions.set(this.owned.size);
    this.deps.logger.info({ sessionId: event.sessionId, mac: event.mac }, 'listening to a voice session');
  }

  async closed(event: Extract<VoiceSessionEvent, { event: 'closed' }>): Promise<void> {
    this.closedRecently.set(event.sessionId, Date.now());
    this.sweepWhileNeeded();
    this.deps.aborts.abort(event.sessionId, 'the session closed');
    await this.deps.directory.forget(event.sessionId);
    const session = this.owned.get(event.sessionId);
    if (!session) return;
    this.owned.delete(event.sessionId);
    session.audio.dispose();
    this.deps.reader.unwatch(event.sessionId);
    this.deps.metrics.sessions.set(this.owned.size);
    await this.deps.redis.xack(voiceStreams.sessions, SESSION_GROUP, session.entryId);
  }

  frame(sessionId: string, frame: UplinkFrame): void {
    const session = this.owned.get(sessionId);
    if (!session) return;
    session.lastFrameAt = Date.now();
    session.audio.frame(frame);
  }

  signal(_mac: string, signal: ListenSignal): void {
    if (signal.type === 'abort') this.deps.aborts.abort(signal.session_id, 'the device aborted');
    const session = this.owned.get(signal.session_id);
    if (session) session.audio.signal(signal);
    else {
      this.early.set(signal.session_id, { signal, at: Date.now() });
      this.sweepWhileNeeded();
    }
  }

  private utterance(audio: SessionAudio, utterance: Utterance): void {
    this.deps.metrics.utterances.inc({ end: utterance.end });
    this.deps
      .onUtterance({ sessionId: audio.sessionId, mac: audio.mac }, utterance)
      .then((turn) => {
        if (!turn) audio.resume();
      })
      .catch((err: unknown) => {
        this.deps.logger.error({ err, sessionId: audio.sessionId }, 'utterance lost');
        audio.resume();
      });
  }

  /** Wall clock: a device that stops sending mid-speech has ended its utterance too. */
  private sweep(): void {
    const now = Date.now();
    for (const s of this.owned.values()) {
      if (s.audio.inSpeech && now - s.lastFrameAt > this.deps.vad.silenceMs) s.audio.idle();
    }
    for (const [id, early] of this.early) if (now - early.at > REMEMBER_MS) this.early.delete(id);
    for (const [id, at] of this.closedRecently) if (now - at > REMEMBER_MS) this.closedRecently.delete(id);
  }
}
