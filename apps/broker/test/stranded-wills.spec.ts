import mqtt, { type MqttClient } from 'mqtt';
import { createRedis, type Redis } from '@fleet/queues';
import { waitFor, type ServiceProcess } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from './broker-fixture';
import { watchFleet, type FleetWatch } from './fleet-watch';
import { readMetrics } from './metric-value';
import { bootCredentials, connectLikeDevice, newDeviceIdentity, type MqttSection } from './stock-device';

const DOOMED = 'doomed-broker';

// A broker replica is SIGKILLed holding its clients' wills in Redis (aedes-persistence-redis keeps them under the
// broker's id); a live replica sweeps them.
describe('wills of a broker that died', () => {
  let f: BrokerFixture;
  let doomed: ServiceProcess;
  let fleet: FleetWatch;
  let redis: Redis;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    f = await startBrokerFixture({ REPLICA_LIVENESS_TTL_MS: '1000' });
    fleet = await watchFleet(await f.connectService('orchestrator'));
    redis = createRedis(f.redis.url);
    doomed = await f.startReplicaProcess({ BROKER_ID: DOOMED }); // the fixture's liveness TTL too
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await doomed?.stop('SIGKILL');
    redis?.disconnect();
    await f.close();
  });

  /** A device checked in, connected to the doomed replica with a will. */
  async function withWill(will: mqtt.IClientOptions['will']) {
    const identity = newDeviceIdentity();
    const creds: MqttSection = await bootCredentials(f.httpUrl, identity);
    const client = await mqtt.connectAsync({
      host: '127.0.0.1',
      port: doomed.ports['mqtt'],
      protocolVersion: 4,
      clientId: creds.client_id,
      username: creds.username,
      password: creds.password,
      reconnectPeriod: 0,
      will,
    });
    client.on('error', () => undefined);
    clients.push(client);
    const online = await waitFor(() => fleet.online(identity.mac)[0], { what: `${identity.mac} online` });
    return { mac: identity.mac, connectionId: online.connectionId };
  }
  const doomedWills = async () => (await redis.lrange('will', 0, -1)).filter((key) => key.includes(DOOMED));

  it("judges each by its device's rights, publishes the allowed one bound to its connection, deletes them all, and never stops at a refusal", async () => {
    const victim = newDeviceIdentity();
    const victimClient = await connectLikeDevice(await bootCredentials(f.httpUrl, victim));
    clients.push(victimClient);
    const atVictim: string[] = [];
    victimClient.on('message', (_topic, payload) => atVictim.push(payload.toString()));
    const mac_ = victim.mac.replace(/:/g, '_');

    // Stored in this order: the refused wills come before the allowed one.
    await withWill({
      topic: `devices/p2p/${mac_}`,
      payload: Buffer.from('{"type":"mcp","forged":true}'),
      qos: 0,
      retain: false,
    });
    await withWill({
      topic: 'device-server',
      payload: Buffer.from('{"type":"retained"}'),
      qos: 0,
      retain: true,
    });
    const allowedPayload = '{"session_id":"","type":"goodbye","reason":"will"}';
    const allowed = await withWill({
      topic: 'device-server',
      payload: Buffer.from(allowedPayload),
      qos: 0,
      retain: false,
    });
    await waitFor(async () => (await doomedWills()).length === 3, {
      what: 'three wills stored under the doomed id',
    });

    await doomed.stop('SIGKILL');

    const published = await waitFor(() => fleet.uplinks(allowed.mac).find((u) => u.text === allowedPayload), {
      what: 'the allowed will, published as the device uplink',
      timeoutMs: 20_000,
    });
    expect(published.wrapper.connectionId).toBe(allowed.connectionId);
    await waitFor(async () => (await doomedWills()).length === 0, { what: 'every doomed will deleted' });
    const metrics = await readMetrics(f.httpUrl);
    expect({
      published: metrics.value('broker_stranded_wills_total', { outcome: 'published' }),
      foreignTopic: metrics.value('broker_stranded_wills_total', { outcome: 'device_topic' }),
      retained: metrics.value('broker_stranded_wills_total', { outcome: 'retain' }),
    }).toEqual({ published: 1, foreignTopic: 1, retained: 1 });
    expect(atVictim).toEqual([]);
    expect(f.logs.filter((line) => line.includes('broker internal error'))).toEqual([]);
  }, 60_000);
});
