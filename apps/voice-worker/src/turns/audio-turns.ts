import { createHash } from 'node:crypto';
import type { QueueClient } from '@fleet/queues';
import { currentTraceparent, inSpan, type Logger } from '@fleet/telemetry';
import { languageOf } from '../language';
import type { AsrProvider } from '../providers/asr/asr-provider';
import type { Utterance } from '../sessions/session-audio';
import type { VoiceMetrics } from '../voice-worker-metrics';
import type { TurnRepository } from './turn-repository';
import { TurnClock } from './turn-timings';

/**
 * Where an audio turn begins: the owner of the session cut an utterance; the turn row is written at once, the
 * speech recognised, the transcript stored apart (by hash), and the turn queued like a turn from text.
 * Resolves whether a turn was queued (nothing recognised: the session just listens on).
 */
export class AudioTurns {
  constructor(
    private readonly turns: TurnRepository,
    private readonly asr: AsrProvider,
    private readonly queue: QueueClient<'voice-turns'>,
    private readonly metrics: VoiceMetrics,
    private readonly logger: Logger,
    private readonly workerId: string,
    private readonly statedLanguage?: string,
  ) {}

  /** A voice turn's trace begins here, at the utterance; the job carries it on to the turn itself (DESIGN §2). */
  start(session: { sessionId: string; mac: string }, utterance: Utterance): Promise<boolean> {
    return inSpan(
      'voice utterance',
      { attributes: { 'device.id': session.mac, 'voice.session_id': session.sessionId } },
      () => this.recognise(session, utterance),
    );
  }

  private async recognise(
    session: { sessionId: string; mac: string },
    utterance: Utterance,
  ): Promise<boolean> {
    const clock = TurnClock.start('speech_end', new Date());
    clock.mark('speechEndMs', utterance.hangoverMs);
    clock.json.speechMs = utterance.speechMs;
    const turnId = await this.turns.createAudioTurn({
      deviceId: session.mac,
      sessionId: session.sessionId,
      timings: { ...clock.json },
      workerId: this.workerId,
    });
    const fail = async (error: string) => {
      await this.turns.end(turnId, { state: 'failed', toolCalls: [], timings: { ...clock.json }, error });
      this.metrics.turns.inc({ outcome: 'failed', source: 'audio', mode: 'none' });
    };
    try {
      const started = performance.now();
      const { text } = await inSpan('voice asr', {}, () =>
        this.asr.transcribe(utterance.pcm, utterance.sampleRate),
      );
      clock.mark('asrMs', Math.round(performance.now() - started));
      clock.mark('asrFinalMs');
      if (!text) {
        await fail('no speech was recognised');
        return false;
      }
      await this.turns.setTranscript(turnId, {
        text,
        hash: createHash('sha256').update(text).digest('hex'),
        language: languageOf(text, this.statedLanguage),
        timings: { ...clock.json },
      });
      const traceparent = currentTraceparent();
      await this.queue.add('voice.turn', { turnId, ...(traceparent ? { traceparent } : {}) });
      return true;
    } catch (err) {
      this.logger.warn({ err, turnId }, 'audio turn failed before the LLM');
      await fail(`speech recognition failed: ${(err as Error).message}`);
      return false;
    }
  }
}
