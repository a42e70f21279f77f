import mqtt, { type MqttClient } from 'mqtt';
import { decodeUplinkWrapper, presenceEventSchema } from '@fleet/protocol';
import { CONTROL_CHANNEL, createRedis, publishControl } from '@fleet/queues';
import { waitFor } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';
import {
  bootCredentials,
  connectLikeDevice,
  newDeviceIdentity,
  type MqttSection,
} from '../../test/stock-device';

async function metricsOf(httpUrl: string): Promise<string> {
  return (await fetch(`${httpUrl}/metrics`)).text();
}

function collect(client: MqttClient): { topic: string; payload: Buffer }[] {
  const seen: { topic: string; payload: Buffer }[] = [];
  client.on('message', (topic, payload) => seen.push({ topic, payload }));
  return seen;
}

function closed(client: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    if (client.disconnected || !client.connected) return resolve();
    client.once('close', () => resolve());
  });
}

describe('the device edge', () => {
  let f: BrokerFixture;
  let orchestrator: MqttClient;
  let fleet: { topic: string; payload: Buffer }[];

  beforeAll(async () => {
    f = await startBrokerFixture();
    orchestrator = await f.connectService('orchestrator');
    fleet = collect(orchestrator);
    await orchestrator.subscribeAsync('fleet/devices/#');
  });
  afterAll(() => f.close());

  async function bootDevice(): Promise<{ mac: string; creds: MqttSection; client: MqttClient }> {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const client = await connectLikeDevice(creds);
    const mac = identity.mac;
    await waitFor(
      () => fleet.some((m) => m.topic.endsWith('/presence') && m.payload.toString().includes(mac)),
      {
        what: 'the online presence event',
      },
    );
    return { mac, creds, client };
  }

  it('reaches a device on devices/p2p/<mac_> that subscribed to nothing', async () => {
    const { mac, client } = await bootDevice();
    const received = collect(client);
    const downlink =
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}';
    await orchestrator.publishAsync(`devices/p2p/${mac.replace(/:/g, '_')}`, downlink);
    await waitFor(() => received.length > 0, { what: 'the downlink at the device' });
    expect(received[0]!.payload.toString()).toBe(downlink);
    await client.endAsync();
  });

  it("wraps a device's publish with its own identity and the exact bytes on its fleet topic", async () => {
    const { mac, client } = await bootDevice();
    // Unescaped error text, as the firmware sends it: invalid JSON that evidence must keep verbatim.
    const raw =
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":7,"error":{"message":"Failed: "x""}}}';
    await client.publishAsync('device-server', raw);
    const topic = `fleet/devices/${mac.replace(/:/g, '_')}/up/mcp`;
    const message = await waitFor(() => fleet.find((m) => m.topic === topic), { what: 'the wrapped uplink' });
    const wrapper = decodeUplinkWrapper(message.payload);
    expect(wrapper.ok).toBe(true);
    if (!wrapper.ok) return;
    expect(wrapper.value.mac).toBe(mac);
    expect(Buffer.from(wrapper.value.bytes).toString()).toBe(raw);
    const { rows } = await f.sql.query('SELECT connection_id FROM device WHERE id = $1', [mac]);
    expect(wrapper.value.connectionId).toBe(rows[0].connection_id);
    await client.endAsync();
  });

  it('sorts uplinks by kind: mcp, voice and other', async () => {
    const { mac, client } = await bootDevice();
    await client.publishAsync('device-server', '{"session_id":"","type":"listen","state":"stop"}');
    await client.publishAsync('device-server', '{"session_id":"","type":"something-new"}');
    const base = `fleet/devices/${mac.replace(/:/g, '_')}/up/`;
    await waitFor(
      () => fleet.some((m) => m.topic === `${base}voice`) && fleet.some((m) => m.topic === `${base}other`),
    );
    await client.endAsync();
  });

  it('closes a device that publishes anywhere but device-server, and counts it', async () => {
    const { client } = await bootDevice();
    const gone = closed(client);
    client.publish('devices/p2p/00_00_00_00_00_01', '{"type":"mcp"}');
    await gone;
    const metrics = await (await fetch(`${f.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /broker_access_refusals_total\{action="publish",reason="device_topic",service="broker"\} [1-9]/,
    );
  });

  it("refuses a will on another device's topic when the connection drops, and the drop keeps its own reason", async () => {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const [host, port] = creds.endpoint.split(':');
    const client = await mqtt.connectAsync({
      host,
      port: Number(port),
      clientId: creds.client_id,
      username: creds.username,
      password: creds.password,
      reconnectPeriod: 0,
      will: {
        topic: 'devices/p2p/00_00_00_00_00_01',
        payload: Buffer.from('{"type":"mcp"}'),
        qos: 0,
        retain: false,
      },
    });
    client.on('error', () => undefined);
    const presenceOf = () =>
      fleet
        .filter((m) => m.topic.endsWith('/presence') && m.payload.toString().includes(identity.mac))
        .map((m) => presenceEventSchema.parse(JSON.parse(m.payload.toString())));
    await waitFor(() => presenceOf().some((p) => p.state === 'online'), { what: 'online' });
    const refusedBefore = (await metricsOf(f.httpUrl)).match(
      /broker_access_refusals_total\{action="publish",reason="device_topic",service="broker"\} (\d+)/,
    )?.[1];
    client.stream.destroy(); // Wi-Fi gone: no DISCONNECT, so the will is due
    const offline = await waitFor(() => presenceOf().find((p) => p.state === 'offline'), { what: 'offline' });
    expect(offline.reason).toBe('connection_lost');
    const refusedAfter = (await metricsOf(f.httpUrl)).match(
      /broker_access_refusals_total\{action="publish",reason="device_topic",service="broker"\} (\d+)/,
    )?.[1];
    expect(Number(refusedAfter)).toBe(Number(refusedBefore ?? 0) + 1);
  });

  it("refuses a device's subscription to another device's topic but allows its own", async () => {
    const { mac, client } = await bootDevice();
    // The SUBACK's return codes as they came over the wire (mqtt.js reports a refusal as an error).
    const granted = new Promise<number[]>((resolve) =>
      client.on('packetreceive', (packet) => {
        if (packet.cmd === 'suback') resolve(packet.granted as number[]);
      }),
    );
    client.subscribe(
      ['devices/p2p/00_00_00_00_00_02', `devices/p2p/${mac.replace(/:/g, '_')}`],
      () => undefined,
    );
    expect(await granted).toEqual([128, 0]);
    expect(client.connected).toBe(true);
    await client.endAsync();
  });

  it('refuses a wrong password with CONNACK 4 before anything is accepted', async () => {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    await expect(
      connectLikeDevice(creds, { password: 'AAAA' + creds.password.slice(4) }),
    ).rejects.toMatchObject({ code: 4 });
    const metrics = await (await fetch(`${f.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/broker_auth_failures_total\{reason="bad_password",service="broker"\} [1-9]/);
  });

  it('refuses a revoked device', async () => {
    const { mac, creds, client } = await bootDevice();
    await client.endAsync();
    await f.sql.query(`UPDATE device SET status = 'revoked' WHERE id = $1`, [mac]);
    await expect(connectLikeDevice(creds)).rejects.toMatchObject({ code: 5 });
  });

  it('drops a revoked device at once when fleet:control says so, and says why in its presence', async () => {
    const { mac, creds, client } = await bootDevice();
    const redis = createRedis(f.redis.url);
    try {
      const gone = closed(client);
      client.options.reconnectPeriod = 0;
      await f.sql.query(`UPDATE device SET status = 'revoked' WHERE id = $1`, [mac]);
      await publishControl(redis, { type: 'device.revoked', deviceId: mac });
      await gone;
      const offline = await waitFor(() =>
        fleet
          .filter((m) => m.topic.endsWith('/presence') && m.payload.toString().includes(mac))
          .map((m) => presenceEventSchema.parse(JSON.parse(m.payload.toString())))
          .find((p) => p.state === 'offline'),
      );
      expect(offline.reason).toBe('revoked');
      await expect(connectLikeDevice(creds)).rejects.toMatchObject({ code: 5 });
    } finally {
      redis.disconnect();
    }
  });

  it('counts an unreadable control message and keeps every connection', async () => {
    const { client } = await bootDevice();
    const redis = createRedis(f.redis.url);
    try {
      await redis.publish(CONTROL_CHANNEL, '{"type":"device.revoked"}');
      await waitFor(async () =>
        /broker_malformed_input_total\{kind="control_message",service="broker"\} 1/.test(
          await (await fetch(`${f.httpUrl}/metrics`)).text(),
        ),
      );
      expect(client.connected).toBe(true);
    } finally {
      redis.disconnect();
      await client.endAsync();
    }
  });

  it('lets a service send only the message types it has the right to', async () => {
    const voice = await f.connectService('voice-worker');
    const gone = closed(voice);
    voice.publish('devices/p2p/00_00_00_00_00_03', '{"type":"mcp","payload":{}}');
    await gone;
    const orchestrator2 = await f.connectService('orchestrator');
    const gone2 = closed(orchestrator2);
    orchestrator2.publish('fleet/devices/00_00_00_00_00_03/up/mcp', '{"forged":true}');
    await gone2;
    expect(fleet.some((m) => m.payload.toString().includes('forged'))).toBe(false);
  });

  it('records presence keyed by connection: a takeover never lets the old "offline" win', async () => {
    const { mac, creds, client: first } = await bootDevice();
    const firstClosed = closed(first);
    const second = await connectLikeDevice(creds); // same client id: replaces the first [MQTT-3.1.4-2]
    await firstClosed;
    const presence = () =>
      fleet
        .filter((m) => m.topic.endsWith('/presence') && m.payload.toString().includes(mac))
        .map((m) => presenceEventSchema.parse(JSON.parse(m.payload.toString())));
    await waitFor(() => presence().filter((p) => p.state === 'online').length === 2, {
      what: 'the second online',
    });
    await waitFor(() => presence().some((p) => p.state === 'offline'), { what: 'the first offline' });
    const events = presence();
    const online = events.filter((p) => p.state === 'online');
    const offline = events.find((p) => p.state === 'offline')!;
    expect(offline.connectionId).toBe(online[0]!.connectionId);
    expect(offline.reason).toBe('takeover');
    // Rows are group-committed: wait until both the close of the first and the second connection are written.
    const row = await waitFor(async () => {
      const { rows } = await f.sql.query(
        `SELECT d.online, d.connection_id, c.close_reason
           FROM device d JOIN connection c ON c.id = $2 WHERE d.id = $1`,
        [mac, online[0]!.connectionId],
      );
      // close_reason is NULL until the close is written, and waitFor takes null for an answer.
      const r = rows[0];
      return r?.close_reason != null && r.connection_id === online[1]!.connectionId ? r : undefined;
    });
    expect(row).toEqual({ online: true, connection_id: online[1]!.connectionId, close_reason: 'takeover' });

    await second.endAsync();
    await waitFor(async () => {
      const { rows } = await f.sql.query('SELECT online FROM device WHERE id = $1', [mac]);
      return rows[0].online === false;
    });
    const { rows } = await f.sql.query('SELECT close_reason FROM connection WHERE id = $1', [
      online[1]!.connectionId,
    ]);
    expect(rows[0].close_reason).toBe('client_disconnect');
  });

  it('closes the older connection when the device connects under another client id, and presence follows the newer', async () => {
    const identity = newDeviceIdentity();
    const older = await connectLikeDevice(await bootCredentials(f.httpUrl, identity));
    const mac = identity.mac;
    const presence = () =>
      fleet
        .filter((m) => m.topic.endsWith('/presence') && m.payload.toString().includes(mac))
        .map((m) => presenceEventSchema.parse(JSON.parse(m.payload.toString())));
    await waitFor(() => presence().some((p) => p.state === 'online'), { what: 'the first online' });
    // Another board name in GID_ makes another client id for the same MAC: aedes alone would keep both.
    const staleCreds = await bootCredentials(f.httpUrl, identity);
    const newerCreds = await bootCredentials(f.httpUrl, { ...identity, board: 'esp-box-3' });
    expect(newerCreds.client_id).not.toBe(staleCreds.client_id);
    const olderClosed = closed(older);
    const newer = await connectLikeDevice(newerCreds);
    await olderClosed;

    const [first, second] = await waitFor(() => {
      const online = presence().filter((p) => p.state === 'online');
      return online.length === 2 && online;
    });
    const offline = await waitFor(() => presence().find((p) => p.state === 'offline'));
    expect(offline).toMatchObject({ connectionId: first!.connectionId, reason: 'takeover' });
    await waitFor(
      async () => {
        const { rows } = await f.sql.query(
          `SELECT d.online, d.connection_id, c.closed_at FROM device d JOIN connection c ON c.id = $2 WHERE d.id = $1`,
          [mac, first!.connectionId],
        );
        return (
          rows[0]?.closed_at != null &&
          rows[0].online === true &&
          rows[0].connection_id === second!.connectionId
        );
      },
      { what: 'the device row on the newer connection after the older one closed' },
    );
    expect(newer.connected).toBe(true);
    expect(await metricsOf(f.httpUrl)).toMatch(
      /broker_takeovers_total\{scope="local",service="broker"\} [1-9]/,
    );

    // Only the client id the last answer issued is accepted from now on.
    await expect(connectLikeDevice(staleCreds)).rejects.toMatchObject({ code: 5 });
    expect(await metricsOf(f.httpUrl)).toMatch(
      /broker_auth_failures_total\{reason="stale_client_id",service="broker"\} [1-9]/,
    );
    expect(newer.connected).toBe(true);
    await newer.endAsync();
  });

  it('logs and announces a device without its Client-Id', async () => {
    const identity = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, identity);
    const client = await connectLikeDevice(creds);
    // Offline is announced only for a connection that was announced online (its p2p subscription existed);
    // a refused publish racing the broker's subscription would close it before that.
    await waitFor(
      () => fleet.some((m) => m.payload.toString().includes(identity.mac) && m.payload.includes('online')),
      { what: 'the online presence event' },
    );
    await connectLikeDevice(creds, { password: 'AAAA' + creds.password.slice(4) }).catch(() => undefined);
    client.publish('devices/p2p/00_00_00_00_00_09', '{"type":"mcp"}'); // refused and logged
    await closed(client);
    await waitFor(
      () => fleet.some((m) => m.payload.toString().includes(identity.mac) && m.payload.includes('offline')),
      { what: 'the offline presence event' },
    );
    const seen = [...f.logs, ...fleet.map((m) => m.payload.toString())].join('\n');
    expect(seen).toContain(identity.mac);
    expect(seen).not.toContain(identity.uuid);
  });
});
