import type { ListenMode } from '@fleet/protocol';
import type { AudioFormat, UplinkFrame } from '@fleet/queues';
import { OpusDecoder } from '../audio/opus-codec';
import { Vad, type VadSettings } from '../audio/vad';
import { concatPcm } from '../audio/wav';
import type { ListenSignal } from './listen-events';

export interface Utterance {
  pcm: Int16Array;
  sampleRate: number;
  speechMs: number;
  /** Audio the VAD waited for after the last voiced frame (0 when the device ended it with `listen stop`). */
  hangoverMs: number;
  end: 'silence' | 'forced' | 'listen_stop';
}

/** A turn is running for this session: audio is ignored until the device listens again, or this long. */
const BUSY_LIMIT_MS = 60_000;

/**
 * One owned session's uplink: decoded Opus into the VAD, driven by the device's listen state. In `auto` and
 * `realtime` the VAD decides where speech ends; in `manual` (push-to-talk) the device's `listen stop` does.
 * After an utterance the session waits for its reply: the device says `listen start` again after `tts stop`.
 */
export class SessionAudio {
  private readonly decoder: OpusDecoder;
  private readonly vad: Vad;
  private mode: ListenMode = 'auto';
  private listening = true; // until told otherwise: a device starts listening right after its hello
  private busyUntil = 0;
  /** Push-to-talk audio: everything between `listen start` and `listen stop` is the utterance. */
  private held: Int16Array[] = [];

  constructor(
    readonly sessionId: string,
    readonly mac: string,
    private readonly uplink: AudioFormat,
    vad: Omit<VadSettings, 'sampleRate'>,
    private readonly onUtterance: (utterance: Utterance) => void,
  ) {
    this.decoder = new OpusDecoder(uplink.sampleRate);
    this.vad = new Vad({ ...vad, sampleRate: uplink.sampleRate });
  }

  signal(signal: ListenSignal): void {
    if (signal.type === 'abort') return;
    switch (signal.state) {
      case 'start':
        if (!this.listening || this.busyUntil > 0) {
          this.vad.reset();
          this.held = [];
        }
        this.mode = signal.mode;
        this.listening = true;
        this.busyUntil = 0;
        return;
      case 'detect':
        this.vad.reset(); // what came before was the wake word, not the request
        return;
      case 'stop':
        this.listening = false;
        return this.mode === 'manual' ? this.releaseHeld() : this.idle('listen_stop');
    }
  }

  frame(frame: UplinkFrame): void {
    if (!this.listening) return;
    if (this.busyUntil > Date.now()) return;
    let pcm: Int16Array;
    try {
      pcm = this.decoder.decode(frame.opus);
    } catch {
      return; // a corrupt frame is lost audio, not a reason to drop the session
    }
    if (this.mode === 'manual') {
      this.held.push(pcm);
      return;
    }
    const result = this.vad.push(pcm);
    if (result.kind === 'ended') this.emit(result, result.forced ? 'forced' : 'silence');
  }

  /** The device stopped sending mid-speech (or said `listen stop`): what was said so far is the utterance. */
  idle(end: Utterance['end'] = 'silence'): void {
    const result = this.vad.flush();
    if (result.kind === 'ended') this.emit(result, end);
  }

  private releaseHeld(): void {
    const pcm = concatPcm(this.held);
    this.held = [];
    const speechMs = Math.round((pcm.length * 1000) / this.uplink.sampleRate);
    if (speechMs >= 250)
      this.emit({ kind: 'ended', pcm, speechMs, hangoverMs: 0, forced: false }, 'listen_stop');
  }

  /** No turn came of the last utterance: listen again without waiting for the device. */
  resume(): void {
    this.busyUntil = 0;
    this.vad.reset();
  }

  get inSpeech(): boolean {
    return this.vad.inSpeech;
  }

  dispose(): void {
    this.decoder.dispose();
  }

  private emit(result: Extract<ReturnType<Vad['push']>, { kind: 'ended' }>, end: Utterance['end']): void {
    this.busyUntil = Date.now() + BUSY_LIMIT_MS;
    this.onUtterance({
      pcm: result.pcm,
      sampleRate: this.uplink.sampleRate,
      speechMs: result.speechMs,
      hangoverMs: end === 'listen_stop' ? 0 : result.hangoverMs,
      end,
    });
  }
}
