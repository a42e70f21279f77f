import type { Language } from '../../language';
import { runProcess } from '../../audio/run-process';
import type { TtsProvider } from './tts-provider';

const VOICES: Record<Language, string> = { en: 'en-us', zh: 'cmn' };

/** Offline TTS: Debian's espeak-ng (22,050 Hz WAV). The text goes on stdin, never as an argument. */
export class EspeakTts implements TtsProvider {
  readonly name = 'espeak';

  synthesize(text: string, language: Language): Promise<Buffer> {
    return runProcess('espeak-ng', ['-v', VOICES[language], '--stdout', '--stdin'], {
      input: Buffer.from(text, 'utf8'),
    });
  }
}
