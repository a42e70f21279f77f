/** What the operator's side of the suite sends: the admin API over HTTP, as a script or the console would. */
export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  /** How long the API took to answer (a refused connection: until the refusal). */
  ms: number;
}

export async function api(
  baseUrl: string,
  key: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON
    }
    return { status: response.status, body: json, ms: performance.now() - started };
  } catch (err) {
    // The API is down (SIGKILLed): no answer at all, which the caller retries like a 503.
    return { status: 0, body: { error: (err as Error).message }, ms: performance.now() - started };
  }
}
