import type { PlatformEvent } from '@fleet/domain';
import { createRedis, type Redis } from '@fleet/queues';
import { startTestRedis, waitFor, type TestRedis } from '@fleet/testing';
import { PlatformEventBus, subscribePlatformEvents } from './platform-event-bus';

describe('the platform event bus', () => {
  let testRedis: TestRedis;
  let publisher: Redis;
  let subscriber: Redis;

  beforeAll(async () => {
    testRedis = await startTestRedis();
    publisher = createRedis(testRedis.url);
    subscriber = createRedis(testRedis.url);
  });
  afterAll(async () => {
    publisher.disconnect();
    subscriber.disconnect();
    await testRedis.stop();
  });

  it('delivers the notices of one turn, and of the next, each once and in the order they were published', async () => {
    const seen: string[] = [];
    await subscribePlatformEvents(subscriber, (e) => seen.push(e.type === 'call' ? e.state : e.type));
    const bus = new PlatformEventBus(publisher);
    const call = (state: 'sending' | 'sent' | 'finished'): PlatformEvent => ({
      type: 'call',
      callId: '00000000-0000-4000-8000-000000000001',
      deviceId: 'a0:85:e3:00:00:01',
      tool: 'self.get_device_status',
      state,
      ...(state === 'finished' ? { verdict: 'verified' as const } : {}),
      at: new Date().toISOString(),
    });
    bus.publish(call('sending'));
    bus.publish(call('sent'));
    await new Promise((resolve) => setImmediate(resolve));
    bus.publish(call('finished'));
    await waitFor(() => Promise.resolve(seen.length === 3 || undefined), { what: 'three notices' });
    expect(seen).toEqual(['sending', 'sent', 'finished']);
  });
});
