import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join, posix, resolve } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@fleet/telemetry';

/**
 * Paths that belong to the API itself: never answered with the console. `/.well-known/` is the web's place for
 * machine-read documents (RFC 8615): one the platform does not serve is a JSON 404, never the console's HTML,
 * which an MCP client probing `oauth-protected-resource` would fail to parse.
 */
const API_PATHS = /^\/(api|docs|mcp|healthz|metrics|\.well-known)(\/|$)/;

/** What Vite emits (an unknown extension is served as bytes). */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * What the console's pages may load and who may frame them: only its own files and the API beside them
 * (scripts, styles, fetch and the event stream); no plugins, no inline script; and no site may put the console in
 * a frame (clickjacking: an approve button under someone else's page). React sets styles through the CSSOM,
 * which style-src does not govern, so no 'unsafe-inline' is needed.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web console (apps/console, bundled by `npm run build` into dist/apps/console), served at `/`: its files
 * as built (Vite's hashed assets cached for good), and index.html for every other path outside the API, so the
 * console's own routes (`/devices/...`) survive a reload. Not built: nothing is registered, the API is as before.
 */
export function registerConsole(app: NestFastifyApplication, logger: Logger): void {
  const root = consoleDir();
  if (!root) {
    logger.info('console not built (npm run build): serving the API only');
    return;
  }
  // Nest types its instance with its own type provider; routes are registered on the plain instance.
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  // The most general route there is: every API route, /docs and /mcp are more specific and win.
  fastify.get('/*', (request, reply) => serve(root, request, reply));
  logger.info({ root }, 'serving the console at /');
}

async function serve(root: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const path = request.url.split('?')[0] ?? '/';
  if (API_PATHS.test(path)) return reply.callNotFound();
  let file: string;
  try {
    file = posix.normalize(decodeURIComponent(path)).replace(/^\/+/, '');
  } catch {
    return reply.callNotFound(); // a malformed escape
  }
  // posix.normalize keeps a leading `..` only when the path climbs out of the root: refused by falling back.
  const size = file && !file.startsWith('..') ? await fileSize(join(root, file)) : undefined;
  if (size !== undefined) {
    const hashed = file.startsWith('assets/');
    return send(reply, join(root, file), size, hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  }
  const index = join(root, 'index.html');
  return send(reply, index, (await fileSize(index)) ?? 0, 'no-cache');
}

function send(reply: FastifyReply, file: string, size: number, cacheControl: string): FastifyReply {
  return reply
    .header('content-type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')
    .header('content-length', size)
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-frame-options', 'DENY') // frame-ancestors for browsers that predate it
    .header('referrer-policy', 'same-origin')
    .send(createReadStream(file));
}

async function fileSize(path: string): Promise<number | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

/** dist/apps/console beside the running code: dist/apps/admin-api/... when built, apps/admin-api/... in tests. */
function consoleDir(): string | undefined {
  const candidates = [
    resolve(__dirname, '../../../console'),
    resolve(__dirname, '../../../../dist/apps/console'),
  ];
  return candidates.find(
    (dir) => basename(dirname(dirname(dir))) === 'dist' && existsSync(join(dir, 'index.html')),
  );
}
