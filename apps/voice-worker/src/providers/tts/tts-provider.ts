import type { Language } from '../../language';

/** Text → speech as a WAV file of any rate (the audio module resamples it to the session's downlink rate). */
export interface TtsProvider {
  readonly name: string;
  synthesize(text: string, language: Language, signal?: AbortSignal): Promise<Buffer>;
}
