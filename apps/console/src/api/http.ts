import type { ApiErrorBody } from '@fleet/api-contract';

export const API_BASE = '/api/v1';

/** A refusal from the API, with its stable code and the fields at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: { field: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /**
   * Starts something (a call, an approval, a campaign): sent with an Idempotency-Key, and retried once with
   * the same key if the network failed, so a retry never starts it twice (admin-api README, Idempotency-Key).
   */
  idempotent?: boolean;
  signal?: AbortSignal;
}

type Listener = () => void;
const unauthenticatedListeners = new Set<Listener>();

/** Called when any request comes back 401: the session ended or was revoked. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

export function apiUrl(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

/**
 * One request to the admin API. The browser authenticates with the session cookie that sign-in set
 * (HttpOnly, SameSite=Strict), so no token is kept where scripts can read it.
 */
export async function request<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotent) headers['idempotency-key'] = crypto.randomUUID();
  const init: RequestInit = {
    method,
    headers,
    credentials: 'same-origin',
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  const url = apiUrl(path, opts.query);
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (!opts.idempotent || opts.signal?.aborted) throw err;
    response = await fetch(url, init); // same Idempotency-Key: the API answers the first outcome again
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const body: unknown = text ? parseJson(text) : undefined;
  if (!response.ok) {
    if (response.status === 401) for (const listener of unauthenticatedListeners) listener();
    throw toApiError(response.status, body, text);
  }
  return body as T;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toApiError(status: number, body: unknown, text: string): ApiError {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const e = body as Partial<ApiErrorBody>;
    return new ApiError(status, e.code ?? 'error', e.message ?? text, e.issues ?? []);
  }
  return new ApiError(status, 'error', text || `HTTP ${status}`);
}
