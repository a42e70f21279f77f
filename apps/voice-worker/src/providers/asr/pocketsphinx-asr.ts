import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { wavToPcm } from '../../audio/resample';
import { runProcess } from '../../audio/run-process';
import { pcmToWav } from '../../audio/wav';
import type { AsrProvider, Transcript } from './asr-provider';
import { commandGrammar } from './jsgf-grammar';

const MODEL_RATE = 16_000; // the en-us acoustic model is trained on 16 kHz

/** Offline ASR: Debian's pocketsphinx with the en-us model, constrained by the command grammar. */
export class PocketsphinxAsr implements AsrProvider {
  readonly name = 'pocketsphinx';
  private readonly dir = mkdtempSync(join(tmpdir(), 'voice-asr-'));
  private readonly grammar = join(this.dir, 'commands.gram');

  constructor(private readonly model: { hmm: string; dict: string }) {
    writeFileSync(this.grammar, commandGrammar());
  }

  async transcribe(pcm: Int16Array, sampleRate: number): Promise<Transcript> {
    const audio = sampleRate === MODEL_RATE ? pcm : await wavToPcm(pcmToWav(pcm, sampleRate), MODEL_RATE);
    const file = join(this.dir, `${randomBytes(6).toString('hex')}.wav`);
    writeFileSync(file, pcmToWav(audio, MODEL_RATE));
    try {
      const out = await runProcess('pocketsphinx_continuous', [
        ...['-infile', file, '-jsgf', this.grammar],
        ...['-hmm', this.model.hmm, '-dict', this.model.dict, '-logfn', '/dev/null'],
      ]);
      return {
        text: out
          .toString()
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .join(' '),
      };
    } finally {
      rmSync(file, { force: true });
    }
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
