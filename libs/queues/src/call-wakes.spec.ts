import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@fleet/testing';
import { callWakeStream, publishCallWakes, readCallWake } from './call-wakes';
import { DependencyUnavailableError } from './dependency-unavailable';
import { createRedis, createRequestRedis, type Redis } from './redis';

describe('call wake-ups', () => {
  let redis: TestRedis;
  let connection: Redis;

  beforeAll(async () => {
    redis = await startTestRedis();
    connection = createRedis(redis.url);
  });
  afterAll(async () => {
    connection.disconnect();
    await redis.stop();
  });

  it("puts each wake-up on its partition's stream, in order, as the reader reads it back", async () => {
    const callId = randomUUID();
    const other = randomUUID();
    await publishCallWakes(connection, 'test', [
      { partition: 7, wake: { kind: 'call', callId, deviceId: 'a0:85:e3:f4:49:34' } },
      { partition: 9, wake: { kind: 'call', callId: other, deviceId: 'a0:85:e3:f4:49:35' } },
      { partition: 7, wake: { kind: 'discover', deviceId: 'a0:85:e3:f4:49:34' } },
    ]);
    const entries = await connection.xrangeBuffer(callWakeStream('test', 7), '-', '+');
    expect(entries.map(([, fields]) => readCallWake(fields))).toEqual([
      { kind: 'call', callId, deviceId: 'a0:85:e3:f4:49:34' },
      { kind: 'discover', deviceId: 'a0:85:e3:f4:49:34' },
    ]);
    const nine = await connection.xrangeBuffer(callWakeStream('test', 9), '-', '+');
    expect(nine.map(([, fields]) => readCallWake(fields))).toEqual([
      { kind: 'call', callId: other, deviceId: 'a0:85:e3:f4:49:35' },
    ]);
    expect(await connection.xlen(callWakeStream('test', 8))).toBe(0);
  });

  it('refuses a wake-up that does not fit its schema before it reaches Redis, and reads none back', async () => {
    await expect(
      publishCallWakes(connection, 'test', [
        { partition: 3, wake: { kind: 'call', callId: 'nope', deviceId: 'x' } },
      ]),
    ).rejects.toThrow(/callId/);
    expect(await connection.xlen(callWakeStream('test', 3))).toBe(0);
    expect(readCallWake([Buffer.from('w'), Buffer.from('{"kind":"call","callId":1}')])).toBeUndefined();
    expect(readCallWake([Buffer.from('w'), Buffer.from('not json')])).toBeUndefined();
  });

  it('says Redis is unavailable when a fail-fast connection cannot reach it', async () => {
    const down = createRequestRedis('redis://127.0.0.1:1', { retryStrategy: () => null });
    await expect(
      publishCallWakes(down, 'test', [
        { partition: 1, wake: { kind: 'discover', deviceId: 'a0:85:e3:f4:49:34' } },
      ]),
    ).rejects.toBeInstanceOf(DependencyUnavailableError);
    down.disconnect();
  });
});
