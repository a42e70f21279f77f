import { createDatabase, createPgPool, type Pool } from '@fleet/db';
import { profilesFromLegacyReadbacks } from '@fleet/domain';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { IMPORT_SOURCE, importProfiles } from './import-readbacks.repository';

const LEGACY = profilesFromLegacyReadbacks([
  {
    model: 'arcs-mini',
    tool: 'set_volume',
    argument: 'value',
    read: { tool: 'get_volume', arguments: {} },
    path: 'value',
    settleMs: 0,
  },
]);

describe('db:import-readbacks', () => {
  let database: TestDatabase;
  let pool: Pool;
  let adminId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, { max: 2 });
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO operator (id, email, name, role)
       VALUES (gen_random_uuid(), 'importer@example.com', 'Importer', 'admin') RETURNING id`,
    );
    adminId = rows[0]!.id;
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it("audits each imported profile as the importer's tool_profile.put, as the API audits its own", async () => {
    const written = await importProfiles(createDatabase(pool), 'importer@example.com', LEGACY);
    expect(written.map((p) => [p.tool, p.kind])).toEqual([
      ['set_volume', 'action'],
      ['get_volume', 'read'],
    ]);
    const { rows } = await pool.query<{
      operator_id: string;
      action: string;
      target_type: string;
      target_id: string;
      details: { source: string; body: { tool: string } };
    }>(`SELECT operator_id, action, target_type, target_id, details FROM audit_event ORDER BY at, id`);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.target_id).sort()).toEqual(written.map((p) => p.id).sort());
    for (const row of rows)
      expect(row).toMatchObject({
        operator_id: adminId,
        action: 'tool_profile.put',
        target_type: 'tool_profile',
        details: { source: IMPORT_SOURCE },
      });
    expect(rows.map((r) => r.details.body.tool).sort()).toEqual(['get_volume', 'set_volume']);
  });

  it('writes neither profiles nor events for a person it does not know', async () => {
    const before = await pool.query('SELECT 1 FROM audit_event');
    await expect(importProfiles(createDatabase(pool), 'nobody@example.com', LEGACY)).rejects.toThrow(
      /no operator nobody@example.com/,
    );
    const after = await pool.query('SELECT 1 FROM audit_event');
    expect(after.rows).toHaveLength(before.rows.length);
  });
});
