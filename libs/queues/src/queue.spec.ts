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
    const webhooks = new QueueClient('webhooks', connection, 'test');
    const received: JobData<'webhook.deliver'>[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const workerConnection = createRedis(redis.url);
    const worker = createQueueWorker(
      'webhooks',
      {
        'webhook.deliver': (data) => {
          received.push(data);
          done();
          return Promise.resolve();
        },
      },
      { connection: workerConnection, prefix: 'test' },
    );
    const deliveryId = randomUUID();
    await webhooks.add('webhook.deliver', { deliveryId });
    await finished;
    expect(received).toEqual([{ deliveryId }]);
    await worker.close();
    workerConnection.disconnect();
    await webhooks.close();
  });

  it('refuses data that does not fit the job schema before it reaches Redis', async () => {
    const webhooks = new QueueClient('webhooks', connection, 'test');
    await expect(webhooks.add('webhook.deliver', { deliveryId: 'not-a-uuid' })).rejects.toThrow(/deliveryId/);
    expect(await webhooks.queue.count()).toBe(0);
    await webhooks.close();
  });

  it("leaves the caller's connection without BullMQ's scripts, and closes its own connection", async () => {
    // ioredis copies every script defined on a connection into each pipeline built on it.
    const given = createRedis(redis.url, { enableAutoPipelining: true });
    try {
      const webhooks = new QueueClient('webhooks', given, 'test');
      await webhooks.add('webhook.deliver', { deliveryId: randomUUID() });
      expect(await webhooks.queue.count()).toBe(1);
      await webhooks.close();
      expect(Object.keys(given.scriptsSet)).toEqual([]);
      expect(await given.ping()).toBe('PONG');
    } finally {
      given.disconnect();
    }
  });

  it('will not start a worker that lacks a handler for one of its jobs', () => {
    expect(() =>
      createQueueWorker('webhooks', {} as never, { connection, prefix: 'test', autorun: false }),
    ).toThrow(HandlerRegistryError);
  });
});
