import fc from 'fast-check';
import { cursor, hostileString, queryValue } from '../../src/arbitraries';
import type { FuzzPlatform } from '../fuzz-platform';
import type { FuzzTarget } from './edge-targets';

interface GetRoute {
  path: string;
  query: string[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
}

/** Every GET route the API documents (DESIGN §3 `/docs`), with its query parameters. */
export async function documentedGetRoutes(apiUrl: string): Promise<GetRoute[]> {
  const answer = await fetch(`${apiUrl}/docs/json`);
  const document = (await answer.json()) as OpenApiDocument;
  return Object.entries(document.paths)
    .filter(([path, methods]) => methods['get'] && path.startsWith('/api/v1/') && !path.endsWith('/events'))
    .map(([path, methods]) => ({
      path,
      query: (methods['get']!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    }));
}

interface RestCase {
  route: GetRoute;
  pathValue: string;
  params: [string, string][];
}

const FOUR_XX = ['400', '401', '403', '404', '405', '409', '413', '414', '422', '429', '431'];

/**
 * Query parameters and cursors of every documented GET route, and its path parameters: anything a client
 * sends. Never a 5xx; a 400 names the field it refuses.
 */
export function restQueries(routes: GetRoute[], knownDeviceId: string): FuzzTarget<RestCase> {
  const params = (route: GetRoute) =>
    fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...(route.query.length ? route.query : ['limit'])),
          fc.constant('cursor'),
          hostileString,
        ),
        fc.oneof(queryValue, cursor),
      ),
      { maxLength: 3 },
    );
  return {
    name: 'REST queries',
    input: `query parameters, cursors and path parameters of all ${routes.length} documented GET routes`,
    service: 'admin-api',
    arbitrary: fc.constantFrom(...routes).chain((route) =>
      fc.record({
        route: fc.constant(route),
        pathValue: fc.oneof(fc.constant(knownDeviceId), hostileString),
        params: params(route),
      }),
    ),
    counters: [
      { name: 'admin_api_http_requests_total', outcomes: FOUR_XX },
      { name: 'admin_api_client_errors_total' },
    ],
    async send(platform: FuzzPlatform, { route, pathValue, params: pairs }) {
      const path = route.path.replace(/\{[^}]+\}/g, () => percentEncoded(pathValue));
      const query = new URLSearchParams(pairs).toString();
      const answer = await fetch(`${platform.urls.api}${path}${query ? `?${query}` : ''}`, {
        headers: { authorization: `Bearer ${platform.operatorKey}` },
        signal: AbortSignal.timeout(10_000),
      });
      const text = await answer.text();
      if (answer.status >= 500)
        throw new Error(`${answer.status} for ${path}?${query}: ${text.slice(0, 300)}`);
      if (answer.status === 400) {
        // A refused input names its field; other 400s (an OIDC state that does not match) say what they are.
        const body = JSON.parse(text) as { code?: string; issues?: { field: string }[] };
        if (body.code === 'validation_failed' && !body.issues?.length) {
          throw new Error(`a 400 that names no field for ${path}?${query}: ${text}`);
        }
      }
      return { outcome: `http ${answer.status}`, refused: answer.status >= 400 && answer.status !== 404 };
    },
  };
}

/**
 * Percent-encodes any string, lone surrogates included (encodeURIComponent throws on those): a client can send
 * the bytes a lone surrogate would have in WTF-8 (ED A0 80 for U+D800), so a server must take them too.
 */
function percentEncoded(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pair =
      unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && /[\udc00-\udfff]/.test(text[i + 1]!);
    if (pair) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      const bytes = [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}
