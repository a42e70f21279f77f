import { createSocket, type Socket } from 'node:dgram';
import type { MqttClient } from 'mqtt';
import {
  acceptServerHello,
  checkDownlinkPacket,
  deviceMessage,
  deviceUplinkHeader,
  aesCtr,
  openAudioPacket,
  type AcceptedServerHello,
} from '@fleet/protocol';
import {
  createRedis,
  downlinkFields,
  readUplinkFields,
  voiceSessionEventSchema,
  voiceStreams,
  type Redis,
} from '@fleet/queues';
import { waitFor } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';
import { bootCredentials, connectLikeDevice, newDeviceIdentity } from '../../test/stock-device';

// The device side of a voice session, built from the protocol lib's firmware rules (xiaozhi §1.4–1.6).
class DeviceAudio {
  private sequence = 0;
  readonly socket: Socket = createSocket('udp4');
  readonly received: Buffer[] = [];
  private lastRemote = 0;

  constructor(readonly hello: AcceptedServerHello) {
    this.socket.on('message', (packet) => {
      const checked = checkDownlinkPacket(packet, this.lastRemote);
      if (!checked.ok) return;
      this.lastRemote = checked.value.header.sequence;
      this.received.push(Buffer.from(openAudioPacket(hello.key, packet)));
    });
  }

  send(opus: Buffer): void {
    const header = deviceUplinkHeader(this.hello.nonce, opus.length, 0, ++this.sequence);
    const packet = Buffer.concat([header, aesCtr(this.hello.key, header, opus)]);
    this.socket.send(packet, this.hello.udpPort, this.hello.udpServer);
  }

  sendRaw(packet: Buffer): void {
    this.socket.send(packet, this.hello.udpPort, this.hello.udpServer);
  }
}

