export interface Transcript {
  text: string;
}

/** Speech → text: an OpenAI-compatible transcription server, or pocketsphinx offline. */
export interface AsrProvider {
  readonly name: string;
  /** 16-bit mono PCM at `sampleRate` (the device's uplink rate, 16 kHz on stock firmware). */
  transcribe(pcm: Int16Array, sampleRate: number, signal?: AbortSignal): Promise<Transcript>;
}
