import { connect } from 'node:net';
import type { MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { ListenAiDevice } from '@fleet/device-sim';
import { deviceP2pTopic, encodeListenAiDown, linkRequestTarget, listenAiRequestId } from '@fleet/protocol';
import { registerListenAiDevice, waitFor } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';
import { watchFleet, type FleetWatch } from '../../test/fleet-watch';
import { readMetrics } from '../../test/metric-value';
import { OPCODE, openRawWebSocket, type RawFrame, type RawWebSocket } from '../../test/raw-websocket';
import { bootCredentials, connectLikeDevice, newDeviceIdentity } from '../../test/stock-device';

const MAX_FRAME = 4096;
let macs = 0;
const nextMac = () => `02:1e:00:00:00:${(++macs).toString(16).padStart(2, '0')}`;

/** Frames ws refuses, each with the code it reports; none needs a token to send. */
const BAD_FRAMES: { name: string; frame: RawFrame; code: string }[] = [
  {
    name: 'an oversized text frame',
    frame: { opcode: OPCODE.text, payload: Buffer.alloc(MAX_FRAME + 1000, 'x') },
    code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
  },
  {
    name: 'an unmasked frame',
    frame: { opcode: OPCODE.text, payload: Buffer.from('{"action":"mcp"}'), masked: false },
    code: 'WS_ERR_EXPECTED_MASK',
  },
  {
    name: 'four bytes of invalid UTF-8',
    frame: { opcode: OPCODE.text, payload: Buffer.from([0xff, 0xfe, 0xfd, 0xfc]) },
    code: 'WS_ERR_INVALID_UTF8',
  },
  {
    name: 'RSV1 without an extension',
    frame: { opcode: OPCODE.text, payload: Buffer.from('{}'), rsv: 0b100 },
    code: 'WS_ERR_UNEXPECTED_RSV_1',
  },
  {
    name: 'RSV2 and RSV3',
    frame: { opcode: OPCODE.text, payload: Buffer.from('{}'), rsv: 0b011 },
    code: 'WS_ERR_UNEXPECTED_RSV_2_3',
  },
  {
    name: 'a continuation with nothing to continue',
    frame: { opcode: OPCODE.continuation, payload: Buffer.from('x') },
    code: 'WS_ERR_INVALID_OPCODE',
  },
  {
    name: 'a close frame with a code nobody may send',
    frame: { opcode: OPCODE.close, payload: Buffer.from([0x03, 0xe7]) },
    code: 'WS_ERR_INVALID_CLOSE_CODE',
  },
];

describe('a device socket that errs', () => {
  let f: BrokerFixture;
  let orchestrator: MqttClient;
  let fleet: FleetWatch;
  let bystander: ListenAiDevice;

  beforeAll(async () => {
    f = await startBrokerFixture({ LINK_MAX_FRAME_BYTES: String(MAX_FRAME) });
    orchestrator = await f.connectService('orchestrator');
    fleet = await watchFleet(orchestrator);
    // Another device's link, open through everything below: it must never notice.
    const registered = await registerListenAiDevice(f.sql, nextMac());
    bystander = new ListenAiDevice({
      mac: registered.mac,
      token: registered.token,
      linkUrls: [`ws://127.0.0.1:${f.broker.ports.link}`],
      reconnectDelayMs: 50,
    });
    bystander.start();
    await waitFor(() => fleet.online(bystander.mac)[0], { what: 'the bystander online' });
  });
  afterAll(async () => {
    await bystander.stop();
    await f.close();
  });

  const linkPath = linkRequestTarget();
  const refusedLink = () =>
    openRawWebSocket(f.broker.ports.link, linkPath, { Authorization: 'Bearer not-a-token' });
  const acceptedLink = async () => {
    const registered = await registerListenAiDevice(f.sql, nextMac());
    const link = await openRawWebSocket(f.broker.ports.link, linkPath, {
      Authorization: `Bearer ${registered.token}`,
    });
    await waitFor(() => fleet.online(registered.mac)[0], { what: 'the attacker linked' });
    return link;
  };

  /** The broker answers its health check and the bystander's link still carries a request and its reply. */
  async function fleetStillServes(): Promise<void> {
    expect((await fetch(`${f.httpUrl}/healthz`)).status).toBe(200);
    expect(bystander.linked).toBe(true);
    const id = listenAiRequestId(Math.floor(Math.random() * 1e6));
    const before = fleet.uplinks(bystander.mac, 'mcp').length;
    await orchestrator.publishAsync(
      deviceP2pTopic(bystander.mac),
      encodeListenAiDown({ cid: 'c', sid: 's', method: 'initialize', id, params: {} }),
    );
    const reply = await waitFor(() => fleet.uplinks(bystander.mac, 'mcp')[before], {
      what: "the bystander's reply",
    });
    expect(JSON.parse(reply.text)).toMatchObject({ id });
  }

  async function sendAndCount(open: () => Promise<RawWebSocket>, frame: RawFrame, code: string) {
    const before = (await readMetrics(f.httpUrl)).value('broker_socket_errors_total', {
      listener: 'link',
      code,
    });
    const link = await open();
    link.send(frame);
    await link.closed;
    const after = await waitFor(
      async () => {
        const value = (await readMetrics(f.httpUrl)).value('broker_socket_errors_total', {
          listener: 'link',
          code,
        });
        return value > before && value;
      },
      { what: `${code} counted` },
    );
    expect(after).toBe(before + 1);
  }

  describe.each([
    ['a refused', refusedLink],
    ['an accepted', acceptedLink],
  ])('on %s ListenAI link', (_kind, open) => {
    it.each(BAD_FRAMES)('survives $name, counting it as $code', async ({ frame, code }) => {
      await sendAndCount(open, frame, code);
      await fleetStillServes();
    });

    it('survives a binary frame and a storm of close frames and closed links, and frees every budget slot', async () => {
      const link = await open();
      link.send({ opcode: OPCODE.binary, payload: Buffer.from([0, 1, 2, 3]) });
      for (let i = 0; i < 50; i++) link.send({ opcode: OPCODE.close, payload: Buffer.from([0x03, 0xe8]) });
      link.send({ opcode: OPCODE.text, payload: Buffer.from('after the close') });
      await link.closed;
      const storm = await Promise.all(Array.from({ length: 40 }, () => open()));
      for (const s of storm) s.socket.destroy();
      await fleetStillServes();
      await waitFor(
        async () =>
          (await readMetrics(f.httpUrl)).value('broker_edge_pending_connections', { listener: 'link' }) === 0,
        { what: 'no link left pending' },
      );
    });
  });

  it('closes an accepted link with 1009 on an oversized frame, as before', async () => {
    const registered = await registerListenAiDevice(f.sql, nextMac());
    const socket = new WebSocket(`ws://127.0.0.1:${f.broker.ports.link}${linkPath}`, {
      headers: { authorization: `Bearer ${registered.token}` },
    });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send('x'.repeat(MAX_FRAME + 1));
    expect(await closed).toBe(1009);
  });

  /** Writes bytes on a fresh TCP connection and resolves once the broker has closed it. */
  const rawTcp = (port: number, bytes: Buffer | string) =>
    new Promise<string>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(bytes));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(answer));
    });

  it('survives garbage on MQTT over TCP and over WebSocket, counting it, while a connected device keeps publishing', async () => {
    const identity = newDeviceIdentity();
    const device = await connectLikeDevice(await bootCredentials(f.httpUrl, identity));
    const before = await readMetrics(f.httpUrl);

    await rawTcp(
      f.broker.ports.mqtt,
      Buffer.from([0x10, 0x0c, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0, 0, 0, 0, 0]),
    );
    await rawTcp(f.broker.ports.mqtt, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    const ws = await openRawWebSocket(f.broker.ports.ws, '/mqtt', {}, { subprotocol: 'mqtt' });
    ws.send({ opcode: OPCODE.binary, payload: Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x7f]) });
    await ws.closed;
    const unmasked = await openRawWebSocket(f.broker.ports.ws, '/mqtt', {}, { subprotocol: 'mqtt' });
    unmasked.send({ opcode: OPCODE.binary, payload: Buffer.from([0x10, 0x00]), masked: false });
    await unmasked.closed;
    expect(await rawTcp(f.broker.ports.ws, 'NOT HTTP\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);

    const after = await readMetrics(f.httpUrl);
    const grew = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(grew('broker_malformed_input_total', {})).toBeGreaterThanOrEqual(3);
    expect(grew('broker_socket_errors_total', { listener: 'mqtt_ws', code: 'WS_ERR_EXPECTED_MASK' })).toBe(1);
    expect(grew('broker_socket_errors_total', { listener: 'mqtt_ws', code: 'HPE_INVALID_METHOD' })).toBe(1);
    expect((await fetch(`${f.httpUrl}/healthz`)).status).toBe(200);
    const count = fleet.uplinks(identity.mac).length;
    await device.publishAsync('device-server', '{"session_id":"","type":"mcp","payload":{}}');
    await waitFor(() => fleet.uplinks(identity.mac).length > count, { what: "the device's publish" });
    await device.endAsync();
  });

  it('answers garbage on the device HTTP and the link port with 400, counting it, and keeps answering check-ins', async () => {
    const before = await readMetrics(f.httpUrl);
    expect(await rawTcp(f.broker.ports.http, '\x00\x01\x02 GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await rawTcp(f.broker.ports.http, 'POST /xiaozhi/ota/ HTTP/1.1\r\nHost x\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400/,
    );
    expect(await rawTcp(f.broker.ports.link, 'GET /v1/interaction HTTP/1.1\r\n\x7f\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400/,
    );
    // A reset in the middle of a request body.
    await new Promise<void>((resolve) => {
      const socket = connect({ port: f.broker.ports.http, host: '127.0.0.1' }, () => {
        socket.write('POST /xiaozhi/ota/ HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"board"');
        setImmediate(() => socket.resetAndDestroy());
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve());
    });
    const after = await readMetrics(f.httpUrl);
    expect(
      after.value('broker_socket_errors_total', { listener: 'http' }) -
        before.value('broker_socket_errors_total', { listener: 'http' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      after.value('broker_socket_errors_total', { listener: 'link' }) -
        before.value('broker_socket_errors_total', { listener: 'link' }),
    ).toBeGreaterThanOrEqual(1);
    const identity = newDeviceIdentity();
    await expect(bootCredentials(f.httpUrl, identity)).resolves.toMatchObject({
      client_id: expect.any(String),
    });
    await fleetStillServes();
  });
});
