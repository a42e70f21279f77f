import OpusScript from 'opusscript';

type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;
const OPUS_RATES: readonly number[] = [8000, 12000, 16000, 24000, 48000];

function opusRate(sampleRate: number): OpusRate {
  if (!OPUS_RATES.includes(sampleRate)) throw new Error(`Opus cannot run at ${sampleRate} Hz`);
  return sampleRate as OpusRate;
}

/** One session's uplink decoder: Opus keeps state between frames, so one decoder per stream. */
export class OpusDecoder {
  private readonly decoder: OpusScript;

  constructor(sampleRate: number) {
    this.decoder = new OpusScript(opusRate(sampleRate), 1, OpusScript.Application.VOIP);
  }

  decode(frame: Buffer): Int16Array {
    const pcm = this.decoder.decode(frame);
    // opusscript returns a view into its WebAssembly memory: copy before the next call reuses it.
    return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
  }

  dispose(): void {
    this.decoder.delete();
  }
}

/** 16-bit mono PCM → Opus frames of `frameMs` (the last one padded with silence), as the device expects. */
export function encodeOpusFrames(pcm: Int16Array, sampleRate: number, frameMs: number): Buffer[] {
  const encoder = new OpusScript(opusRate(sampleRate), 1, OpusScript.Application.VOIP);
  const samplesPerFrame = (sampleRate * frameMs) / 1000;
  try {
    const frames: Buffer[] = [];
    for (let start = 0; start < pcm.length; start += samplesPerFrame) {
      const frame = new Int16Array(samplesPerFrame);
      frame.set(pcm.subarray(start, start + samplesPerFrame));
      const input = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
      frames.push(Buffer.from(encoder.encode(input, samplesPerFrame)));
    }
    return frames;
  } finally {
    encoder.delete();
  }
}
