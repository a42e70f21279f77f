import { runProcess } from './run-process';
import { bytesToPcm } from './wav';

/**
 * Any WAV (espeak-ng's 22,050 Hz, a speech server's 24 kHz...) → 16-bit mono PCM at `sampleRate`, the rate the
 * session announced to the device (xiaozhi §1.4: the device's decoder runs at the hello's sample_rate).
 */
export async function wavToPcm(wav: Buffer, sampleRate: number): Promise<Int16Array> {
  const raw = await runProcess(
    'sox',
    [
      '-t',
      'wav',
      '-',
      '-t',
      'raw',
      '-e',
      'signed-integer',
      '-b',
      '16',
      '-c',
      '1',
      '-r',
      String(sampleRate),
      '-L',
      '-',
    ],
    { input: wav },
  );
  return bytesToPcm(raw);
}
