import { createRedis, type Redis } from '@fleet/queues';
import { startTestRedis, waitFor, type TestRedis } from '@fleet/testing';
import { ChallengeRateLimits } from './challenge-rate-limits';

describe('activation challenge rate limits', () => {
  let server: TestRedis;
  const clients: Redis[] = [];
  /** A replica's limits, once its Redis connection is up (as the broker's is before it takes check-ins). */
  const limits = async (prefix: string) => {
    const redis = createRedis(server.url);
    redis.on('error', () => undefined);
    clients.push(redis);
    await waitFor(() => redis.status === 'ready', { what: 'the Redis connection ready' });
    return new ChallengeRateLimits(redis, { perMacAndAddress: 2, perAddress: 3 }, prefix);
  };

  beforeAll(async () => {
    server = await startTestRedis();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    await server.stop();
  });

  it('spends a MAC-and-address budget and an address budget, and leaves other addresses theirs', async () => {
    const l = await limits('a');
    const asked = [];
    for (const [mac, address] of [
      ['02:00:00:00:00:01', '198.51.100.7'],
      ['02:00:00:00:00:01', '198.51.100.7'],
      ['02:00:00:00:00:01', '198.51.100.7'], // that MAC from that address: spent
      ['02:00:00:00:00:02', '198.51.100.7'],
      ['02:00:00:00:00:03', '198.51.100.7'], // that address: spent, whatever the MAC
      ['02:00:00:00:00:01', '203.0.113.9'],
    ] as const) {
      asked.push(await l.allow(mac, address));
    }
    expect(asked).toEqual([true, true, false, true, false, true]);
  });

  it('shares the budgets between replicas through Redis', async () => {
    const [one, two] = [await limits('b'), await limits('b')];
    expect(await one.allow('02:00:00:00:00:09', '192.0.2.1')).toBe(true);
    expect(await two.allow('02:00:00:00:00:09', '192.0.2.1')).toBe(true);
    expect(await one.allow('02:00:00:00:00:09', '192.0.2.1')).toBe(false);
  });

  it('still limits while Redis is unreachable, each replica counting alone', async () => {
    const l = await limits('c');
    const redis = clients[clients.length - 1]!;
    await server.stop();
    await waitFor(() => redis.status !== 'ready', { what: 'the client noticing Redis gone' });
    const asked = [];
    for (let i = 0; i < 3; i++) asked.push(await l.allow('02:00:00:00:00:0a', '192.0.2.2'));
    expect(asked).toEqual([true, true, false]);
    await server.restart();
  });
});
