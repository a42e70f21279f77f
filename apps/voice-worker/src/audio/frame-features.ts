/** Root mean square of 16-bit samples: loudness on the sample scale (0..32768). */
export function rms(pcm: Int16Array): number {
  if (pcm.length === 0) return 0;
  let sum = 0;
  for (const s of pcm) sum += s * s;
  return Math.sqrt(sum / pcm.length);
}

/** Share of neighbouring samples that change sign: ~0.02–0.15 for voiced speech, ~0.5 for white noise. */
export function zeroCrossingRate(pcm: Int16Array): number {
  if (pcm.length < 2) return 0;
  let crossings = 0;
  for (let i = 1; i < pcm.length; i++) {
    if (pcm[i - 1]! >= 0 !== pcm[i]! >= 0) crossings++;
  }
  return crossings / (pcm.length - 1);
}
