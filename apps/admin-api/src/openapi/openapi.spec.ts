import { Controller, Get } from '@nestjs/common';
import { ANSWERS } from '@fleet/api-contract';
import { startHarness, type Harness } from '../../test/harness';
import { apiControllers } from '../app.module';
import { buildOpenApiDocument } from './openapi-document';

describe('the OpenAPI document', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('is served at /docs/json, built from the routes and their zod schemas', async () => {
    const r = await h.request('GET', '/docs/json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    const create = r.body.paths['/api/v1/devices/{id}/calls'].post;
    expect(create['x-role']).toBe('operator');
    expect(create.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['tool'],
      additionalProperties: false,
      properties: { tool: { type: 'string' } },
    });
    expect(create.responses['202'].content['application/json'].schema.properties.state.enum).toContain(
      'awaiting_approval',
    );
    const list = r.body.paths['/api/v1/devices'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual([
      'online',
      'board',
      'firmware',
      'group',
      'tag',
      'status',
      'dialect',
      'q',
      'limit',
      'cursor',
    ]);
    expect(r.body.paths['/api/v1/firmware'].post.requestBody.content).toHaveProperty(
      'application/octet-stream',
    );
    expect(r.body.paths['/api/v1/auth/login'].post.security).toEqual([]);
    expect(r.body.paths['/healthz']).toBeUndefined();
  });

  it('declares a role for every route', async () => {
    const r = await h.request('GET', '/docs/json');
    const operations = Object.values(
      r.body.paths as Record<string, Record<string, { 'x-role'?: string }>>,
    ).flatMap((p) => Object.values(p));
    expect(operations.length).toBeGreaterThan(60);
    expect(operations.filter((o) => !o['x-role'])).toEqual([]);
  });

  it('has an answer schema in @fleet/api-contract for every route, and no schema for a route it lacks', () => {
    const document = buildOpenApiDocument(apiControllers(), 'api/v1');
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map(
        (method) => `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, '').replace(/\{(\w+)\}/g, ':$1')}`,
      ),
    );
    // The two routes outside /api/v1 and the document: health and metrics.
    expect(Object.keys(ANSWERS).sort()).toEqual([...routes, 'GET /healthz', 'GET /metrics'].sort());
  });

  it('describes each answer with its contract schema, status and all', async () => {
    const r = await h.request('GET', '/docs/json');
    const detail =
      r.body.paths['/api/v1/devices/{id}'].get.responses['200'].content['application/json'].schema;
    expect(detail.properties).toHaveProperty('clientIdFingerprint');
    expect(detail.properties).not.toHaveProperty('clientId');
    expect(detail.additionalProperties).toBe(false);
    // @HttpCode(201) without a documented status: the document says 201, as the route answers.
    expect(Object.keys(r.body.paths['/api/v1/groups'].post.responses)).toContain('201');
    expect(r.body.paths['/api/v1/auth/logout'].post.responses['204'].content).toBeUndefined();
  });

  it('is browsable at /docs', async () => {
    const r = await h.request('GET', '/docs/');
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/swagger/i);
  });

  it('stops the start of an app with a route that declares no role', () => {
    @Controller('forgotten')
    class ForgottenController {
      @Get()
      open(): string {
        return 'anyone?';
      }
    }
    expect(() => buildOpenApiDocument([ForgottenController], 'api/v1')).toThrow(
      /ForgottenController.open .* declares no role/,
    );
  });
});
