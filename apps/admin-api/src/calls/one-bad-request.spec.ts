import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

// Concurrent call requests share their statements (the gate's read, the INSERT): what one of them carries must
// never fail the others'.
describe('one bad call request among many', () => {
  let h: Harness;
  let careful: Person;
  let careless: Person;
  let device: string;

  beforeAll(async () => {
    h = await startHarness();
    [careful, careless] = await Promise.all([h.person('operator'), h.person('operator')]);
    [device] = (await insertDevices(h.pool, 1)) as [string];
  });
  afterAll(() => h.stop());

  const call = (who: Person, body: unknown) =>
    h.request('POST', `/api/v1/devices/${device}/calls`, { key: who.key, body });
  const ordinary = () => call(careful, { tool: 'self.get_device_status', arguments: {} });
  const callRows = async () =>
    (await h.pool.query('SELECT count(*)::int AS n FROM call')).rows[0].n as number;

  it("fails alone when it holds a NUL or a lone surrogate: another operator's concurrent calls are all accepted", async () => {
    const before = await callRows();
    const poisoned: [unknown, string][] = [
      [{ tool: 'self.get_device_status\u0000' }, 'body.tool'],
      [{ tool: 'self.get_device_status', reason: 'because\u0000' }, 'body.reason'],
      [
        { tool: 'self.audio_speaker.set_volume', arguments: { 'volume\u0000': 10 } },
        'body.arguments.volume\\u0000',
      ],
      [{ tool: 'self.x', arguments: { list: [{ name: 'a\u0000' }] } }, 'body.arguments.list.0.name'],
      [{ tool: 'self.x', arguments: { text: 'half \ud800 a pair' } }, 'body.arguments.text'],
    ];
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, ordinary),
      ...poisoned.map(([body]) => call(careless, body)),
      ...Array.from({ length: 10 }, ordinary),
    ]);
    const ordinaryAnswers = [...answers.slice(0, 10), ...answers.slice(15)];
    expect(ordinaryAnswers.map((a) => a.status)).toEqual(Array(20).fill(202));
    answers.slice(10, 15).forEach((a, i) => {
      expect(a.status).toBe(400);
      expect(a.body.issues).toContainEqual({ field: poisoned[i]![1], message: expect.any(String) });
    });
    expect((await callRows()) - before).toBe(20);
  });

  it('fails alone when Postgres refuses its row after every check passed: the calls batched with it are created', async () => {
    // A rule only the database knows, as a constraint added after the API's checks would be.
    await h.owner.query(
      `ALTER TABLE call ADD CONSTRAINT test_poisoned_reason CHECK (reason IS DISTINCT FROM 'poisoned')`,
    );
    try {
      const before = await callRows();
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, ordinary),
        call(careless, { tool: 'self.get_device_status', reason: 'poisoned' }),
        ...Array.from({ length: 10 }, ordinary),
      ]);
      expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(202), 500, ...Array(10).fill(202)]);
      expect((await callRows()) - before).toBe(20);
    } finally {
      await h.owner.query('ALTER TABLE call DROP CONSTRAINT test_poisoned_reason');
    }
  });
});
