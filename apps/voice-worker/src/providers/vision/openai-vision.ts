import { authHeaders, deadline, endpointUrl, failure, type OpenAiEndpoint } from '../http-json';
import type { VisionProvider } from './vision-provider';

/** Any OpenAI-compatible chat model that takes images (`image_url` with a data URL). */
export class OpenAiVision implements VisionProvider {
  constructor(private readonly endpoint: OpenAiEndpoint) {}

  async explain(question: string, image: Buffer, mimeType: string, signal?: AbortSignal): Promise<string> {
    const response = await fetch(endpointUrl(this.endpoint.url, 'chat/completions'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders(this.endpoint.apiKey) },
      body: JSON.stringify({
        model: this.endpoint.model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: question || 'What is in this photo?' },
              {
                type: 'image_url',
                image_url: { url: `data:${mimeType};base64,${image.toString('base64')}` },
              },
            ],
          },
        ],
      }),
      signal: deadline(this.endpoint.timeoutMs, signal),
    });
    if (!response.ok) throw await failure('the vision model', response);
    const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
    const text = body.choices?.[0]?.message?.content;
    if (typeof text !== 'string') throw new Error('the vision model sent no text');
    return text.trim();
  }
}
