import type { MqttClient } from 'mqtt';
import { deviceP2pTopic, encodeServerMessage, serverMessage, type Mac } from '@fleet/protocol';
import { createRedis, downlinkFields, readUplinkFields, voiceStreams, type Redis } from '@fleet/queues';
import { waitFor } from '@fleet/testing';
import { createFleet, encodePcm, FAST_TIMINGS, type Fleet, type SimDevice } from '@fleet/device-sim';
import { startBrokerFixture, type BrokerFixture } from '../test/broker-fixture';
import { watchFleet, type FleetWatch } from '../test/fleet-watch';

// Simulated devices (tools/device-sim, firmware 2.4.2 behaviour) against the real broker: OTA check-in, the
// credentials it issued, the p2p subscription made for them, wrapped uplinks, presence rows, UDP voice.

/** `ms` of a 440 Hz tone at 16 kHz, the device's uplink rate. */
function tone(ms: number): Int16Array {
  const pcm = new Int16Array(16 * ms);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16_000));
  return pcm;
}

const toolCall = (id: number, name: string) =>
  `{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{}}}}`;

describe('simulated devices through the real broker', () => {
  let f: BrokerFixture;
  let fleet: Fleet;
  let orchestrator: MqttClient;
  let voiceWorker: MqttClient;
  let watch: FleetWatch;
  let redis: Redis;

  const bootReports = async (mac: Mac): Promise<number> =>
    (await f.sql.query('SELECT count(*)::int AS n FROM boot_report WHERE device_id = $1', [mac])).rows[0].n;
  const connections = async (mac: Mac) =>
    (
      await f.sql.query(
        'SELECT id, closed_at IS NOT NULL AS closed, close_reason FROM connection WHERE device_id = $1 ORDER BY opened_at',
        [mac],
      )
    ).rows;
  const onlineCount = (device: SimDevice, n: number) =>
    waitFor(() => watch.online(device.mac).length >= n, { what: `${device.mac} online ${n} time(s)` });

  beforeAll(async () => {
    f = await startBrokerFixture();
    orchestrator = await f.connectService('orchestrator');
    voiceWorker = await f.connectService('voice-worker');
    watch = await watchFleet(orchestrator);
    redis = createRedis(f.redis.url);
    fleet = createFleet({
      count: 4,
      otaUrl: `${f.httpUrl}/xiaozhi/ota/`,
      timings: FAST_TIMINGS,
      recordLimit: 200,
    });
    await fleet.start();
    for (const device of fleet.devices) await onlineCount(device, 1);
  });
  afterAll(async () => {
    await fleet?.stop();
    redis?.disconnect();
    await f?.close();
  });

  it('boots every device through /xiaozhi/ota/ and connects it with the credentials the broker issued', async () => {
    for (const device of fleet.devices) {
      expect(device.observed.checkIns.all.map((c) => c.status)).toEqual([200]);
      expect(device.clientId).toMatch(new RegExp(`@@@${deviceP2pTopic(device.mac).slice(12)}@@@`));
      expect(await bootReports(device.mac)).toBe(1);
      const [online] = watch.online(device.mac);
      // Presence rows are group-committed a few milliseconds after the event.
      const rows = await waitFor(async () => {
        const r = await connections(device.mac);
        return r.length > 0 && r;
      });
      expect(rows).toEqual([{ id: online!.connectionId, closed: false, close_reason: null }]);
    }
  });

  it('reaches each device on its p2p topic and brings its reply back wrapped, byte for byte', async () => {
    await Promise.all(
      fleet.devices.map((device, i) =>
        orchestrator.publishAsync(deviceP2pTopic(device.mac), toolCall(100 + i, 'self.get_device_status')),
      ),
    );
    for (const [i, device] of fleet.devices.entries()) {
      const sent = await waitFor(
        () => device.observed.published.all.find((m) => m.text.includes(`"id":${100 + i},`)),
        { what: `the reply of ${device.mac}` },
      );
      const seen = await waitFor(() => watch.uplinks(device.mac, 'mcp').find((u) => u.text === sent.text), {
        what: `the wrapped reply of ${device.mac}`,
      });
      // It never subscribed: the request came on the subscription the broker made for it.
      expect(device.observed.received.all.at(-1)?.topic).toBe(deviceP2pTopic(device.mac));
      expect(seen.text).toContain('"result":{"content":[{"type":"text","text":"{\\"audio_speaker\\"');
      expect(seen.wrapper).toMatchObject({
        mac: device.mac,
        connectionId: watch.online(device.mac)[0]!.connectionId,
      });
    }
  });

  it('sees a reboot as a new check-in and a new connection, the old one closed', async () => {
    const device = fleet.devices[1]!;
    await orchestrator.publishAsync(
      deviceP2pTopic(device.mac),
      encodeServerMessage(serverMessage.system('', 'reboot')),
    );
    await onlineCount(device, 2);
    expect(device.bootCount).toBe(2);
    expect(device.observed.checkIns.all.map((c) => c.status)).toEqual([200, 200]);
    const [first, second] = watch.online(device.mac);
    expect(second!.connectionId).not.toBe(first!.connectionId);
    const offline = await waitFor(() => watch.presence(device.mac).find((p) => p.state === 'offline'));
    // The firmware's Reboot() stops esp-mqtt, which sends DISCONNECT.
    expect(offline).toMatchObject({ connectionId: first!.connectionId, reason: 'client_disconnect' });
    expect(await bootReports(device.mac)).toBe(2);
    const rows = await waitFor(async () => {
      const r = await connections(device.mac);
      return r.length === 2 && r[0].closed && r;
    });
    expect(rows).toEqual([
      { id: first!.connectionId, closed: true, close_reason: 'client_disconnect' },
      { id: second!.connectionId, closed: false, close_reason: null },
    ]);
  });

  it('sees a connection flap as a new connection without a boot report', async () => {
    const device = fleet.devices[2]!;
    device.once('disconnected', () => device.clearFaults()); // one flap is enough
    device.setFaults({ flapEveryMs: 20 });
    await onlineCount(device, 2);
    expect(device.stats.flaps).toBe(1);
    expect(device.bootCount).toBe(1);
    const [first, second] = watch.online(device.mac);
    const offline = await waitFor(() => watch.presence(device.mac).find((p) => p.state === 'offline'));
    expect(offline).toMatchObject({
      connectionId: first!.connectionId,
      reason: 'connection_lost',
    });
    const rows: { id: string }[] = await waitFor(async () => {
      const r = await connections(device.mac);
      return r.length === 2 && r[0].closed && r;
    });
    expect(rows.map((r) => r.id)).toEqual([first!.connectionId, second!.connectionId]);
    expect(await bootReports(device.mac)).toBe(1);
  });

  it('carries a voice session through the broker: uplink audio to Redis, downlink audio played after tts start', async () => {
    const device = fleet.devices[3]!;
    const sessionId = await device.openVoiceSession({ mode: 'auto' });
    expect(sessionId).toMatch(/^[0-9a-f]{16}$/);

    const spoken = encodePcm(tone(180));
    expect(device.sendAudio(spoken)).toBe(3);
    const up = await waitFor(async () => {
      const entries = await redis.xrangeBuffer(voiceStreams.up(sessionId), '-', '+');
      return entries.length === spoken.length && entries;
    });
    const frames = up.map(([, fields]) => readUplinkFields(fields)!);
    expect(frames.map((e) => e.sequence)).toEqual([1, 2, 3]);
    expect(frames.map((e) => Buffer.from(e.opus))).toEqual(spoken.map((s) => Buffer.from(s)));

    await voiceWorker.publishAsync(
      deviceP2pTopic(device.mac),
      encodeServerMessage(serverMessage.ttsStart(sessionId)),
    );
    await waitFor(() => device.state === 'speaking', { what: 'the device speaking' });
    const reply = encodePcm(tone(120));
    for (const opus of reply) {
      await redis.xadd(
        voiceStreams.down(sessionId),
        '*',
        ...downlinkFields({ kind: 'frame', opus: Buffer.from(opus) }),
      );
    }
    await redis.xadd(voiceStreams.down(sessionId), '*', ...downlinkFields({ kind: 'close' }));
    await waitFor(() => device.observed.playedFrames.all.length === reply.length, {
      what: 'the reply played',
    });
    expect(device.observed.playedFrames.all.map((p) => Buffer.from(p))).toEqual(
      reply.map((r) => Buffer.from(r)),
    );
    expect(device.observed.downlinkDrops).toEqual({});
    // The close mark becomes the broker's goodbye with the exact session id, which the device honours.
    await waitFor(() => !device.voiceChannelOpen, { what: 'the channel closed by the server goodbye' });
    expect(watch.uplinks(device.mac, 'voice').map((u) => JSON.parse(u.text).type)).toEqual([
      'hello',
      'listen',
    ]);
  });
});
