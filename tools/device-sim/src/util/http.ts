import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpCall {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  /** Sent in this order, exactly as given (Node adds only Host and Connection). */
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string | Uint8Array;
  readonly timeoutMs: number;
  /** Aborts the call when the device loses power. */
  readonly signal?: AbortSignal;
}

/** Opens an HTTP(S) call and resolves with the response once its headers arrived; rejects on any network error. */
export function openHttp(call: HttpCall): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(call.url);
    } catch {
      reject(new Error(`not a URL: ${call.url}`));
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(new Error(`unsupported scheme: ${url.protocol}`));
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: call.method,
      headers: call.headers,
      // One connection per call, closed afterwards, as esp_http_client does.
      agent: false,
      timeout: call.timeoutMs,
      ...(call.signal ? { signal: call.signal } : {}),
    });
    req.on('response', resolve);
    req.on('timeout', () => req.destroy(new Error(`timed out after ${call.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(call.body);
  });
}

/** Reads a whole body, refusing more than `maxBytes`. */
export function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) res.destroy(new Error(`body larger than ${maxBytes} bytes`));
      else chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('response aborted')));
  });
}

/** A complete call: status and body. */
export async function fetchHttp(
  call: HttpCall,
  maxBytes = 1 << 20,
): Promise<{ status: number; body: Buffer; headers: IncomingMessage['headers'] }> {
  const res = await openHttp(call);
  const body = await readBody(res, maxBytes);
  return { status: res.statusCode ?? 0, body, headers: res.headers };
}
