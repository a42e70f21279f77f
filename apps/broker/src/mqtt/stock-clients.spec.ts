import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import type { MqttClient } from 'mqtt';
import { decodeUplinkWrapper, signMqttPassword } from '@fleet/protocol';
import { waitFor } from '@fleet/testing';
import { SERVICE_SECRETS, startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';
import { bootCredentials, connectLikeDevice, newDeviceIdentity } from '../../test/stock-device';

// Clients nobody here wrote: Mosquitto's command-line tools (Debian mosquitto-clients) against our broker.
function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args);
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the broker with Mosquitto clients', () => {
  let f: BrokerFixture;

  beforeAll(async () => {
    f = await startBrokerFixture();
  });
  afterAll(() => f.close());

  const port = () => String(f.broker.ports.mqtt);

  it('takes a device publish from mosquitto_pub with the OTA credentials and hands it wrapped to mosquitto_sub', async () => {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const sub = spawn('mosquitto_sub', [
      '-h',
      '127.0.0.1',
      '-p',
      port(),
      '-V',
      'mqttv311',
      '-u',
      'orchestrator',
      '-P',
      SERVICE_SECRETS.orchestrator,
      '-i',
      'orchestrator-mosquitto-sub',
      '-t',
      `fleet/devices/${identity.mac.replace(/:/g, '_')}/up/#`,
      '-C',
      '1',
    ]);
    let received = '';
    sub.stdout.on('data', (d: Buffer) => (received += d.toString()));
    const subscribed = waitFor(async () => {
      const metrics = await (await fetch(`${f.httpUrl}/metrics`)).text();
      return /broker_connects_total\{kind="service",service="broker"\} [1-9]/.test(metrics);
    });
    await subscribed;
    // mosquitto_sub subscribes right after CONNACK; give the SUBSCRIBE its round trip by waiting for a retry loop.
    const message = '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"result":{}}}';
    await waitFor(
      async () => {
        const pub = await run('mosquitto_pub', [
          '-h',
          '127.0.0.1',
          '-p',
          port(),
          '-V',
          'mqttv311',
          '-i',
          creds.client_id,
          '-u',
          creds.username,
          '-P',
          creds.password,
          '-t',
          'device-server',
          '-m',
          message,
        ]);
        expect(pub.code).toBe(0);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return received.length > 0;
      },
      { what: 'the wrapped message at mosquitto_sub' },
    );
    const wrapper = decodeUplinkWrapper(received.trim());
    expect(wrapper.ok && Buffer.from(wrapper.value.bytes).toString()).toBe(message);
    sub.kill();
  });

  it('refuses mosquitto_pub with a wrong password', async () => {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const pub = await run('mosquitto_pub', [
      '-h',
      '127.0.0.1',
      '-p',
      port(),
      '-V',
      'mqttv311',
      '-i',
      creds.client_id,
      '-u',
      creds.username,
      '-P',
      signMqttPassword('not-our-key', creds.client_id, creds.username),
      '-t',
      'device-server',
      '-m',
      '{}',
    ]);
    expect(pub.code).not.toBe(0);
    expect(pub.output).toMatch(/bad user name or password|not authori[sz]ed|refused/i);
  });

  it('refuses mosquitto_sub when a device asks for another device topic', async () => {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const sub = await run('mosquitto_sub', [
      '-h',
      '127.0.0.1',
      '-p',
      port(),
      '-V',
      'mqttv311',
      '-i',
      creds.client_id,
      '-u',
      creds.username,
      '-P',
      creds.password,
      '-t',
      'devices/p2p/00_00_00_00_00_09',
      '-C',
      '1',
      '-W',
      '2',
    ]);
    expect(sub.output).toMatch(/denied|refused|failed/i);
  });
});

describe('the broker against bad input', () => {
  let f: BrokerFixture;

  beforeAll(async () => {
    f = await startBrokerFixture({ MAX_PACKET_BYTES: '4096' });
  });
  afterAll(() => f.close());

  it('drops a connection whose packet is over the size limit and stays up for everyone else', async () => {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const device: MqttClient = await connectLikeDevice(creds);
    const gone = new Promise<void>((resolve) => device.once('close', () => resolve()));
    device.publish('device-server', Buffer.alloc(10_000, 0x41));
    await gone;
    const metrics = await (await fetch(`${f.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/broker_malformed_input_total\{kind="mqtt_oversized",service="broker"\} [1-9]/);
    const again = await connectLikeDevice(creds);
    expect(again.connected).toBe(true);
    await again.endAsync();
  });

  it('survives garbage bytes and a truncated CONNECT', async () => {
    for (const bytes of [
      Buffer.from('GET / HTTP/1.1\r\n\r\n'),
      Buffer.from([0x10, 0x7f, 0x00, 0x04, 0x4d]),
      Buffer.alloc(64, 0xff),
    ]) {
      await new Promise<void>((resolve) => {
        const socket = createConnection(f.broker.ports.mqtt, '127.0.0.1', () => socket.end(bytes));
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
        socket.setTimeout(2_000, () => socket.destroy());
      });
    }
    const health = await fetch(`${f.httpUrl}/healthz`);
    expect(health.status).toBe(200);
  });
});
