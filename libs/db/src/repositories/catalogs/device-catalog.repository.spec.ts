import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createDatabase, type Database } from '../../client/kysely';
import { createPgPool, type Pool } from '../../client/pg-pool';
import { DeviceCatalogRepository } from './device-catalog.repository';

describe("a device's current catalog", () => {
  let testDb: TestDatabase;
  let pool: Pool;
  let db: Database;
  let catalogs: DeviceCatalogRepository;
  const discovered = 'a0:85:e3:00:02:01';
  const neverDiscovered = 'a0:85:e3:00:02:02';
  let operator: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    pool = createPgPool(testDb.url, { max: 2 });
    db = createDatabase(pool);
    catalogs = new DeviceCatalogRepository(db);
    const now = new Date();
    await db
      .insertInto('device')
      .values([discovered, neverDiscovered].map((id) => ({ id, client_id: `hash-${id}`, updated_at: now })))
      .execute();
    const catalog = '00000000-0000-4000-8000-000000000201';
    await db.insertInto('tool_catalog').values({ id: catalog, hash: 'c1', tool_count: 2 }).execute();
    await db
      .insertInto('tool')
      .values([
        {
          catalog_id: catalog,
          position: 1,
          name: 'self.reboot',
          description: 'Reboot',
          input_schema: '{"type":"object"}',
          user_only: true,
        },
        {
          catalog_id: catalog,
          position: 0,
          name: 'self.get_device_status',
          description: 'Status',
          input_schema: '{"type":"object"}',
          user_only: false,
        },
      ])
      .execute();
    const version = '00000000-0000-4000-8000-000000000202';
    await db
      .insertInto('device_catalog_version')
      .values({ id: version, device_id: discovered, version: 1, catalog_id: catalog, exchanges: '[]' })
      .execute();
    await db
      .updateTable('device')
      .set({ catalog_version_id: version })
      .where('id', '=', discovered)
      .execute();
    operator = '00000000-0000-4000-8000-000000000203';
    await db
      .insertInto('operator')
      .values({ id: operator, email: 'o@example.com', name: 'O', role: 'admin' })
      .execute();
    await db
      .insertInto('tool_marking')
      .values({
        device_id: discovered,
        tool_name: 'self.get_device_status',
        sensitive: true,
        marked_by: operator,
      })
      .execute();
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  it("lists the current version's tools in tools/list order with this device's markings", async () => {
    const tools = await catalogs.currentTools(discovered);
    expect(tools?.map((t) => [t.name, t.userOnly, t.sensitive])).toEqual([
      ['self.get_device_status', false, true],
      ['self.reboot', true, null],
    ]);
    expect(tools?.[0]?.inputSchema).toEqual({ type: 'object' });
  });

  it('knows no catalog, rather than an empty one, for a device never discovered', async () => {
    expect(await catalogs.currentTools(neverDiscovered)).toBeUndefined();
    expect(await catalogs.currentVersion(neverDiscovered)).toBeUndefined();
  });

  it('names the version discovery last confirmed, with its catalog hash and tool count', async () => {
    expect(await catalogs.currentVersion(discovered)).toMatchObject({ version: 1, hash: 'c1', toolCount: 2 });
  });

  it('tells a lifted default (sensitive: false) from no marking (null)', async () => {
    await db
      .insertInto('tool_marking')
      .values({ device_id: discovered, tool_name: 'self.reboot', sensitive: false, marked_by: operator })
      .execute();
    const tools = await catalogs.currentTools(discovered);
    expect(tools?.find((t) => t.name === 'self.reboot')?.sensitive).toBe(false);
  });
});
