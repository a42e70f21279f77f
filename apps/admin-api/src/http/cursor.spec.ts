import fc from 'fast-check';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { apiControllers } from '../app.module';
import { buildOpenApiDocument } from '../openapi/openapi-document';
import { cursorKey, cursorOf } from './cursor';
import { ZodPipe } from './validation';
import { z } from 'zod';

const encode = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** What the query pipe answers for `?cursor=<text>` on a list keyed [instant, uuid]. */
function readCursor(text: string): unknown {
  const query = z.strictObject({ cursor: cursorOf(cursorKey.instant, cursorKey.uuid).param.optional() });
  return new ZodPipe(query, 'query').transform({ cursor: text });
}

describe('a typed cursor', () => {
  const calls = cursorOf(cursorKey.instant, cursorKey.uuid);

  it('reads back exactly the key its pages wrote', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.uuid({ version: 4 }),
        (at, id) => {
          const key: [string, string] = [at.toISOString(), id];
          expect(calls.param.parse(calls.encode(key))).toEqual(key);
        },
      ),
    );
  });

  it.each([
    ['five strings', ['z', 'z', 'z', 'z', 'z']],
    ['a position short', ['2026-12-01T00:00:00.000Z']],
    ['a number for the instant', [1767225600000, '00000000-0000-4000-8000-000000000001']],
    ['a day that does not exist', ['2026-02-30T00:00:00.000Z', '00000000-0000-4000-8000-000000000001']],
    ['year 0, which Postgres has not', ['0000-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000001']],
    ['an instant with an offset', ['2026-12-01T01:00:00.000+01:00', '00000000-0000-4000-8000-000000000001']],
    ['an id that is no uuid', ['2026-12-01T00:00:00.000Z', 'z']],
    ['an object', { createdAt: '2026-12-01T00:00:00.000Z' }],
  ])('refuses %s with a 400 naming query.cursor', (_, key) => {
    expect(() => readCursor(encode(key))).toThrow(
      expect.objectContaining({
        status: 400,
        issues: [{ field: 'query.cursor', message: 'not a cursor this API returned' }],
      }),
    );
  });

  it('refuses text that is not base64url JSON, and an identifier holding a NUL', () => {
    for (const text of ['%%%', Buffer.from('["unterminated').toString('base64url')]) {
      expect(() => readCursor(text)).toThrow(expect.objectContaining({ status: 400 }));
    }
    const presence = cursorOf(cursorKey.instant, cursorKey.id);
    expect(presence.param.safeParse(encode(['2026-12-01T00:00:00.000Z', 'c\u0000'])).success).toBe(false);
    expect(presence.param.safeParse(encode(['2026-12-01T00:00:00.000Z', 'conn-1'])).success).toBe(true);
  });
});

describe('the cursor of every paged route', () => {
  let h: Harness;
  let admin: Person;
  let device: string;
  // Every GET the OpenAPI document gives a `cursor` parameter: a list added later is covered without a change here.
  const paged = Object.entries(buildOpenApiDocument(apiControllers(), 'api/v1').paths).flatMap(
    ([path, ops]) => {
      const get = (ops as Record<string, { parameters?: { name: string }[] }>)['get'];
      return get?.parameters?.some((p) => p.name === 'cursor') ? [path] : [];
    },
  );

  beforeAll(async () => {
    h = await startHarness();
    admin = await h.person('admin');
    [device] = (await insertDevices(h.pool, 1)) as [string];
  });
  afterAll(() => h.stop());

  const url = (path: string, cursor: string) =>
    `${path
      .replace('/devices/{id}', `/devices/${device}`)
      .replace('{id}', '00000000-0000-4000-8000-000000000001')}?cursor=${cursor}`;

  it('covers the paged lists the API has', () => {
    expect(paged).toEqual(
      expect.arrayContaining([
        '/api/v1/devices',
        '/api/v1/devices/{id}/presence',
        '/api/v1/calls',
        '/api/v1/approvals',
        '/api/v1/campaigns',
        '/api/v1/campaigns/{id}/targets',
        '/api/v1/quarantine',
        '/api/v1/serial-keys',
      ]),
    );
  });

  it('refuses a tampered cursor with a 400 naming query.cursor, on each', async () => {
    const tampered = encode(['z', 'z', 'z', 'z', 'z']);
    for (const path of paged) {
      const r = await h.request('GET', url(path, tampered), { key: admin.key });
      expect({ path, status: r.status, issues: r.body.issues }).toEqual({
        path,
        status: 400,
        issues: [{ field: 'query.cursor', message: 'not a cursor this API returned' }],
      });
    }
  });

  it('never answers 500 to a cursor of any shape, on any paged route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paged),
        fc.oneof(
          fc.array(fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null)), {
            maxLength: 4,
          }),
          fc.tuple(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.string(),
          ),
          fc.jsonValue(),
        ),
        async (path, key) => {
          const r = await h.request('GET', url(path, encode(key)), { key: admin.key });
          expect([200, 400, 404]).toContain(r.status);
        },
      ),
      { numRuns: 150 },
    );
  });
});