describe('a voice session through the broker', () => {
  let f: BrokerFixture;
  let redis: Redis;
  let device: MqttClient;
  let audio: DeviceAudio;
  const inbox: string[] = [];

  beforeAll(async () => {
    f = await startBrokerFixture();
    redis = createRedis(f.redis.url);
    const identity = newDeviceIdentity();
    device = await connectLikeDevice(await bootCredentials(f.httpUrl, identity));
    device.on('message', (_topic, payload) => inbox.push(payload.toString()));
  });
  afterAll(async () => {
    audio?.socket.close();
    await device.endAsync();
    redis.disconnect();
    await f.close();
  });

  it('answers a device hello with its UDP address, a session id and a fresh 16-byte key and nonce', async () => {
    await device.publishAsync('device-server', deviceMessage.hello({ serverAec: false, glyphPush: false }));
    const text = await waitFor(() => inbox.find((m) => m.includes('"hello"')), { what: 'the server hello' });
    const accepted = acceptServerHello(text);
    expect(accepted.ok).toBe(true);
    if (!accepted.ok) return;
    expect(accepted.value).toMatchObject({ udpServer: '127.0.0.1', udpPort: f.broker.ports.udp });
    expect(accepted.value.sessionId).toMatch(/^[0-9a-f]{16}$/);
    audio = new DeviceAudio(accepted.value);
    const events = await redis.xrange(voiceStreams.sessions, '-', '+');
    const opened = voiceSessionEventSchema.parse(JSON.parse(events.at(-1)![1][1]!));
    expect(opened).toMatchObject({
      event: 'opened',
      sessionId: accepted.value.sessionId,
      downlink: { sampleRate: 24000 },
    });
    // Campaigns leave a device in conversation alone: voice:active names its session.
    expect(await redis.hget(voiceStreams.active, opened.event === 'opened' ? opened.mac : '')).toBe(
      accepted.value.sessionId,
    );
  });

  it('decrypts uplink audio onto the session stream, dropping a replayed sequence', async () => {
    const frames = [
      Buffer.from('opus frame one'),
      Buffer.from('opus frame two, a little longer than sixteen bytes'),
    ];
    audio.send(frames[0]!);
    audio.send(frames[1]!);
    const replay = deviceUplinkHeader(audio.hello.nonce, 4, 0, 1); // sequence 1 again
    audio.sendRaw(Buffer.concat([replay, Buffer.from('evil')]));
    const stream = voiceStreams.up(audio.hello.sessionId);
    const entries = await waitFor(async () => {
      const e = await redis.xrangeBuffer(stream, '-', '+');
      return e.length >= 2 && e;
    });
    expect(entries.map(([, fields]) => readUplinkFields(fields)?.opus.toString())).toEqual(
      frames.map(String),
    );
    const metrics = await (await fetch(`${f.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /broker_udp_packets_total\{direction="up",outcome="stale_sequence",service="broker"\} 1/,
    );
  });

  it('drops a packet from a second address and one far ahead in sequence, and keeps the session its own', async () => {
    const stream = voiceStreams.up(audio.hello.sessionId);
    const entries = async () => (await redis.xrangeBuffer(stream, '-', '+')).length;
    const already = await entries();
    // The attack: the session's ssrc from another address, a sequence near the top and a payload in clear.
    const intruder = createSocket('udp4');
    const takeover = deviceUplinkHeader(audio.hello.nonce, 5, 0, 0xfffffff0);
    await new Promise<void>((resolve) =>
      intruder.send(
        Buffer.concat([takeover, Buffer.from('evil!')]),
        audio.hello.udpPort,
        audio.hello.udpServer,
        () => resolve(),
      ),
    );
    const jump = deviceUplinkHeader(audio.hello.nonce, 5, 0, 0xfffffff0);
    audio.sendRaw(Buffer.concat([jump, Buffer.from('jump!')]));
    await waitFor(
      async () => {
        const text = await (await fetch(`${f.httpUrl}/metrics`)).text();
        return (
          /broker_udp_packets_total\{direction="up",outcome="foreign_address",service="broker"\} 1/.test(
            text,
          ) &&
          /broker_udp_packets_total\{direction="up",outcome="sequence_jump",service="broker"\} 1/.test(text)
        );
      },
      { what: 'both packets counted as dropped' },
    );
    intruder.close();
    // The real device's next packet is not stale: it is accepted, and nothing of the intruder's reached the stream.
    audio.send(Buffer.from('opus frame three'));
    await waitFor(async () => (await entries()) === already + 1, { what: "the device's next frame" });
    const texts = (await redis.xrangeBuffer(stream, '-', '+')).map(([, fields]) =>
      readUplinkFields(fields)?.opus.toString(),
    );
    expect(texts.at(-1)).toBe('opus frame three');
  });

  it('sends downlink frames paced at the frame duration with growing sequences, then a goodbye on request', async () => {
    const frames = Array.from({ length: 5 }, (_, i) => Buffer.from(`downlink frame ${i} `.repeat(3)));
    const started = Date.now();
    const down = voiceStreams.down(audio.hello.sessionId);
    for (const frame of frames)
      await redis.xadd(down, '*', ...downlinkFields({ kind: 'frame', opus: frame }));
    await redis.xadd(down, '*', ...downlinkFields({ kind: 'close' }));
    await waitFor(() => audio.received.length === frames.length, { what: 'all downlink frames' });
    expect(audio.received.map(String)).toEqual(frames.map(String));
    // Paced, not burst: five frames take at least four frame durations.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 60 - 5);
    const goodbye = await waitFor(() => inbox.find((m) => m.includes('"goodbye"')), {
      what: 'the server goodbye',
    });
    expect(JSON.parse(goodbye)).toEqual({ type: 'goodbye', session_id: audio.hello.sessionId });
    await waitFor(async () => (await redis.hlen(voiceStreams.active)) === 0, {
      what: 'the device leaving voice:active',
    });
  });

  it('opens a new session, pinned to the new address, when a device whose address changed says hello again', async () => {
    const helloes = () => inbox.filter((m) => m.includes('"hello"')).length;
    const before = helloes();
    await device.publishAsync('device-server', deviceMessage.hello({ serverAec: false, glyphPush: false }));
    await waitFor(() => helloes() > before, { what: 'the second server hello' });
    const accepted = acceptServerHello(inbox.filter((m) => m.includes('"hello"')).at(-1)!);
    if (!accepted.ok) throw new Error('the second hello was not acceptable');
    expect(accepted.value.sessionId).not.toBe(audio.hello.sessionId);
    const moved = new DeviceAudio(accepted.value); // another socket: another source port
    try {
      moved.send(Buffer.from('from the new address'));
      const stream = voiceStreams.up(accepted.value.sessionId);
      const entries = await waitFor(async () => {
        const e = await redis.xrangeBuffer(stream, '-', '+');
        return e.length > 0 && e;
      });
      expect(readUplinkFields(entries[0]![1])?.opus.toString()).toBe('from the new address');
    } finally {
      moved.socket.close();
    }
  });
});
