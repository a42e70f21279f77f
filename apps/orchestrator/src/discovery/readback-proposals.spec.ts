import { createDatabase, createPgPool, ToolProfileProposalsRepository, type Pool } from '@fleet/db';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import type { CatalogTool, CatalogView } from './catalog-view';
import { ReadbackProposals } from './readback-proposals';

const tool = (name: string, inputSchema: Record<string, unknown> = {}) =>
  [name, { name, inputSchema } as CatalogTool] as const;

const VIEW = {
  hash: 'c'.repeat(64),
  catalogId: 'unused',
  tools: new Map([
    tool('set_volume', { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] }),
    tool('get_volume'),
    tool('self.light.turn_on'),
    tool('self.light.get_power'),
    tool('take_photo'),
  ]),
} as unknown as CatalogView;

describe('readback proposals recorded at discovery', () => {
  let database: TestDatabase;
  let pool: Pool;
  let repository: ToolProfileProposalsRepository;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, { max: 2 });
    repository = new ToolProfileProposalsRepository(createDatabase(pool));
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('records the pairings a stored catalog shows for its model, pending a person', async () => {
    await new ReadbackProposals(repository).catalogStored('arcs-lite', VIEW);
    const listed = await repository.list();
    expect(listed.map((p) => [p.model, p.catalogHash, p.tool, p.readerTool, p.state])).toEqual([
      ['arcs-lite', VIEW.hash, 'self.light.turn_on', 'self.light.get_power', 'pending'],
      ['arcs-lite', VIEW.hash, 'set_volume', 'get_volume', 'pending'],
    ]);
  });

  it('leaves a decided pairing decided when another replica or a rediscovery sees the catalog again', async () => {
    const [light] = await repository.list('pending');
    await pool.query(`UPDATE tool_profile_proposal SET state = 'rejected' WHERE id = $1`, [light!.id]);
    await new ReadbackProposals(repository).catalogStored('arcs-lite', VIEW);
    expect((await repository.list('rejected')).map((p) => p.id)).toEqual([light!.id]);
    expect(await repository.list('pending')).toHaveLength(1);
  });

  it('records nothing for a device known by no model (neither a board nor a server name)', async () => {
    const before = (await repository.list()).length;
    await new ReadbackProposals(repository).catalogStored(undefined, { ...VIEW, hash: 'd'.repeat(64) });
    expect(await repository.list()).toHaveLength(before);
  });
});
