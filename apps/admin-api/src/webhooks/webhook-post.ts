import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * One POST of a webhook body, connecting through `lookup` (which checks every address a name resolves to). Node's
 * http client follows no redirects: a redirect is an answer, not an invitation to send the payload elsewhere.
 * Resolves with the receiver's status; rejects when no answer came (refused target, network, timeout).
 */
export function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; lookup: LookupFunction },
): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      lookup: options.lookup,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    outgoing.on('response', (response) => {
      response.resume(); // the answer's body is not read, only drained
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
