import type { MqttClient } from 'mqtt';
import { waitFor } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';
import { halfSentFlood, HALF_SENT, loopbackAddresses, type Flood } from '../../test/half-sent-flood';
import { readMetrics } from '../../test/metric-value';
import { bootCredentials, connectLikeDevice, newDeviceIdentity } from '../../test/stock-device';

const PER_ADDRESS = 20;
const PENDING_MAX = 100;

// The budget's limits lowered so that a flood of a few thousand connections shows in seconds what 20,000 would
// do to the defaults. Devices come from 127.0.0.1, strangers from other loopback addresses.
describe('the connection budget under a flood of half-sent requests', () => {
  let f: BrokerFixture;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    f = await startBrokerFixture({
      EDGE_PENDING_PER_ADDRESS: String(PER_ADDRESS),
      EDGE_PENDING_MAX: String(PENDING_MAX),
      EDGE_HEADERS_TIMEOUT_MS: '1500',
      EDGE_CONNECT_TIMEOUT_MS: '1500',
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await f.close();
  });

  const metrics = () => readMetrics(f.httpUrl);
  const refusals = async (labels: Record<string, string> = {}) =>
    (await metrics()).value('broker_edge_refusals_total', labels);

  /** A device from 127.0.0.1 checks in over HTTP and its MQTT CONNECT is accepted. */
  async function deviceGetsIn(): Promise<void> {
    const creds = await bootCredentials(f.httpUrl, newDeviceIdentity());
    const client = await connectLikeDevice(creds);
    clients.push(client);
    expect(client.connected).toBe(true);
  }

  async function cutAtTheTimeout(flood: Flood, refusedBefore: number): Promise<void> {
    await flood.closed;
    // Every flood connection was refused at accept, gave way to a newer one, or was cut at its timeout.
    await waitFor(async () => (await refusals()) - refusedBefore === flood.size, {
      what: 'every flood connection counted',
    });
    // The request that reads the metrics is a device HTTP connection of its own, pending while it is read.
    await waitFor(
      async () => {
        const m = await metrics();
        const pending = m.value('broker_edge_pending_connections');
        return (
          pending - m.value('broker_edge_pending_connections', { listener: 'http' }) === 0 && pending <= 1
        );
      },
      { what: 'nothing left pending' },
    );
  }

  it("keeps a device's check-in and MQTT CONNECT answering through 3,000 half-sent upgrades from one address, and cuts those it held at the timeout", async () => {
    const before = await refusals();
    const timedOutBefore = await refusals({ reason: 'handshake_timeout' });
    const flood = halfSentFlood(
      3000,
      [{ port: f.broker.ports.link, bytes: HALF_SENT.upgrade }],
      ['127.0.0.2'],
    );
    await flood.opened;
    const held = await metrics();
    expect(held.value('broker_edge_pending_connections', { listener: 'link' })).toBeLessThanOrEqual(
      PER_ADDRESS,
    );
    expect(held.value('broker_edge_refusals_total', { reason: 'per_address' })).toBeGreaterThan(0);

    await deviceGetsIn();

    await cutAtTheTimeout(flood, before);
    expect((await refusals({ reason: 'handshake_timeout' })) - timedOutBefore).toBeGreaterThanOrEqual(
      PER_ADDRESS,
    );
  });

  it('lets a device in past a crowd of addresses filling every listener: the longest-pending connections give way', async () => {
    const before = await refusals();
    const { ports } = f.broker;
    const flood = halfSentFlood(
      1200,
      [
        { port: ports.link, bytes: HALF_SENT.upgrade },
        { port: ports.http, bytes: HALF_SENT.request },
        { port: ports.mqtt, bytes: HALF_SENT.mqtt },
        { port: ports.ws, bytes: HALF_SENT.upgrade },
      ],
      loopbackAddresses(10, 60),
    );
    await flood.opened;
    const held = await metrics();
    expect(held.value('broker_edge_pending_connections')).toBeLessThanOrEqual(PENDING_MAX);
    expect(held.value('broker_edge_refusals_total', { reason: 'evicted' })).toBeGreaterThan(0);
    // Every listener took its part of the crowd under the one budget.
    const touched = ['link', 'http', 'mqtt', 'mqtt_ws'].filter(
      (listener) =>
        held.value('broker_edge_pending_connections', { listener }) +
          held.value('broker_edge_refusals_total', { listener }) >
        0,
    );
    expect(touched).toEqual(['link', 'http', 'mqtt', 'mqtt_ws']);

    await deviceGetsIn();

    await cutAtTheTimeout(flood, before);
  });
});
