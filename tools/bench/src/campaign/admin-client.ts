/** A JSON answer of the admin API. */
export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The admin API's REST as an operator uses it: a bearer key, JSON in and out (or raw bytes for firmware). */
export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer> {
    const raw = Buffer.isBuffer(body);
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.key}`,
        ...(body === undefined
          ? {}
          : { 'content-type': raw ? 'application/octet-stream' : 'application/json' }),
      },
      ...(body === undefined ? {} : { body: raw ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  /** The request, which must answer `expected`; else an error that carries the API's own message. */
  async expect(
    expected: number,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    const answer = await this.request(method, path, body);
    if (answer.status !== expected)
      throw new Error(`${method} ${path}: ${answer.status}, not ${expected}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }
}
