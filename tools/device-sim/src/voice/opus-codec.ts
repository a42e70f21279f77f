import OpusScript from 'opusscript';

/** xiaozhi §1.6: the device sends 16 kHz mono Opus in 60 ms frames. */
export const UPLINK_SAMPLE_RATE = 16_000;
export const FRAME_MS = 60;
const SAMPLES_PER_FRAME = (UPLINK_SAMPLE_RATE * FRAME_MS) / 1000;

type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;

/** 16-bit mono PCM at 16 kHz → 60 ms Opus frames (the last one padded with silence). */
export function encodePcm(pcm: Int16Array): Uint8Array[] {
  const encoder = new OpusScript(UPLINK_SAMPLE_RATE, 1, OpusScript.Application.VOIP);
  try {
    const frames: Uint8Array[] = [];
    for (let start = 0; start < pcm.length; start += SAMPLES_PER_FRAME) {
      const frame = new Int16Array(SAMPLES_PER_FRAME);
      frame.set(pcm.subarray(start, start + SAMPLES_PER_FRAME));
      const input = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
      // opusscript hands back a view into its WebAssembly memory: copy before the next call reuses it.
      frames.push(new Uint8Array(encoder.encode(input, SAMPLES_PER_FRAME)));
    }
    return frames;
  } finally {
    encoder.delete();
  }
}

/** Opus frames → 16-bit mono PCM at `sampleRate` (the server hello's downlink rate). */
export function decodeOpus(frames: readonly Uint8Array[], sampleRate: number): Int16Array {
  const decoder = new OpusScript(sampleRate as OpusRate, 1, OpusScript.Application.VOIP);
  try {
    const chunks = frames.map((f) => {
      const pcm = decoder.decode(Buffer.from(f));
      return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
    });
    const out = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  } finally {
    decoder.delete();
  }
}
