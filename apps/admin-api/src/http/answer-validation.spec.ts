import Fastify, { type FastifyInstance } from 'fastify';
import { createLogger } from '@fleet/telemetry';
import { registerAnswerValidation } from './answer-validation';

const summary = {
  id: 'a0:85:e3:f4:49:34',
  status: 'active',
  dialect: 'xiaozhi',
  board: 'bread-compact-wifi',
  boardName: null,
  firmwareVersion: '1.6.0',
  chipModel: 'esp32s3',
  online: true,
  lastSeenAt: '2026-12-02T00:00:00.000Z',
};

/** A bare Fastify with the hook and routes that answer what each test gives them: the real contract judges. */
async function server(answers: Record<string, { status: number; body: unknown }>): Promise<FastifyInstance> {
  const app = Fastify();
  registerAnswerValidation(app, 'api/v1', createLogger('answer-validation-test', 'silent'));
  for (const [route, answer] of Object.entries(answers)) {
    const [method, url] = route.split(' ') as ['GET' | 'POST', string];
    app.route({ method, url, handler: async (_req, reply) => reply.code(answer.status).send(answer.body) });
  }
  await app.ready();
  return app;
}

describe('answer validation', () => {
  it('lets an answer that fits its route’s schema through untouched', async () => {
    const app = await server({
      'GET /api/v1/devices': { status: 200, body: { items: [summary], nextCursor: null } },
    });
    const r = await app.inject({ method: 'GET', url: '/api/v1/devices' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ items: [summary], nextCursor: null });
  });

  it('turns an answer that drifted from its schema into a 500 naming each field', async () => {
    const app = await server({
      'GET /api/v1/devices': {
        status: 200,
        body: { items: [{ ...summary, clientId: 'the-secret', online: 'yes' }], nextCursor: null },
      },
    });
    const r = await app.inject({ method: 'GET', url: '/api/v1/devices' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toMatchObject({ statusCode: 500, code: 'answer_drift' });
    expect(r.json().issues).toEqual(
      expect.arrayContaining([
        { field: 'items.0.online', message: expect.stringContaining('boolean') },
        { field: 'items.0', message: expect.stringContaining('clientId') },
      ]),
    );
    // The drift report names the secret's field, never its value.
    expect(r.body).not.toContain('the-secret');
  });

  it('holds refusals to the error schema', async () => {
    const app = await server({
      'GET /api/v1/devices/:id': { status: 404, body: { error: 'no such device' } },
      'GET /api/v1/calls/:id': {
        status: 404,
        body: { statusCode: 404, code: 'not_found', message: 'no call c1' },
      },
    });
    expect((await app.inject({ method: 'GET', url: '/api/v1/devices/d1' })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/api/v1/calls/c1' })).statusCode).toBe(404);
  });

  it('fails a route the contract does not know, and a JSON body where it expects none', async () => {
    const app = await server({
      'GET /api/v1/secret-things': { status: 200, body: { anything: true } },
      'POST /api/v1/auth/logout': { status: 200, body: { bye: true } },
    });
    const unknown = await app.inject({ method: 'GET', url: '/api/v1/secret-things' });
    expect(unknown.statusCode).toBe(500);
    expect(unknown.json().issues).toEqual([
      { field: '(route)', message: expect.stringContaining('ANSWERS') },
    ]);
    expect((await app.inject({ method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(500);
  });

  it('leaves alone what is not a REST answer: text, and routes outside /api/v1 the contract does not name', async () => {
    const app = await server({
      'GET /api/v1/reports/audit': { status: 200, body: 'call_id,verdict\n' },
      'POST /mcp': { status: 401, body: { jsonrpc: '2.0', error: { code: -32001 }, id: null } },
    });
    expect((await app.inject({ method: 'GET', url: '/api/v1/reports/audit' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/mcp' })).statusCode).toBe(401);
  });
});
