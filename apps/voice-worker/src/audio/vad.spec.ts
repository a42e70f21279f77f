import { Vad, type VadResult } from './vad';

const RATE = 16_000;
const FRAME = 960; // 60 ms

function tone(ms: number, amplitude = 6000, hz = 220): Int16Array {
  const n = (RATE * ms) / 1000;
  return Int16Array.from({ length: n }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE)),
  );
}

function noise(ms: number, amplitude: number, seed = 1): Int16Array {
  let x = seed;
  return Int16Array.from({ length: (RATE * ms) / 1000 }, () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return Math.round(((x / 0x7fffffff) * 2 - 1) * amplitude);
  });
}

function feed(vad: Vad, ...parts: Int16Array[]): VadResult[] {
  const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    all.set(p, offset);
    offset += p.length;
  }
  const results: VadResult[] = [];
  for (let i = 0; i + FRAME <= all.length; i += FRAME) results.push(vad.push(all.subarray(i, i + FRAME)));
  return results.filter((r) => r.kind !== 'none');
}

const settings = { sampleRate: RATE, silenceMs: 600, maxUtteranceMs: 5_000, minRms: 400 };

describe('voice activity detection', () => {
  it('ends an utterance after the configured silence, keeping a little of the lead-in', () => {
    const vad = new Vad(settings);
    const results = feed(vad, new Int16Array(RATE / 2), tone(1200), new Int16Array(RATE));
    expect(results.map((r) => r.kind)).toEqual(['started', 'ended']);
    const ended = results[1] as Extract<VadResult, { kind: 'ended' }>;
    expect(ended.speechMs).toBeGreaterThanOrEqual(1100);
    expect(ended.hangoverMs).toBeGreaterThanOrEqual(600);
    expect(ended.forced).toBe(false);
    // lead-in + speech + a short tail, never the whole second of silence after it
    expect(ended.pcm.length / RATE).toBeGreaterThan(1.2);
    expect(ended.pcm.length / RATE).toBeLessThan(1.9);
  });

  it('hears nothing in silence or in quiet hiss', () => {
    const vad = new Vad(settings);
    expect(feed(vad, new Int16Array(RATE), noise(2000, 300))).toEqual([]);
  });

  it('does not take a short click for speech', () => {
    const vad = new Vad(settings);
    expect(feed(vad, tone(180), new Int16Array(RATE))).toEqual([{ kind: 'started' }]);
  });

  it('keeps words apart by short pauses in one utterance', () => {
    const vad = new Vad(settings);
    const results = feed(vad, tone(400), new Int16Array(RATE / 4), tone(400), new Int16Array(RATE));
    expect(results.map((r) => r.kind)).toEqual(['started', 'ended']);
  });

  it('cuts an utterance that goes on past the limit', () => {
    const vad = new Vad({ ...settings, maxUtteranceMs: 1_000 });
    const ended = feed(vad, tone(3000)).find((r) => r.kind === 'ended');
    expect(ended).toMatchObject({ kind: 'ended', forced: true });
  });

  it('adapts to a steady background louder than the minimum', () => {
    const vad = new Vad(settings);
    const hum = tone(2000, 600, 50);
    expect(feed(vad, hum)).toEqual([]);
  });
});
