import { createLogger } from '@fleet/telemetry';
import { startTestRedis, waitFor, type TestRedis } from '@fleet/testing';
import { createRedis, type Redis } from './redis';
import { SessionStreamReader } from './session-stream-reader';

describe('the session stream reader', () => {
  let redis: TestRedis;
  let commands: Redis;
  let blocking: Redis;

  beforeAll(async () => {
    redis = await startTestRedis();
    commands = createRedis(redis.url);
    blocking = createRedis(redis.url);
  });
  afterAll(async () => {
    commands.disconnect();
    blocking.disconnect();
    await redis.stop();
  });

  it('hears a stream watched between two reads at once, not when the next read gives up', async () => {
    const heard: string[] = [];
    // A session opened between two reads: here, while the reader hands out what its last read returned.
    const watchNext = (id: string) => {
      const next = String.fromCharCode(id.charCodeAt(0) + 1);
      if (next > 'c') return;
      reader.watch(next, Date.now() - 1_000);
      void commands.xadd(`test:stream:${next}`, '*', 'v', `hello ${next}`);
    };
    const reader: SessionStreamReader<string> = new SessionStreamReader<string>({
      blocking,
      commands,
      wakeKey: 'test:reader-wake',
      streamOf: (id) => `test:stream:${id}`,
      read: (fields) => fields[1]!.toString(),
      deliver: (id, entry) => {
        heard.push(`${id}:${entry}`);
        watchNext(id);
      },
      count: 100,
      // Far longer than the wait below: only the wake can end the read in time.
      blockMs: 120_000,
      what: 'test',
      logger: createLogger('reader-test', 'silent'),
    });
    reader.start();
    try {
      reader.watch('a', Date.now() - 1_000);
      await commands.xadd('test:stream:a', '*', 'v', 'hello a');
      await waitFor(() => Promise.resolve(heard.length === 3 || undefined), {
        what: 'every watched stream heard',
        timeoutMs: 10_000,
      });
      expect(heard.sort()).toEqual(['a:hello a', 'b:hello b', 'c:hello c']);
    } finally {
      await reader.stop();
    }
  });
});
