import type { Language } from '../../language';
import { authHeaders, deadline, endpointUrl, failure, type OpenAiEndpoint } from '../http-json';
import type { TtsProvider } from './tts-provider';

/** Any OpenAI-compatible `/audio/speech`, asked for WAV so the rate travels with the audio. */
export class OpenAiTts implements TtsProvider {
  readonly name = 'openai';

  constructor(
    private readonly endpoint: OpenAiEndpoint,
    private readonly voice: string,
  ) {}

  async synthesize(text: string, _language: Language, signal?: AbortSignal): Promise<Buffer> {
    const response = await fetch(endpointUrl(this.endpoint.url, 'audio/speech'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders(this.endpoint.apiKey) },
      body: JSON.stringify({
        model: this.endpoint.model,
        input: text,
        voice: this.voice,
        response_format: 'wav',
      }),
      signal: deadline(this.endpoint.timeoutMs, signal),
    });
    if (!response.ok) throw await failure('the speech server', response);
    return Buffer.from(await response.arrayBuffer());
  }
}
