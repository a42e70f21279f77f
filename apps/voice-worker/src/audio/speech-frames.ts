import type { Language } from '../language';
import type { TtsProvider } from '../providers/tts/tts-provider';
import type { AudioFormat } from '@fleet/queues';
import { encodeOpusFrames } from './opus-codec';
import { wavToPcm } from './resample';

/** One sentence as Opus frames in exactly the format the session announced (rate and frame duration). */
export async function speechFrames(
  tts: TtsProvider,
  text: string,
  language: Language,
  format: AudioFormat,
  signal?: AbortSignal,
): Promise<Buffer[]> {
  const wav = await tts.synthesize(text, language, signal);
  const pcm = await wavToPcm(wav, format.sampleRate);
  return encodeOpusFrames(pcm, format.sampleRate, format.frameDurationMs);
}

/** Sentences for `sentence_start` and synthesis one at a time, so the first one is heard sooner. */
export function splitSentences(text: string): string[] {
  const parts = text.match(/[^.!?。！？]+[.!?。！？]*/g) ?? [];
  const sentences = parts.map((s) => s.trim()).filter(Boolean);
  return sentences.length > 0 ? sentences : [text.trim()].filter(Boolean);
}
