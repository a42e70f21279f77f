import { serverMessage, type Mac } from '@fleet/protocol';
import { speechFrames, splitSentences } from '../audio/speech-frames';
import type { Language } from '../language';
import type { TtsProvider } from '../providers/tts/tts-provider';
import type { Aborts } from '../sessions/aborts';
import type { DownlinkWriter } from '../sessions/downlink-writer';
import type { OpenSession } from '../sessions/session-directory';
import type { DeviceMessages } from './mqtt-device-messages';
import type { ReplyText } from './reply-wording';
import type { TurnClock } from './turn-timings';

/** Spoken only when the device has an open session; the server cannot open one (xiaozhi §2.2). */
export type ReplyTarget = { mode: 'text'; mac: Mac } | { mode: 'spoken'; mac: Mac; session: OpenSession };

const SHOW_AHEAD_MS = 150; // a sentence's text appears just before its audio
const PLAYBACK_MARGIN_MS = 300; // the broker's pacing and the device's buffer, before `tts stop`

/**
 * Gives the reply to the device. As text: a lone `tts sentence_start`, which the firmware displays without changing
 * state (xiaozhi §2.2). Spoken: `llm` emotion, `tts start` (sent before any frame: the device drops audio unless
 * speaking), per sentence its `sentence_start` and Opus frames on the down stream, `end`, and `tts stop` once the
 * broker has paced the frames out. An `abort` from the device cuts it short.
 */
export class ReplyPresenter {
  constructor(
    private readonly messages: DeviceMessages,
    private readonly downlink: DownlinkWriter,
    private readonly tts: TtsProvider,
    private readonly aborts: Aborts,
  ) {}

  async transcript(target: ReplyTarget, text: string): Promise<void> {
    if (target.mode === 'spoken')
      await this.messages.send(target.mac, serverMessage.stt(target.session.sessionId, text));
  }

  async present(target: ReplyTarget, reply: ReplyText, language: Language, clock: TurnClock): Promise<void> {
    if (target.mode === 'text') {
      await this.messages.send(target.mac, serverMessage.ttsSentenceStart('', reply.text));
      clock.mark('replySentMs');
      return;
    }
    await this.speak(target, reply, language, clock);
  }

  private async speak(
    target: Extract<ReplyTarget, { mode: 'spoken' }>,
    reply: ReplyText,
    language: Language,
    clock: TurnClock,
  ): Promise<void> {
    const { sessionId, downlink: format } = target.session;
    const { signal, release } = this.aborts.register(sessionId);
    await this.messages.send(target.mac, serverMessage.llm(sessionId, reply.emotion));
    await this.messages.send(target.mac, serverMessage.ttsStart(sessionId));
    let playbackEnd = Date.now();
    let failure: unknown;
    try {
      for (const sentence of splitSentences(reply.text)) {
        if (signal.aborted) break;
        const frames = await speechFrames(this.tts, sentence, language, format, signal).catch(
          (err: unknown) => {
            failure ??= err; // the text is still shown; the turn records why it was not heard
            return [] as Buffer[];
          },
        );
        await waitUntil(playbackEnd - SHOW_AHEAD_MS, signal);
        await this.messages.send(target.mac, serverMessage.ttsSentenceStart(sessionId, sentence));
        if (frames.length === 0 || signal.aborted) continue;
        await this.downlink.frames(sessionId, frames);
        clock.markOnce('firstTtsAudioMs');
        playbackEnd = Math.max(Date.now(), playbackEnd) + frames.length * format.frameDurationMs;
      }
      await this.downlink.write(sessionId, [{ kind: 'end' }]);
      await waitUntil(playbackEnd + PLAYBACK_MARGIN_MS, signal);
    } finally {
      release();
      await this.messages.send(target.mac, serverMessage.ttsStop(sessionId));
      clock.mark('replySentMs');
    }
    if (failure) throw new Error(`speech synthesis failed: ${(failure as Error).message}`);
  }
}

/** Waits for the playback clock (not a test sleep: the device is still playing what was sent). */
function waitUntil(at: number, signal: AbortSignal): Promise<void> {
  const ms = at - Date.now();
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
