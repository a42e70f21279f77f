/** Settings every OpenAI-compatible endpoint takes. */
export interface OpenAiEndpoint {
  /** Base URL including the version, e.g. `http://127.0.0.1:11434/v1`. */
  url: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

export function endpointUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path}`;
}

export function authHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/** The request's own deadline, joined with the turn's (a turn that is given up stops its requests). */
export function deadline(timeoutMs: number, outer?: AbortSignal): AbortSignal {
  const own = AbortSignal.timeout(timeoutMs);
  return outer ? AbortSignal.any([own, outer]) : own;
}

/** A non-2xx answer as an error that names the endpoint and what it said (trimmed). */
export async function failure(what: string, response: Response): Promise<Error> {
  const body = await response.text().catch(() => '');
  return new Error(`${what} answered ${response.status}: ${body.slice(0, 300)}`);
}
