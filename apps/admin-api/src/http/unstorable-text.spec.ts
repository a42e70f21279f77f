import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { apiControllers } from '../app.module';
import { buildOpenApiDocument } from '../openapi/openapi-document';
import { storableJson, unstorableReason, unstorableTextIssues, visibleText } from './unstorable-text';

const NUL_MESSAGE = 'holds U+0000 (NUL), which cannot be stored';
const SURROGATE_MESSAGE = 'holds a lone UTF-16 surrogate, which cannot be stored';

describe('text Postgres cannot store', () => {
  it('is a NUL or a lone surrogate; a well-formed pair, any other control and any script are fine', () => {
    expect(unstorableReason('a\u0000b')).toBe(NUL_MESSAGE);
    expect(unstorableReason('half \ud800 a pair')).toBe(SURROGATE_MESSAGE);
    expect(unstorableReason('\udc00 the other half first')).toBe(SURROGATE_MESSAGE);
    for (const fine of ['😀', '需要用戶確認', 'tab\tand\u0001', '\u202egnp.exe', ''])
      expect(unstorableReason(fine)).toBeUndefined();
  });

  it('is named by the path to it, a key included, in the order the client wrote it', () => {
    const body = {
      tool: 'self.x',
      arguments: { list: ['ok', 'a\u0000'], 'k\u0000': 1, deep: { text: '\ud800' } },
      reason: 'why\u0000',
    };
    expect(unstorableTextIssues(body, 'body')).toEqual([
      { field: 'body.arguments.list.1', message: NUL_MESSAGE },
      { field: 'body.arguments.k\\u0000', message: NUL_MESSAGE },
      { field: 'body.arguments.deep.text', message: SURROGATE_MESSAGE },
      { field: 'body.reason', message: NUL_MESSAGE },
    ]);
    expect(unstorableTextIssues({ a: 'x', b: [1, true, null] }, 'query')).toEqual([]);
    expect(unstorableTextIssues(Array(50).fill('\u0000'), 'body', 10)).toHaveLength(10);
  });

  it('is kept visible, as its escape, where the API must store it anyway', () => {
    expect(visibleText('a\u0000b\ud800')).toBe('a\\u0000b\\uD800');
    expect(visibleText('😀')).toBe('😀');
    const at = new Date('2026-12-01T00:00:00Z');
    expect(storableJson({ 'k\u0000': ['v\u0000', 1, null], at })).toEqual({
      'k\\u0000': ['v\\u0000', 1, null],
      at,
    });
  });
});

