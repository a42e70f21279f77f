import { rms, zeroCrossingRate } from './frame-features';
import { concatPcm } from './wav';

export interface VadSettings {
  sampleRate: number;
  /** Silence after speech that ends the utterance. */
  silenceMs: number;
  maxUtteranceMs: number;
  /** Never speech below this RMS, however quiet the room. */
  minRms: number;
}

export type VadResult =
  | { kind: 'none' }
  | { kind: 'started' }
  | { kind: 'ended'; pcm: Int16Array; speechMs: number; hangoverMs: number; forced: boolean };

const START_MS = 120; // voiced audio needed before an utterance counts as started (a click is not speech)
const MIN_SPEECH_MS = 250; // shorter "utterances" are coughs and door slams
const PREROLL_MS = 300; // kept from before the start: the onset of the first word is quiet
const TAIL_MS = 200; // kept after the last voiced frame: final consonants are quiet too
const NOISE_ZCR = 0.45; // above this a frame sounds like hiss, not a voice, unless it is loud

/**
 * Energy and zero-crossing voice activity detection over a session's decoded uplink. In `auto` listening the
 * server decides where speech ends (xiaozhi §2.1), and this is where: `silenceMs` of non-speech after speech.
 * Time is counted in audio, not wall clock, so a burst of frames decides the same as a real-time stream.
 */
export class Vad {
  private noiseFloor: number;
  private preroll: Int16Array[] = [];
  private prerollMs = 0;
  private collected: Int16Array[] = [];
  private collectedMs = 0;
  private voicedRunMs = 0;
  private silenceRunMs = 0;
  private firstVoicedMs = 0;
  private lastVoicedEndMs = 0;
  private speaking = false;

  constructor(private readonly settings: VadSettings) {
    this.noiseFloor = settings.minRms / 2;
  }

  get inSpeech(): boolean {
    return this.speaking;
  }

  reset(): void {
    this.preroll = [];
    this.prerollMs = 0;
    this.collected = [];
    this.collectedMs = 0;
    this.voicedRunMs = 0;
    this.silenceRunMs = 0;
    this.speaking = false;
  }

  push(frame: Int16Array): VadResult {
    const ms = (frame.length * 1000) / this.settings.sampleRate;
    const voiced = this.isVoiced(frame);
    if (!this.speaking) return this.whileQuiet(frame, ms, voiced);
    this.collected.push(frame);
    this.collectedMs += ms;
    if (voiced) {
      this.silenceRunMs = 0;
      this.lastVoicedEndMs = this.collectedMs;
    } else {
      this.silenceRunMs += ms;
    }
    if (this.silenceRunMs >= this.settings.silenceMs) return this.end(false);
    if (this.collectedMs >= this.settings.maxUtteranceMs) return this.end(true);
    return { kind: 'none' };
  }

  /** Ends the utterance now (push-to-talk released, or the device stopped sending). */
  flush(): VadResult {
    return this.speaking ? this.end(true) : { kind: 'none' };
  }

  private whileQuiet(frame: Int16Array, ms: number, voiced: boolean): VadResult {
    this.preroll.push(frame);
    this.prerollMs += ms;
    this.voicedRunMs = voiced ? this.voicedRunMs + ms : 0;
    if (!voiced) this.noiseFloor = 0.95 * this.noiseFloor + 0.05 * rms(frame);
    if (this.voicedRunMs >= START_MS) {
      this.speaking = true;
      this.collected = this.preroll;
      this.collectedMs = this.prerollMs;
      this.firstVoicedMs = this.prerollMs - this.voicedRunMs;
      this.lastVoicedEndMs = this.collectedMs;
      this.silenceRunMs = 0;
      this.preroll = [];
      this.prerollMs = 0;
      return { kind: 'started' };
    }
    const keepMs = PREROLL_MS + START_MS;
    while (this.prerollMs > keepMs && this.preroll.length > 1) {
      const dropped = this.preroll.shift()!;
      this.prerollMs -= (dropped.length * 1000) / this.settings.sampleRate;
    }
    return { kind: 'none' };
  }

  private end(forced: boolean): VadResult {
    const speechMs = this.lastVoicedEndMs - this.firstVoicedMs;
    const hangoverMs = Math.round(this.collectedMs - this.lastVoicedEndMs);
    const keepMs = Math.min(this.collectedMs, this.lastVoicedEndMs + TAIL_MS);
    const all = concatPcm(this.collected);
    const pcm = all.subarray(0, Math.round((keepMs * this.settings.sampleRate) / 1000));
    this.reset();
    if (speechMs < MIN_SPEECH_MS) return { kind: 'none' };
    return { kind: 'ended', pcm, speechMs: Math.round(speechMs), hangoverMs, forced };
  }

  private isVoiced(frame: Int16Array): boolean {
    const level = rms(frame);
    const threshold = Math.max(this.settings.minRms, this.noiseFloor * 3);
    if (level < threshold) return false;
    return zeroCrossingRate(frame) < NOISE_ZCR || level > threshold * 4;
  }
}
