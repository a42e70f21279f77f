import { Pool, type PoolClient } from 'pg';
import { databaseOn } from '@fleet/db';
import type { ListedTool } from '@fleet/protocol';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import type { UnitTx } from '../evidence/commit-queue';
import { nameReply } from '../mcp/exchange';
import { CatalogRepository } from './catalog-repository';

const TOOLS: ListedTool[] = [
  {
    name: 'self.get_device_status',
    description: 'Reads the device status',
    inputSchema: { type: 'object', properties: {} },
    properties: [],
    userOnly: false,
  },
];

// DESIGN §3: devices that list the same tools share one catalog; a content seen before costs no statement.
describe('the catalog repository', () => {
  let db: TestDatabase;
  let pool: Pool;
  let catalogs: CatalogRepository;
  let statements: string[];

  /** A unit of work as the commit queue runs one: a transaction on one connection, each statement recorded. */
  const unit = async <T>(work: (tx: UnitTx) => Promise<T>, commit = true): Promise<T> => {
    const client: PoolClient = await pool.connect();
    const tx: UnitTx = {
      query: (text: string, params?: unknown[]) => {
        statements.push(text);
        return client.query(text, params);
      },
      // The repository runs its compiled queries through `query`, so each is recorded; Kysely is here for the type.
      db: databaseOn(client),
      appendEvidence: () => Promise.reject(new Error('discovery appends no evidence')),
    };
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query(commit ? 'COMMIT' : 'ROLLBACK');
      return result;
    } finally {
      client.release();
    }
  };
  const device = async (mac: string) =>
    pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, $2, now())`, [
      mac,
      `${mac}-client`,
    ]);
  const found = (deviceId: string) => ({
    deviceId,
    tools: TOOLS,
    serverName: 'xiaozhi',
    serverVersion: '2.0.0',
    protocolVersion: '2024-11-05',
    exchanges: [],
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    catalogs = new CatalogRepository(pool, 60_000);
  });
  beforeEach(() => {
    statements = [];
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('shares one catalog between devices with the same tools, looking it up only until one has committed', async () => {
    await device('02:00:00:00:00:01');
    await device('02:00:00:00:00:02');
    const first = await unit((tx) => catalogs.store(tx, found('02:00:00:00:00:01')));
    catalogs.committed(first.view);
    statements = [];
    const second = await unit((tx) => catalogs.store(tx, found('02:00:00:00:00:02')));
    expect(second.view.catalogId).toBe(first.view.catalogId);
    expect(second.view.tools).toBe(first.view.tools); // one object for every device, not a copy
    expect(statements.some((s) => s.includes('tool_catalog'))).toBe(false);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM tool_catalog');
    expect(rows[0]!.n).toBe(1);
  });

  it('does not remember a catalog whose unit rolled back, so the next device stores it again', async () => {
    const other: ListedTool[] = [{ ...TOOLS[0]!, name: 'self.reboot' }];
    await device('02:00:00:00:00:03');
    const rolledBack = await unit(
      (tx) => catalogs.store(tx, { ...found('02:00:00:00:00:03'), tools: other }),
      false,
    );
    expect(rolledBack.changed).toBe(true);
    const stored = await unit((tx) => catalogs.store(tx, { ...found('02:00:00:00:00:03'), tools: other }));
    const { rows } = await pool.query<{ catalog_id: string }>(
      `SELECT v.catalog_id FROM device d JOIN device_catalog_version v ON v.id = d.catalog_version_id WHERE d.id = $1`,
      ['02:00:00:00:00:03'],
    );
    expect(rows[0]!.catalog_id).toBe(stored.view.catalogId);
  });

  it('confirms an unchanged catalog on rediscovery instead of adding a version', async () => {
    await device('02:00:00:00:00:04');
    await unit((tx) => catalogs.store(tx, found('02:00:00:00:00:04')));
    const again = await unit((tx) => catalogs.store(tx, found('02:00:00:00:00:04')));
    expect(again).toMatchObject({ changed: false, view: { version: 1 } });
    const loaded = await catalogs.loadCurrent('02:00:00:00:00:04');
    expect(loaded?.view.versionId).toBe(again.view.versionId);
  });

  it("stores a device's first catalog in one statement, with the exchanges that produced it", async () => {
    await device('02:00:00:00:00:05');
    const known = await unit((tx) => catalogs.store(tx, found('02:00:00:00:00:05')));
    catalogs.committed(known.view);
    await device('02:00:00:00:00:06');
    statements = [];
    const exchanges = [{ method: 'initialize', jsonrpcId: 1, raw: 'e30=' }];
    const stored = await unit((tx) => catalogs.store(tx, { ...found('02:00:00:00:00:06'), exchanges }));
    expect(stored).toMatchObject({ changed: true, view: { version: 1 } });
    expect(statements).toHaveLength(1);
    const { rows } = await pool.query<{ exchanges: unknown; pointed: boolean }>(
      `SELECT v.exchanges, d.catalog_version_id = v.id AS pointed
         FROM device_catalog_version v JOIN device d ON d.id = v.device_id WHERE v.id = $1`,
      [stored.view.versionId],
    );
    expect(rows).toEqual([{ exchanges, pointed: true }]);
  });

  it("keeps each discovery reply once, byte for byte: a second device's same replies cost no statement once committed", async () => {
    // Not UTF-8 at the end: the bytes are kept as they came, not as text.
    const page = nameReply(
      Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}'), Buffer.from([0xff])]),
    );
    const init = nameReply(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}'));
    const exchanges = [
      { method: 'initialize', jsonrpcId: 1, rawSha256: init.sha256 },
      { method: 'tools/list', jsonrpcId: 2, rawSha256: page.sha256 },
    ];
    await device('02:00:00:00:00:0a');
    await device('02:00:00:00:00:0b');
    await device('02:00:00:00:00:0c');
    // Rolled back: nothing is remembered, and the next device stores the replies itself.
    await unit(
      (tx) => catalogs.store(tx, { ...found('02:00:00:00:00:0a'), exchanges, replies: [page, init] }),
      false,
    );
    statements = [];
    const first = await unit((tx) =>
      catalogs.store(tx, { ...found('02:00:00:00:00:0b'), exchanges, replies: [page, init] }),
    );
    expect(statements.filter((q) => q.includes('discovery_reply'))).toHaveLength(1);
    catalogs.committed(first.view, [page, init]);
    statements = [];
    await unit((tx) =>
      catalogs.store(tx, { ...found('02:00:00:00:00:0c'), exchanges, replies: [page, init] }),
    );
    expect(statements.filter((q) => q.includes('discovery_reply'))).toEqual([]);
    const { rows } = await pool.query<{ sha256: string; raw: Buffer }>(
      `SELECT r.sha256, r.raw FROM device_catalog_version v,
              jsonb_to_recordset(v.exchanges) AS e("rawSha256" text)
         JOIN discovery_reply r ON r.sha256 = e."rawSha256"
        WHERE v.device_id = '02:00:00:00:00:0c' ORDER BY e."rawSha256" = $1 DESC`,
      [init.sha256],
    );
    expect(rows).toEqual([init, page]);
    const { rows: count } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM discovery_reply WHERE sha256 = ANY($1)',
      [[init.sha256, page.sha256]],
    );
    expect(count[0]!.n).toBe(2);
  });

  it('refuses bytes under a hash that is not theirs, and lets the services neither change nor remove a reply', async () => {
    const reply = nameReply(Buffer.from('{"jsonrpc":"2.0","id":3,"result":{}}'));
    await expect(
      pool.query('INSERT INTO discovery_reply (sha256, raw) VALUES ($1, $2)', [
        reply.sha256,
        Buffer.from('{}'),
      ]),
    ).rejects.toThrow(/discovery_reply_named_by_hash/);
    await pool.query('INSERT INTO discovery_reply (sha256, raw) VALUES ($1, $2)', [reply.sha256, reply.raw]);
    await expect(
      pool.query(`UPDATE discovery_reply SET first_seen_at = now() WHERE sha256 = $1`, [reply.sha256]),
    ).rejects.toThrow(/permission denied/);
    await expect(pool.query('DELETE FROM discovery_reply WHERE sha256 = $1', [reply.sha256])).rejects.toThrow(
      /permission denied/,
    );
  });

  it('gives a device whose tools changed a new version with the diff from the one before', async () => {
    await device('02:00:00:00:00:07');
    await unit((tx) => catalogs.store(tx, found('02:00:00:00:00:07')));
    const more: ListedTool[] = [...TOOLS, { ...TOOLS[0]!, name: 'self.reboot' }];
    const changed = await unit((tx) => catalogs.store(tx, { ...found('02:00:00:00:00:07'), tools: more }));
    expect(changed).toMatchObject({ changed: true, view: { version: 2 } });
    const { rows } = await pool.query<{ diff: unknown; pointed: boolean }>(
      `SELECT v.diff, d.catalog_version_id = v.id AS pointed
         FROM device_catalog_version v JOIN device d ON d.id = v.device_id WHERE v.id = $1`,
      [changed.view.versionId],
    );
    expect(rows).toEqual([{ diff: { added: ['self.reboot'], removed: [], changed: [] }, pointed: true }]);
  });

  it('flags names outside MCP’s recommended set, and bidi controls, with the tool as discovery stores it', async () => {
    await device('02:00:00:00:00:08');
    const names = ['self.get_device_status', 'self.sec/reboot', 'self.灯.开', 'self.sec.\u202egnp.exe'];
    const tools: ListedTool[] = names.map((name) => ({ ...TOOLS[0]!, name }));
    const stored = await unit((tx) => catalogs.store(tx, { ...found('02:00:00:00:00:08'), tools }));
    const { rows } = await pool.query<{ name: string; name_flags: string[] }>(
      'SELECT name, name_flags FROM tool WHERE catalog_id = $1 ORDER BY position',
      [stored.view.catalogId],
    );
    expect(rows).toEqual([
      { name: 'self.get_device_status', name_flags: [] },
      { name: 'self.sec/reboot', name_flags: ['outside_mcp_names'] },
      { name: 'self.灯.开', name_flags: ['outside_mcp_names'] },
      { name: 'self.sec.\u202egnp.exe', name_flags: ['outside_mcp_names', 'bidi_control'] },
    ]);
  });
});
