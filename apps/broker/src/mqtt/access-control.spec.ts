import type { ClientIdentity } from './client-identity';
import { decidePublish, decideSubscribe } from './access-control';

const device: ClientIdentity = {
  kind: 'device',
  mac: 'a0:85:e3:f4:49:34',
  connectionId: 'c1',
  clientIdHash: 'a'.repeat(64),
  keepalive: 240,
  connectedAt: 0,
  ssrc: 1,
};
const orchestrator: ClientIdentity = { kind: 'service', name: 'orchestrator' };
const voice: ClientIdentity = { kind: 'service', name: 'voice-worker' };
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const publish = (topic: string, payload: Buffer, qos = 0, retain = false) => ({
  topic,
  payload,
  qos,
  retain,
});

describe('publish rights', () => {
  it('let a device publish only to device-server, at QoS 0', () => {
    expect(decidePublish(device, publish('device-server', json({ type: 'mcp' })))).toEqual({ ok: true });
    expect(decidePublish(device, publish('devices/p2p/a0_85_e3_f4_49_34', json({ type: 'mcp' })))).toEqual({
      ok: false,
      reason: 'device_topic',
    });
    expect(decidePublish(device, publish('device-server', json({}), 1))).toEqual({
      ok: false,
      reason: 'device_qos',
    });
  });

  it('give mcp, system and alert to the orchestrator and tts, stt, llm, alert to the voice worker', () => {
    const p2p = 'devices/p2p/a0_85_e3_f4_49_34';
    expect(decidePublish(orchestrator, publish(p2p, json({ type: 'mcp' })))).toEqual({ ok: true });
    expect(decidePublish(orchestrator, publish(p2p, json({ type: 'alert' })))).toEqual({ ok: true });
    expect(decidePublish(orchestrator, publish(p2p, json({ type: 'system', command: 'reboot' })))).toEqual({
      ok: true,
    });
    expect(decidePublish(orchestrator, publish(p2p, json({ type: 'tts' })))).toEqual({
      ok: false,
      reason: 'downlink_type',
    });
    expect(decidePublish(voice, publish(p2p, json({ type: 'tts', state: 'start' })))).toEqual({ ok: true });
    expect(decidePublish(voice, publish(p2p, json({ type: 'mcp' })))).toEqual({
      ok: false,
      reason: 'downlink_type',
    });
  });

  it('keep hello and goodbye for the broker itself', () => {
    const p2p = 'devices/p2p/a0_85_e3_f4_49_34';
    for (const type of ['hello', 'goodbye']) {
      expect(decidePublish(orchestrator, publish(p2p, json({ type })))).toMatchObject({ ok: false });
      expect(decidePublish(voice, publish(p2p, json({ type })))).toMatchObject({ ok: false });
    }
  });

  it('let no service publish under fleet/, where device replies become evidence', () => {
    expect(
      decidePublish(orchestrator, publish('fleet/devices/a0_85_e3_f4_49_34/up/mcp', json({ type: 'mcp' }))),
    ).toEqual({
      ok: false,
      reason: 'fleet_reserved',
    });
  });

  it('refuse downlinks that are not JSON objects with a type, and retained messages', () => {
    const p2p = 'devices/p2p/a0_85_e3_f4_49_34';
    expect(decidePublish(orchestrator, publish(p2p, Buffer.from('{not json')))).toEqual({
      ok: false,
      reason: 'downlink_unreadable',
    });
    expect(decidePublish(orchestrator, publish(p2p, json({ type: 'mcp' }), 0, true))).toEqual({
      ok: false,
      reason: 'retain',
    });
  });
});

describe('subscribe rights', () => {
  it('let a device subscribe to its own p2p topic only, as old firmware does', () => {
    expect(decideSubscribe(device, 'devices/p2p/a0_85_e3_f4_49_34')).toEqual({ ok: true });
    expect(decideSubscribe(device, 'devices/p2p/a0_85_e3_f4_49_35')).toEqual({
      ok: false,
      reason: 'device_subscribe',
    });
    expect(decideSubscribe(device, 'devices/p2p/#')).toEqual({ ok: false, reason: 'device_subscribe' });
  });

  it('let services read fleet topics and nothing else', () => {
    expect(decideSubscribe(orchestrator, 'fleet/devices/+/up/mcp')).toEqual({ ok: true });
    expect(decideSubscribe(orchestrator, 'devices/p2p/#')).toEqual({
      ok: false,
      reason: 'service_subscribe',
    });
    expect(decideSubscribe(orchestrator, 'device-server')).toEqual({
      ok: false,
      reason: 'service_subscribe',
    });
  });
});
