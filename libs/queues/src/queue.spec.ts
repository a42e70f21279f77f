import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@fleet/testing';
import { createRedis, type Redis } from './redis';
import { QueueClient } from './queue-client';
import { createQueueWorker, HandlerRegistryError } from './queue-worker';
import type { JobData } from './jobs';

describe('the queue registry', () => {
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

  it('delivers a job to its handler with validated data', async () => {
    const calls = new QueueClient('calls', connection, 'test', 3);
    const received: JobData<'call.run'>[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const workerConnection = createRedis(redis.url);
    const worker = createQueueWorker(
      'calls',
      {
        'call.run': (data) => {
          received.push(data);
          done();
          return Promise.resolve();
        },
        'device.discover': () => Promise.resolve(),
      },
      { connection: workerConnection, prefix: 'test', partition: 3 },
    );
    const callId = randomUUID();
    await calls.add('call.run', { callId, deviceId: 'a0:85:e3:f4:49:34' });
    await finished;
    expect(received).toEqual([{ callId, deviceId: 'a0:85:e3:f4:49:34' }]);
    await worker.close();
    workerConnection.disconnect();
    await calls.close();
  });

  it('refuses data that does not fit the job schema before it reaches Redis', async () => {
    const calls = new QueueClient('calls', connection, 'test', 3);
    await expect(calls.add('call.run', { callId: 'not-a-uuid', deviceId: 'x' })).rejects.toThrow(/callId/);
    expect(await calls.queue.count()).toBe(0);
    await calls.close();
  });

  it('will not start a worker that lacks a handler for one of its jobs', () => {
    expect(() =>
      createQueueWorker('calls', {} as never, { connection, prefix: 'test', autorun: false }),
    ).toThrow(HandlerRegistryError);
  });
});
