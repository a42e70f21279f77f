import type { MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { ListenAiDevice, type ListenAiClose } from '@fleet/device-sim';
import { CONTROL_CHANNEL, createRedis } from '@fleet/queues';
import { parseLinkToken } from '@fleet/auth';
import {
  deviceP2pTopic,
  encodeListenAiDown,
  fingerprintOfHash,
  linkRequestTarget,
  listenAiRequestId,
} from '@fleet/protocol';
import { registerListenAiDevice, waitFor, type RegisteredListenAiDevice } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';
import { watchFleet, type FleetWatch } from '../../test/fleet-watch';
import { linkClientIdHash } from './link-authenticator';

let macs = 0;
const nextMac = () =>
  `02:1a:00:00:${(++macs >> 8).toString(16).padStart(2, '0')}:${(macs & 255).toString(16).padStart(2, '0')}`;

describe('the ListenAI link', () => {
  let f: BrokerFixture;
  let orchestrator: MqttClient;
  let fleet: FleetWatch;
  let linkUrl: string;
  const devices: ListenAiDevice[] = [];

  beforeAll(async () => {
    // One ping a second, so a dead link is found within a test's patience.
    f = await startBrokerFixture({
      LINK_PORT: '0',
      LINK_PING_S: '1',
      LINK_MAX_FRAME_BYTES: '4096',
      DEVICE_MESSAGE_RATE: '5',
    });
    linkUrl = `ws://127.0.0.1:${f.broker.ports.link}`;
    orchestrator = await f.connectService('orchestrator');
    fleet = await watchFleet(orchestrator);
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await f.close();
  });

  const device = async (registered?: RegisteredListenAiDevice, urls = [linkUrl]) => {
    const r = registered ?? (await registerListenAiDevice(f.sql, nextMac()));
    const d = new ListenAiDevice({ mac: r.mac, token: r.token, linkUrls: urls, reconnectDelayMs: 50 });
    devices.push(d);
    d.start();
    return { device: d, registered: r };
  };
  const online = (mac: string, count = 1) =>
    waitFor(() => fleet.online(mac).length >= count && fleet.online(mac)[count - 1], {
      what: `${mac} online`,
    });
  const closedWith = (d: ListenAiDevice) => d.next('closed').then(([close]) => close);
  const metrics = async () => (await fetch(`${f.httpUrl}/metrics`)).text();

  it('links a device by its token: online once its downlink is subscribed, the platform reaches it, its replies are wrapped with the exact bytes and the dialect named', async () => {
    const { device: d, registered } = await device();
    const event = await online(d.mac);
    // The presence event names the link by its token's prefix, as a fingerprint (DESIGN §3).
    expect(event.clientIdFingerprint).toBe(
      fingerprintOfHash(linkClientIdHash(parseLinkToken(registered.token)!.prefix)),
    );
    const id = listenAiRequestId(7);
    const request = encodeListenAiDown({ cid: 'c', sid: 's', method: 'initialize', id, params: {} });
    await orchestrator.publishAsync(deviceP2pTopic(d.mac), request);
    const reply = await waitFor(() => fleet.uplinks(d.mac, 'mcp')[0], { what: 'the initialize reply' });
    expect(reply.wrapper).toMatchObject({ connectionId: event.connectionId, dialect: 'listenai' });
    expect(reply.text).toBe(d.observed.sent.all[0]);
    expect(JSON.parse(reply.text)).toMatchObject({ id, action: 'mcp', method: 'initialize' });
    expect(d.observed.received.all).toEqual([request]);
    const row = await waitFor(async () => {
      const { rows } = await f.sql.query('SELECT online, connection_id FROM device WHERE id = $1', [d.mac]);
      return rows[0]?.online === true && rows[0];
    });
    expect(row.connection_id).toBe(event.connectionId);
  });

  it('refuses a link with an unknown token, without MCP opt-in, or for a revoked or decommissioned device, naming the problem in the close frame, and counts each', async () => {
    const attempt = async (token: string, target = linkRequestTarget()): Promise<ListenAiClose> => {
      const socket = new WebSocket(`${linkUrl}${target}`, { headers: { authorization: `Bearer ${token}` } });
      return new Promise((resolve) =>
        socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
      );
    };
    const real = await registerListenAiDevice(f.sql, nextMac());
    const forged = real.token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect(await attempt(forged)).toEqual({ code: 4401, reason: 'unknown device token' });
    expect(await attempt('not-a-token')).toEqual({ code: 4401, reason: 'unknown device token' });
    expect(await attempt(real.token, linkRequestTarget({ mcp: false }))).toEqual({
      code: 4400,
      reason: 'no MCP opt-in: param must carry {"mcp":true}',
    });
    expect(await attempt(real.token, '/v1/interaction')).toMatchObject({ code: 4400 });
    await f.sql.query(`UPDATE device_link_token SET revoked_at = now() WHERE id = $1`, [real.tokenId]);
    expect(await attempt(real.token)).toEqual({ code: 4403, reason: 'device token revoked' });
    const revoked = await registerListenAiDevice(f.sql, nextMac());
    await f.sql.query(`UPDATE device SET status = 'revoked' WHERE id = $1`, [revoked.mac]);
    expect(await attempt(revoked.token)).toEqual({ code: 4403, reason: 'device revoked' });
    const gone = await registerListenAiDevice(f.sql, nextMac());
    await f.sql.query(`UPDATE device SET status = 'decommissioned' WHERE id = $1`, [gone.mac]);
    expect(await attempt(gone.token)).toEqual({ code: 4403, reason: 'device decommissioned' });
    const text = await metrics();
    expect(text).toMatch(/broker_link_refusals_total\{reason="unknown_token"[^}]*\} 2/);
    expect(text).toMatch(/broker_link_refusals_total\{reason="no_mcp_opt_in"[^}]*\} 2/);
    expect(text).toMatch(/broker_link_refusals_total\{reason="token_revoked"[^}]*\} 1/);
    expect(text).toMatch(/broker_link_refusals_total\{reason="device_decommissioned"[^}]*\} 1/);
  });

  it('closes the older link when a second one opens for the device, and presence follows the newer', async () => {
    const { device: first, registered } = await device();
    const firstOnline = await online(first.mac);
    const firstClosed = closedWith(first);
    const { device: second } = await device(registered);
    expect(await firstClosed).toEqual({ code: 4409, reason: 'a newer link for this device took over' });
    const secondOnline = await online(first.mac, 2);
    expect(secondOnline.connectionId).not.toBe(firstOnline.connectionId);
    await waitFor(() =>
      fleet
        .presence(first.mac)
        .some(
          (p) =>
            p.state === 'offline' && p.connectionId === firstOnline.connectionId && p.reason === 'takeover',
        ),
    );
    expect(second.linked).toBe(true);
    expect(first.refused).toBeDefined(); // the twin that lost does not fight back
    await waitFor(async () => {
      const { rows } = await f.sql.query('SELECT online, connection_id FROM device WHERE id = $1', [
        first.mac,
      ]);
      return rows[0].online && rows[0].connection_id === secondOnline.connectionId;
    });
  });

  it('wraps a frame that is not JSON raw onto the MCP topic, closes the link on an oversized frame or a flood, counting each', async () => {
    const { device: d } = await device();
    await online(d.mac);
    d.sendRaw('{"id":"x","action":"mcp","result":{"content":[{"type":"text","text":"broken');
    await waitFor(() => fleet.uplinks(d.mac, 'mcp').some((u) => u.text.endsWith('broken')), {
      what: 'the raw frame',
    });
    const tooBig = closedWith(d);
    d.sendRaw('x'.repeat(5000));
    expect((await tooBig).code).toBe(1009);
    expect(await metrics()).toMatch(/broker_malformed_input_total\{kind="listenai_oversized"[^}]*\} 1/);
    await online(d.mac, 2); // it reconnects by itself
    const flooded = closedWith(d);
    for (let i = 0; i < 20; i++) d.sendRaw('{"action":"mcp"}');
    expect(await flooded).toEqual({ code: 4429, reason: 'message rate limit exceeded' });
    await waitFor(() => fleet.presence(d.mac).some((p) => p.reason === 'refused_publish'));
  });

  it('takes a link that stops answering pings offline as a keepalive timeout', async () => {
    const r = await registerListenAiDevice(f.sql, nextMac());
    const socket = new WebSocket(`${linkUrl}${linkRequestTarget()}`, {
      headers: { authorization: `Bearer ${r.token}` },
      autoPong: false,
    });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await online(r.mac);
    await waitFor(
      () => fleet.presence(r.mac).some((p) => p.state === 'offline' && p.reason === 'keepalive_timeout'),
      {
        what: 'the dead link offline',
      },
    );
    expect(await closed).toBe(1006);
  });

  it('closes the link at once when its token is revoked on the control channel', async () => {
    const { device: d, registered } = await device();
    await online(d.mac);
    const closed = closedWith(d);
    const redis = createRedis(f.redis.url);
    await redis.publish(
      CONTROL_CHANNEL,
      JSON.stringify({ type: 'device.link_token_revoked', deviceId: d.mac, tokenId: registered.tokenId }),
    );
    redis.disconnect();
    expect(await closed).toEqual({ code: 4403, reason: 'device token revoked' });
  });

  it('hands its links over when a replica stops: the device reconnects through another, its old link offline as broker_shutdown', async () => {
    const replica = await f.startReplica({ LINK_PORT: '0', BROKER_ID: 'link-replica' });
    const { device: d } = await device(undefined, [`ws://127.0.0.1:${replica.ports.link}`, linkUrl]);
    const first = await online(d.mac);
    expect(first.brokerId).toBe('link-replica');
    const closed = closedWith(d);
    await replica.stop();
    expect(await closed).toEqual({ code: 1001, reason: 'broker shutting down, reconnect' });
    const back = await online(d.mac, 2);
    expect(back.brokerId).not.toBe('link-replica');
    expect(
      fleet.presence(d.mac).find((p) => p.connectionId === first.connectionId && p.state === 'offline')
        ?.reason,
    ).toBe('broker_shutdown');
  });
});
