import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';

// The migration compress_large_json_with_lz4: large JSON values (a first discovery's exchanges, about 28 KB) are
// compressed with lz4, cheaper for Postgres to write than pglz and smaller here (docs/BENCHMARKS.md §20).
describe('large JSON columns', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.ownerUrl });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it("are compressed with lz4, a discovery's exchanges and every evidence payload among them", async () => {
    const { rows } = await client.query<{ col: string }>(
      `SELECT attrelid::regclass::text || '.' || attname AS col FROM pg_attribute
        WHERE attcompression = 'l' AND attnum > 0 AND NOT attisdropped ORDER BY 1`,
    );
    expect(rows.map((r) => r.col)).toEqual([
      'activation_challenge.body',
      'audit_event.details',
      'boot_report.body',
      'call.result',
      'device_catalog_version.diff',
      'device_catalog_version.exchanges',
      'device_quarantine.body',
      'discovery_reply.raw',
      'evidence.payload',
      'idempotency_record.response_body',
      'tool.input_schema',
      'webhook_delivery.payload',
    ]);
  });

  it('store a discovery-sized value in a fraction of its bytes, and read it back unchanged', async () => {
    // Base64 of replies that repeat tool definitions, as tools/list pages do.
    const raw = Buffer.from(
      JSON.stringify(
        Array.from({ length: 40 }, (_, i) => ({ name: `self.tool_${i}`, inputSchema: { type: 'object' } })),
      ),
    ).toString('base64');
    const value = JSON.stringify([{ method: 'tools/list', raw: raw.repeat(8) }]);
    const { rows } = await client.query<{ stored: number; length: number; same: boolean }>(
      `SELECT pg_column_size(v) AS stored, octet_length(v::text) AS length, v = $1::jsonb AS same
         FROM (SELECT $1::jsonb AS v) x`,
      [value],
    );
    expect(rows[0]!.same).toBe(true);
    expect(rows[0]!.length).toBeGreaterThan(20_000);
    // A literal is not compressed until it is stored: write it into the column to see what the column keeps.
    await client.query(
      'CREATE TEMP TABLE probe (LIKE device_catalog_version INCLUDING DEFAULTS INCLUDING COMPRESSION)',
    );
    await client.query(
      `INSERT INTO probe (id, device_id, version, catalog_id, exchanges)
       VALUES (gen_random_uuid(), 'a0:85:e3:00:00:01', 1, gen_random_uuid(), $1::jsonb)`,
      [value],
    );
    const stored = await client.query<{ stored: number; method: string; same: boolean }>(
      `SELECT pg_column_size(exchanges) AS stored, pg_column_compression(exchanges) AS method,
              exchanges = $1::jsonb AS same FROM probe`,
      [value],
    );
    expect(stored.rows[0]).toEqual({ stored: expect.any(Number), method: 'lz4', same: true });
    expect(stored.rows[0]!.stored).toBeLessThan(rows[0]!.length / 4);
  });
});
