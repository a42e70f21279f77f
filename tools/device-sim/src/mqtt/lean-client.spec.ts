import { waitFor } from '@fleet/testing';
import { SharedClock } from '../clock/clock';
import { startRawBroker, type RawBroker } from '../../test/raw-broker';
import { LeanMqttClient, type LeanMqttHandlers, type LeanMqttOptions } from './lean-client';

class Recorder implements LeanMqttHandlers {
  readonly events: string[] = [];
  readonly messages: { topic: string; payload: string }[] = [];
  onConnected() {
    this.events.push('connected');
  }
  onDisconnected(wasConnected: boolean) {
    this.events.push(wasConnected ? 'disconnected' : 'failed');
  }
  onMessage(topic: string, payload: Buffer) {
    this.messages.push({ topic, payload: payload.toString() });
  }
  onConnackRefused(code: number) {
    this.events.push(`refused ${code}`);
  }
}

describe('the lean MQTT client', () => {
  let broker: RawBroker;
  let client: LeanMqttClient;
  let recorder: Recorder;

  const start = (overrides: Partial<LeanMqttOptions> = {}) => {
    recorder = new Recorder();
    client = new LeanMqttClient(
      {
        host: '127.0.0.1',
        port: broker.port,
        clientId: 'GID_x@@@a0_85_e3_f4_49_34@@@u',
        username: 'user',
        password: 'secret',
        keepaliveSec: 240,
        connectTimeoutMs: 2000,
        reconnect: { initialMs: 30, maxMs: 30, factor: 1, jitter: 0 },
        clock: new SharedClock(),
        ...overrides,
      },
      recorder,
    );
    client.start();
  };

  beforeEach(async () => {
    broker = await startRawBroker();
  });

  afterEach(async () => {
    client.destroy();
    await broker.close();
  });

  it('connects with MQTT 3.1.1, a clean session, its id, credentials and keepalive, and subscribes to nothing', async () => {
    start();
    await waitFor(() => client.connected);
    expect(broker.packets[0]?.packet).toMatchObject({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      clientId: 'GID_x@@@a0_85_e3_f4_49_34@@@u',
      keepalive: 240,
      username: 'user',
      password: Buffer.from('secret'),
    });
    expect(broker.packets[0]?.packet).not.toHaveProperty('will');
    expect(client.publish('device-server', '{"a":1}')).toBe(true);
    await waitFor(() => broker.packets.length === 2);
    expect(broker.packets[1]?.packet).toMatchObject({
      cmd: 'publish',
      topic: 'device-server',
      qos: 0,
      retain: false,
    });
    expect(broker.packets.some((p) => p.packet.cmd === 'subscribe')).toBe(false);
  });

  it('hands over every PUBLISH whatever the topic, and acknowledges QoS 1', async () => {
    start();
    await waitFor(() => client.connected);
    broker.send(0, {
      cmd: 'publish',
      topic: 'x/y',
      payload: Buffer.from('hi'),
      qos: 1,
      messageId: 7,
      retain: false,
      dup: false,
    });
    await waitFor(() => recorder.messages.length === 1);
    expect(recorder.messages).toEqual([{ topic: 'x/y', payload: 'hi' }]);
    await waitFor(() => broker.packets.some((p) => p.packet.cmd === 'puback'));
    expect(broker.packets.find((p) => p.packet.cmd === 'puback')?.packet).toMatchObject({ messageId: 7 });
  });

  it('sends PINGREQ when nothing else was sent for a keepalive period', async () => {
    start({ keepaliveSec: 1 });
    await waitFor(() => client.connected);
    client.publish('device-server', 'x');
    await waitFor(() => broker.packets.some((p) => p.packet.cmd === 'pingreq'), { timeoutMs: 3000 });
    const publish = broker.packets.find((p) => p.packet.cmd === 'publish')!;
    const ping = broker.packets.find((p) => p.packet.cmd === 'pingreq')!;
    // Counted from the last packet sent (the publish), not from the connect.
    expect(ping.at - publish.at).toBeGreaterThanOrEqual(990);
    expect(ping.at - publish.at).toBeLessThan(1500);
  });

  it('drops a connection whose PINGREQ goes unanswered, and reconnects', async () => {
    broker.answerPings = false;
    start({ keepaliveSec: 1 });
    await waitFor(() => recorder.events.filter((e) => e === 'connected').length === 2, { timeoutMs: 4000 });
    expect(recorder.events.slice(0, 2)).toEqual(['connected', 'disconnected']);
  });

  it('reports a refused CONNACK and keeps retrying with backoff', async () => {
    broker.connackCode = 5;
    start();
    await waitFor(() => recorder.events.filter((e) => e === 'refused 5').length >= 2);
    broker.connackCode = 0;
    await waitFor(() => client.connected);
    expect(recorder.events.slice(0, 2)).toEqual(['refused 5', 'failed']);
  });

  it('sends DISCONNECT on stop and does not come back', async () => {
    start();
    await waitFor(() => client.connected);
    await client.stop();
    expect(broker.packets.map((p) => p.packet.cmd)).toEqual(['connect', 'disconnect']);
    expect(client.connected).toBe(false);
    expect(broker.connections).toHaveLength(1);
  });

  it('reconnects by itself after a drop, without DISCONNECT', async () => {
    start();
    await waitFor(() => client.connected);
    client.drop();
    await waitFor(() => broker.packets.filter((p) => p.packet.cmd === 'connect').length === 2);
    expect(broker.packets.map((p) => p.packet.cmd)).toEqual(['connect', 'connect']);
  });
});
