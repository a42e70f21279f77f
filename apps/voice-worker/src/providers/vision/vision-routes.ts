import type { FastifyInstance } from 'fastify';
import type { VisionProvider } from './vision-provider';

const MAX_PHOTO_BYTES = 4 * 1024 * 1024;
export const VISION_PATH = '/vision/explain';

/**
 * The endpoint `self.camera.take_photo` posts to (xiaozhi §3.4: multipart `question` + `file` camera.jpg, headers
 * Device-Id, Client-Id and `Authorization: Bearer <token>` when the token is set). The device hands the response
 * body to the LLM as the tool's result, so the answer is plain text.
 */
export function registerVisionRoutes(
  http: FastifyInstance,
  vision: VisionProvider | undefined,
  token: string | undefined,
): void {
  http.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_PHOTO_BYTES },
    (_req, body, done) => done(null, body),
  );
  http.post(VISION_PATH, async (request, reply) => {
    if (token && request.headers.authorization !== `Bearer ${token}`) {
      return reply.code(401).type('text/plain').send('a valid vision token is required');
    }
    if (!vision) return reply.code(503).type('text/plain').send('no vision model is configured');
    const form = await readForm(request.headers['content-type'], request.body);
    const file = form?.get('file');
    if (!form || !(file instanceof Blob)) {
      return reply.code(400).type('text/plain').send('expected multipart with a `file` photo');
    }
    const question = form.get('question');
    try {
      const answer = await vision.explain(
        typeof question === 'string' ? question : '',
        Buffer.from(await file.arrayBuffer()),
        file.type || 'image/jpeg',
      );
      return reply.type('text/plain; charset=utf-8').send(answer);
    } catch (err) {
      request.log.warn({ err }, 'vision model failed');
      return reply
        .code(502)
        .type('text/plain')
        .send(`the vision model failed: ${(err as Error).message}`);
    }
  });
}

/** Multipart through the WHATWG parser Node ships (undici), no extra dependency. */
async function readForm(contentType: string | undefined, body: unknown): Promise<FormData | undefined> {
  if (!contentType || !Buffer.isBuffer(body)) return undefined;
  try {
    return await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return undefined;
  }
}
