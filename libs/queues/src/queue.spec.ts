import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@fleet/testing';
import { createRedis, type Redis } from './redis';
import { QueueClient } from './queue-client';
import { closeQueueWorker, createQueueWorker, HandlerRegistryError } from './queue-worker';
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

  it('close a producer and a worker whose Redis never answered, at once and without an unheard error', async () => {
    // Nothing listens on port 1: the links keep reconnecting, and BullMQ's check of them would wait forever.
    const unreachable = 'redis://127.0.0.1:1';
    const given = createRedis(unreachable);
    given.on('error', () => undefined);
    const workerLink = createRedis(unreachable);
    workerLink.on('error', () => undefined);
    try {
      const producer = new QueueClient('webhooks', given, 'test');
      const worker = createQueueWorker(
        'webhooks',
        { 'webhook.deliver': () => Promise.resolve() },
        { connection: workerLink, prefix: 'test' },
      );
      await Promise.all([producer.close(), closeQueueWorker(worker, workerLink)]);
      // An error BullMQ emitted with no listener left would have been thrown by now, failing this test.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(worker.closing).toBeDefined();
    } finally {
      given.disconnect();
      workerLink.disconnect();
    }
  });

  it('will not start a worker that lacks a handler for one of its jobs', () => {
    expect(() =>
      createQueueWorker('webhooks', {} as never, { connection, prefix: 'test', autorun: false }),
    ).toThrow(HandlerRegistryError);
  });
});
