import { createDatabase, createPgPool, type Database, type Pool } from '@fleet/db';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { TurnOwnershipRepository } from './turn-ownership.repository';
import { WorkerLivenessRepository } from './worker-liveness.repository';

const MAC = '02:f0:00:00:00:01';

describe('who answers a voice turn', () => {
  let testDb: TestDatabase;
  let pool: Pool;
  let db: Database;
  const worker = (id: string) => ({
    turns: new TurnOwnershipRepository(db, id, 10_000),
    liveness: new WorkerLivenessRepository(db, id),
  });

  const turn = async (fields: { worker_id?: string; picked_up_at?: Date; created_at?: Date } = {}) =>
    (
      await db
        .insertInto('voice_turn')
        .values({ id: crypto.randomUUID(), device_id: MAC, source: 'text', state: 'thinking', ...fields })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    pool = createPgPool(testDb.url, { max: 2 });
    db = createDatabase(pool);
    await db.insertInto('device').values({ id: MAC, client_id: 'x', updated_at: new Date() }).execute();
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  it('lets the first worker run a turn, and no other while that one lives', async () => {
    const [a, b] = [worker('worker-a'), worker('worker-b')];
    await Promise.all([a.liveness.beat(), b.liveness.beat()]);
    const id = await turn();
    expect(await a.turns.claim(id)).toBe('run');
    expect(await b.turns.claim(id)).toBe('skip');
  });

  it('has a stopped worker’s turn answered, not run again, by whoever gets its job', async () => {
    const b = worker('worker-b');
    await b.liveness.beat();
    const id = await turn({ worker_id: 'worker-gone', picked_up_at: new Date() });
    expect(await b.turns.claim(id)).toBe('orphaned');
    expect(await b.turns.settle(id, { reply: 'Sorry', mode: 'text', error: 'stopped' })).toBe(true);
    // Exactly once: a second rescuer (the sweep) finds it settled.
    expect(await b.turns.settle(id, { reply: 'Sorry', mode: 'text', error: 'stopped' })).toBe(false);
    expect(await b.turns.claim(id)).toBe('skip');
  });

  it('finds the open turns of workers that stopped and those whose job nobody took for too long', async () => {
    const b = worker('worker-b');
    await b.liveness.beat();
    const stopped = await turn({ worker_id: 'worker-gone-too', picked_up_at: new Date() });
    const lost = await turn({ created_at: new Date(Date.now() - 120_000) });
    const waiting = await turn(); // just queued: its job will come
    const live = await turn({ worker_id: 'worker-b', picked_up_at: new Date() });
    const found = (await b.turns.orphans(60_000)).map((t) => t.id);
    expect(found).toEqual(expect.arrayContaining([stopped, lost]));
    expect(found).not.toContain(waiting);
    expect(found).not.toContain(live);
  });
});
