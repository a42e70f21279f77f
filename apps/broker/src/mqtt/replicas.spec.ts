import type { MqttClient } from 'mqtt';
import { decodeUplinkWrapper, presenceEventSchema, signMqttPassword } from '@fleet/protocol';
import { waitFor } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';
import { bootCredentials, connectLikeDevice, newDeviceIdentity } from '../../test/stock-device';

function collect(client: MqttClient): { topic: string; payload: Buffer }[] {
  const seen: { topic: string; payload: Buffer }[] = [];
  client.on('message', (topic, payload) => seen.push({ topic, payload }));
  return seen;
}

describe('two broker replicas sharing Redis', () => {
  let f: BrokerFixture;
  let replicaPort: number;
  let replicaHttpPort: number;

  beforeAll(async () => {
    f = await startBrokerFixture();
    const replica = await f.startReplica();
    replicaPort = replica.ports.mqtt;
    replicaHttpPort = replica.ports.http;
  });
  afterAll(() => f.close());

  it('deliver across each other: a service on one reaches a device on the other, and back', async () => {
    const orchestrator = await f.connectService('orchestrator'); // on the first replica
    const fleet = collect(orchestrator);
    await orchestrator.subscribeAsync('fleet/devices/#');
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const device = await connectLikeDevice(creds, { port: replicaPort }); // on the second
    const mac_ = identity.mac.replace(/:/g, '_');
    await waitFor(() => fleet.some((m) => m.topic === `fleet/devices/${mac_}/presence`), {
      what: 'presence across replicas',
    });

    const atDevice = collect(device);
    const downlink =
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":5,"method":"tools/list"}}';
    await orchestrator.publishAsync(`devices/p2p/${mac_}`, downlink);
    await waitFor(() => atDevice.length > 0, { what: 'the downlink through the other replica' });
    expect(atDevice[0]!.payload.toString()).toBe(downlink);

    const reply = '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}}';
    await device.publishAsync('device-server', reply);
    const wrapped = await waitFor(() => fleet.find((m) => m.topic === `fleet/devices/${mac_}/up/mcp`));
    const decoded = decodeUplinkWrapper(wrapped.payload);
    expect(decoded.ok && Buffer.from(decoded.value.bytes).toString()).toBe(reply);
    await device.endAsync();
  });

  it('close the older connection when a device reconnects through the other replica, and say takeover', async () => {
    const orchestrator = await f.connectService('orchestrator');
    const fleet = collect(orchestrator);
    await orchestrator.subscribeAsync('fleet/devices/+/presence');
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const first = await connectLikeDevice(creds, { port: replicaPort });
    const firstClosed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    await waitFor(() => fleet.some((m) => m.payload.toString().includes(identity.mac)));
    const second = await connectLikeDevice(creds); // the first replica
    await firstClosed;
    const events = () =>
      fleet
        .map((m) => presenceEventSchema.parse(JSON.parse(m.payload.toString())))
        .filter((e) => e.mac === identity.mac);
    const offline = await waitFor(() => events().find((e) => e.state === 'offline'));
    expect(offline.reason).toBe('takeover');
    // The two replicas publish independently: the newer 'online' may arrive after the older 'offline'.
    const [older, newer] = await waitFor(() => {
      const online = events().filter((e) => e.state === 'online');
      return online.length === 2 && online;
    });
    expect(offline.connectionId).toBe(older!.connectionId);
    expect(newer!.brokerId).not.toBe(older!.brokerId);
    await waitFor(
      async () => {
        const { rows } = await f.sql.query('SELECT online, connection_id FROM device WHERE id = $1', [
          identity.mac,
        ]);
        return rows[0].online && rows[0].connection_id === newer!.connectionId;
      },
      { what: 'the device row on the newer connection' },
    );
    await second.endAsync();
  });

  it('close the older connection of a device that connects to the other replica under another client id', async () => {
    const orchestrator = await f.connectService('orchestrator');
    const fleet = collect(orchestrator);
    await orchestrator.subscribeAsync('fleet/devices/+/presence');
    const identity = newDeviceIdentity();
    const first = await connectLikeDevice(await bootCredentials(f.httpUrl, identity), { port: replicaPort });
    const firstClosed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    await waitFor(() => fleet.some((m) => m.payload.toString().includes(identity.mac)));
    const second = await connectLikeDevice(
      await bootCredentials(f.httpUrl, { ...identity, board: 'esp-box-3' }),
    );
    await firstClosed;
    const events = () =>
      fleet
        .map((m) => presenceEventSchema.parse(JSON.parse(m.payload.toString())))
        .filter((e) => e.mac === identity.mac);
    const offline = await waitFor(() => events().find((e) => e.state === 'offline'));
    expect(offline.reason).toBe('takeover');
    const newer = await waitFor(() =>
      events().find((e) => e.state === 'online' && e.connectionId !== offline.connectionId),
    );
    await waitFor(
      async () => {
        const { rows } = await f.sql.query('SELECT online, connection_id FROM device WHERE id = $1', [
          identity.mac,
        ]);
        return rows[0].online && rows[0].connection_id === newer.connectionId;
      },
      { what: 'the device row on the newer connection' },
    );
    const replicaMetrics = await (await fetch(`http://127.0.0.1:${replicaHttpPort}/metrics`)).text();
    expect(replicaMetrics).toMatch(/broker_takeovers_total\{scope="remote",service="broker"\} [1-9]/);
    expect(second.connected).toBe(true);
    await second.endAsync();
  });
});

describe('signing key rotation', () => {
  let f: BrokerFixture;

  beforeAll(async () => {
    f = await startBrokerFixture({
      DEVICE_SIGNING_KEYS: 'the-new-signing-key-0123456789,the-old-signing-key-0123456789',
    });
  });
  afterAll(() => f.close());

  it('keeps devices that were given credentials under the old key connecting, and signs new ones with the new key', async () => {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    expect(creds.password).toBe(
      signMqttPassword('the-new-signing-key-0123456789', creds.client_id, creds.username),
    );
    const before = await connectLikeDevice(creds, {
      password: signMqttPassword('the-old-signing-key-0123456789', creds.client_id, creds.username),
    });
    expect(before.connected).toBe(true);
    await before.endAsync();
    const after = await connectLikeDevice(creds);
    expect(after.connected).toBe(true);
    await after.endAsync();
  });
});
