import { pcmToWav } from '../../audio/wav';
import { authHeaders, deadline, endpointUrl, failure, type OpenAiEndpoint } from '../http-json';
import type { AsrProvider, Transcript } from './asr-provider';

/** Any OpenAI-compatible `/audio/transcriptions` (multipart: file, model, optional language). */
export class OpenAiAsr implements AsrProvider {
  readonly name = 'openai';

  constructor(
    private readonly endpoint: OpenAiEndpoint,
    private readonly language?: string,
  ) {}

  async transcribe(pcm: Int16Array, sampleRate: number, signal?: AbortSignal): Promise<Transcript> {
    const form = new FormData();
    form.append('file', new Blob([pcmToWav(pcm, sampleRate)], { type: 'audio/wav' }), 'speech.wav');
    form.append('model', this.endpoint.model);
    form.append('response_format', 'json');
    if (this.language) form.append('language', this.language);
    const response = await fetch(endpointUrl(this.endpoint.url, 'audio/transcriptions'), {
      method: 'POST',
      headers: authHeaders(this.endpoint.apiKey),
      body: form,
      signal: deadline(this.endpoint.timeoutMs, signal),
    });
    if (!response.ok) throw await failure('the transcription server', response);
    const body = (await response.json()) as { text?: unknown };
    if (typeof body.text !== 'string') throw new Error('the transcription server sent no text');
    return { text: body.text.trim() };
  }
}
