import { PlatformEventBus } from '@fleet/platform-client';
import { createRedis, type Redis } from '@fleet/queues';
import { waitFor } from '@fleet/testing';
import { openStream } from '../../test/event-stream';
import { startHarness, type Harness, type Person } from '../../test/harness';

describe('live events', () => {
  let h: Harness;
  let viewer: Person;
  let operator: Person;
  let redis: Redis;
  let bus: PlatformEventBus;

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
    operator = await h.person('operator');
    redis = createRedis(h.redis.url);
    bus = new PlatformEventBus(redis);
  });
  afterAll(async () => {
    redis.disconnect();
    await h.stop();
  });

  const at = new Date().toISOString();

  it('relays a published platform event to an open stream', async () => {
    const stream = await openStream(h, viewer.key);
    bus.publish({ type: 'presence', deviceId: 'a0:00:00:00:00:01', state: 'online', connectionId: 'c1', at });
    const received = await waitFor(() => stream.events.find((e) => e.type === 'presence'), {
      what: 'the presence event',
    });
    expect(received.data).toEqual({
      type: 'presence',
      deviceId: 'a0:00:00:00:00:01',
      state: 'online',
      connectionId: 'c1',
      at,
    });
    stream.close();
  });

  it("filters events by the caller's role: voice turns only reach operators", async () => {
    const asViewer = await openStream(h, viewer.key);
    const asOperator = await openStream(h, operator.key);
    bus.publish({
      type: 'voice_turn',
      turnId: '9a4c2f8e-0000-4000-8000-000000000001',
      deviceId: 'a0:00:00:00:00:01',
      state: 'thinking',
      at,
    });
    bus.publish({
      type: 'campaign',
      campaignId: '9a4c2f8e-0000-4000-8000-000000000002',
      state: 'paused',
      at,
    });
    // Events arrive in publish order: once the later campaign notice is in, the voice turn would have been too.
    await waitFor(() => asViewer.events.some((e) => e.type === 'campaign'), {
      what: 'the campaign event (viewer)',
    });
    await waitFor(() => asOperator.events.some((e) => e.type === 'campaign'), {
      what: 'the campaign event (operator)',
    });
    expect(asViewer.events.map((e) => e.type)).toEqual(['campaign']);
    expect(asOperator.events.map((e) => e.type)).toEqual(['voice_turn', 'campaign']);
    asViewer.close();
    asOperator.close();
  });

  it('narrows the stream to the types asked for', async () => {
    const stream = await openStream(h, viewer.key, '?types=call');
    bus.publish({
      type: 'presence',
      deviceId: 'a0:00:00:00:00:02',
      state: 'offline',
      connectionId: 'c2',
      at,
    });
    bus.publish({ type: 'call', callId: 'c', deviceId: 'a0:00:00:00:00:02', tool: 't', state: 'queued', at });
    await waitFor(() => stream.events.length > 0, { what: 'the call event' });
    expect(stream.events.map((e) => e.type)).toEqual(['call']);
    stream.close();
    const bad = await h.request('GET', '/api/v1/events?types=weather', { key: viewer.key });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].field).toMatch(/^query\.types/);
  });

  it('refuses a stream without credentials', async () => {
    const r = await fetch(`${h.baseUrl}/api/v1/events`);
    expect(r.status).toBe(401);
  });
});