interface Operation {
  parameters?: { name: string; in: 'path' | 'query' }[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

/** The top-level fields of a JSON body's schema (an optional body is `anyOf` the object and null). */
function bodyFields(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  if (!schema) return {};
  return schema.properties ?? Object.assign({}, ...(schema.anyOf ?? []).map(bodyFields));
}

describe('a NUL or a lone surrogate anywhere in a request', () => {
  let h: Harness;
  let admin: Person;
  let device: string;
  const routes = Object.entries(buildOpenApiDocument(apiControllers(), 'api/v1').paths).flatMap(
    ([path, ops]) =>
      Object.entries(ops as Record<string, Operation>).map(([method, op]) => ({
        method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        path,
        op,
      })),
  );

  beforeAll(async () => {
    // One credential sends every route's refusals as fast as the API answers: the request rate limit is not
    // what this suite tests (request-rate-limit.spec does).
    h = await startHarness({ RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ADDRESS: '100000' });
    admin = await h.person('admin');
    [device] = (await insertDevices(h.pool, 1)) as [string];
  });
  afterAll(() => h.stop());

  /** The route's URL with each path parameter valid, or `a%00b` for the one named. */
  const urlOf = (path: string, poisoned?: string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === poisoned) return 'a%00b';
      return path.startsWith('/api/v1/devices/') && name === 'id'
        ? device
        : name === 'id'
          ? '00000000-0000-4000-8000-000000000001'
          : 'self.x';
    });

  /** The field a refusal should name but did not, or undefined. */
  async function missed(
    method: (typeof routes)[number]['method'],
    url: string,
    field: string,
    body?: unknown,
  ): Promise<string | undefined> {
    const r = await h.request(method, url, { key: admin.key, ...(body !== undefined ? { body } : {}) });
    const named = (r.body?.issues ?? []) as { field: string; message: string }[];
    const ok =
      r.status === 400 &&
      named.some((i) => i.field === field && (i.message === NUL_MESSAGE || i.message === SURROGATE_MESSAGE));
    return ok ? undefined : `${method} ${url} ${field}: ${r.status} ${r.text.slice(0, 200)}`;
  }

  it('is refused with a 400 naming the field in every path parameter, query parameter and body field of every route', async () => {
    const misses: string[] = [];
    let checked = 0;
    for (const { method, path, op } of routes) {
      for (const p of op.parameters ?? []) {
        checked++;
        const miss =
          p.in === 'path'
            ? await missed(method, urlOf(path, p.name), `params.${p.name}`)
            : await missed(method, `${urlOf(path)}?${p.name}=a%00b`, `query.${p.name}`);
        if (miss) misses.push(miss);
      }
      const fields = bodyFields(op.requestBody?.content['application/json']?.schema);
      for (const [name, schema] of Object.entries(fields)) {
        const types = [schema.type ?? schema.anyOf?.map((s) => s.type) ?? []].flat();
        const cases: [unknown, string][] = [
          ['a\u0000b', `body.${name}`],
          ['\ud800', `body.${name}`],
          ...(types.includes('object') ? [[{ k: 'a\u0000b' }, `body.${name}.k`] as [unknown, string]] : []),
          ...(types.includes('array') ? [[['a\u0000b'], `body.${name}.0`] as [unknown, string]] : []),
        ];
        for (const [value, field] of cases) {
          checked++;
          const miss = await missed(method, urlOf(path), field, { [name]: value });
          if (miss) misses.push(miss);
        }
      }
      if (op.requestBody?.content['application/json']) {
        checked++;
        const miss = await missed(method, urlOf(path), 'body.a\\u0000', { 'a\u0000': 1 });
        if (miss) misses.push(miss);
      }
    }
    expect(misses).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  });

  it('is refused on GET /devices?q=%00 and in each field of a call, the request audited with the NUL made visible and counted', async () => {
    const search = await h.request('GET', '/api/v1/devices?q=%00', { key: admin.key });
    expect(search.status).toBe(400);
    expect(search.body.issues).toEqual([{ field: 'query.q', message: NUL_MESSAGE }]);

    const call = await h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: admin.key,
      body: {
        tool: 'self.x\u0000',
        reason: 'r\u0000',
        arguments: { 'n\u0000': 1, nested: { v: ['\u0000'] } },
      },
    });
    expect(call.status).toBe(400);
    expect(call.body).toMatchObject({ code: 'validation_failed' });
    expect(call.body.issues.map((i: { field: string }) => i.field)).toEqual([
      'body.tool',
      'body.reason',
      'body.arguments.n\\u0000',
      'body.arguments.nested.v.0',
    ]);
    const { rows } = await h.pool.query<{
      details: { status: number; outcome: string; body: { tool: string } };
    }>(`SELECT details FROM audit_event WHERE action = 'call.create' AND operator_id = $1`, [
      admin.operatorId,
    ]);
    expect(rows.map((r) => r.details)).toContainEqual(
      expect.objectContaining({
        status: 400,
        outcome: 'refused',
        body: expect.objectContaining({ tool: 'self.x\\u0000' }),
      }),
    );
    const { rows: calls } = await h.pool.query('SELECT id FROM call');
    expect(calls).toEqual([]);
    const metrics = await h.request('GET', '/metrics');
    expect(metrics.text).toMatch(
      /admin_api_unstorable_text_refusals_total\{[^}]*route="\/api\/v1\/devices\/:id\/calls"[^}]*\} [1-9]/,
    );
  });

  it("is refused in /mcp's JSON-RPC body too, as a JSON-RPC error naming the field", async () => {
    const r = await h.api.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${admin.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'call_device_tool', arguments: { deviceId: device, tool: 'self.x\u0000' } },
      }),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringContaining('body.params.arguments.tool') },
    });
  });
});
