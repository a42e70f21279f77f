import { execFileSync } from 'node:child_process';

/** espeak-ng saying `text`, as 16 kHz mono 16-bit PCM (what a device's microphone path would send). */
export function spokenPcm(text: string, voice = 'en-us'): Int16Array {
  const wav = execFileSync('espeak-ng', ['-v', voice, '--stdout', '--stdin'], {
    input: text,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const raw = execFileSync(
    'sox',
    ['-t', 'wav', '-', '-t', 'raw', '-e', 'signed-integer', '-b', '16', '-c', '1', '-r', '16000', '-L', '-'],
    { input: wav, stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const pcm = new Int16Array(raw.length / 2);
  for (let i = 0; i < pcm.length; i++) pcm[i] = raw.readInt16LE(i * 2);
  return pcm;
}

/** The PCM followed by `ms` of silence (a device in `auto` mode keeps sending while the room is quiet). */
export function withSilence(pcm: Int16Array, ms: number): Int16Array {
  const out = new Int16Array(pcm.length + 16 * ms);
  out.set(pcm);
  return out;
}

/** A tone as a WAV file (what the scripted speech server returns). */
export function toneWav(ms: number, rate = 22_050, hz = 330): Buffer {
  const n = Math.round((rate * ms) / 1000);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
