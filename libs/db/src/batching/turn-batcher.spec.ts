import fc from 'fast-check';
import { PoolBusyError } from '../client/pg-pool';
import { TurnBatcher } from './turn-batcher';

describe('the turn batcher', () => {
  it('runs what was asked in one turn as one batch, answering each caller in order', async () => {
    const batches: number[][] = [];
    const batcher = new TurnBatcher((inputs: number[]) => {
      batches.push(inputs);
      return Promise.resolve(inputs.map((n) => n * 10));
    });
    expect(await Promise.all([1, 2, 3].map((n) => batcher.submit(n)))).toEqual([10, 20, 30]);
    expect(await batcher.submit(4)).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('holds what arrives while a batch runs for the next one, so batches grow with the load', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = new TurnBatcher(
      async (inputs: number[]) => {
        batches.push(inputs);
        if (batches.length === 1) await gate;
        return inputs;
      },
      { maxInFlight: 1 },
    );
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4].map((n) => batcher.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('splits a turn into batches of at most maxBatch', async () => {
    const sizes: number[] = [];
    const batcher = new TurnBatcher(
      (inputs: number[]) => {
        sizes.push(inputs.length);
        return Promise.resolve(inputs);
      },
      { maxBatch: 2, maxInFlight: 3 },
    );
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.submit(n)));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('fails only the caller of a poisoned input: the others of its batch are answered from a run each alone', async () => {
    const batches: number[][] = [];
    const batcher = new TurnBatcher((inputs: number[]) => {
      batches.push(inputs);
      return inputs.includes(2) ? Promise.reject(new Error('bad row')) : Promise.resolve(inputs);
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.submit(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('bad row') },
      { status: 'fulfilled', value: 3 },
    ]);
    // The batch, then each input alone and in the order it came.
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('answers every caller but the poisoned ones, whatever the batch sizes and wherever the poison sits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ value: fc.integer(), poisoned: fc.boolean() }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        async (inputs, maxBatch) => {
          const batcher = new TurnBatcher(
            (batch: { value: number; poisoned: boolean }[]) =>
              batch.some((i) => i.poisoned)
                ? Promise.reject(new Error('invalid byte sequence for encoding "UTF8": 0x00'))
                : Promise.resolve(batch.map((i) => i.value * 2)),
            { maxBatch },
          );
          const results = await Promise.allSettled(inputs.map((i) => batcher.submit(i)));
          results.forEach((r, n) =>
            expect(r).toEqual(
              inputs[n]!.poisoned
                ? { status: 'rejected', reason: expect.any(Error) }
                : { status: 'fulfilled', value: inputs[n]!.value * 2 },
            ),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('fails every caller at once when the database itself is unavailable, without a run for each', async () => {
    for (const outage of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('query failed', { cause: new PoolBusyError(1000, 10) }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ]) {
      let runs = 0;
      const batcher = new TurnBatcher(() => {
        runs++;
        return Promise.reject(outage);
      });
      const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.submit(n)));
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(runs).toBe(1);
    }
  });

  it('fails every caller of a failed batch when told that its batches fail only as a whole', async () => {
    const batcher = new TurnBatcher(
      (inputs: number[]) =>
        inputs.includes(2) ? Promise.reject(new Error('pipeline failed')) : Promise.resolve(inputs),
      { retrySingly: false },
    );
    const results = await Promise.allSettled([1, 2].map((n) => batcher.submit(n)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('with a gather window, lets requests of later turns join the batch its first request opened', async () => {
    const batches: number[][] = [];
    const run = (inputs: number[]) => {
      batches.push(inputs);
      return Promise.resolve(inputs);
    };
    const gathering = new TurnBatcher(run, { gatherMs: 20 });
    const first = gathering.submit(1);
    // Without a window the first batch runs in this turn's check phase, before the second request is made.
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([]);
    expect(await Promise.all([first, gathering.submit(2)])).toEqual([1, 2]);
    expect(batches).toEqual([[1, 2]]);

    batches.length = 0;
    const turnByTurn = new TurnBatcher(run);
    const alone = turnByTurn.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await Promise.all([alone, turnByTurn.submit(2)])).toEqual([1, 2]);
    expect(batches).toEqual([[1], [2]]);
  });

  it('sends a full batch without waiting out its gather window', async () => {
    const batches: number[][] = [];
    const batcher = new TurnBatcher(
      (inputs: number[]) => {
        batches.push(inputs);
        return Promise.resolve(inputs);
      },
      { gatherMs: 60_000, maxBatch: 3 },
    );
    // A window of a minute: were the batch held for it, the test would time out.
    expect(await Promise.all([1, 2, 3].map((n) => batcher.submit(n)))).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1, 2, 3]]);
  });
});
