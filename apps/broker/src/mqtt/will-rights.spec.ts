import { judgeStrandedWill } from './will-rights';

const CLIENT_ID = 'GID_bread-compact-wifi@@@a0_85_e3_f4_49_34@@@8c5e1a3b-6f0e-4d6b-9d3a-3b6f7c2e9a10';
const will = (overrides: Record<string, unknown> = {}) => ({
  topic: 'device-server',
  payload: Buffer.from('{"type":"goodbye"}'),
  qos: 0,
  retain: false,
  clientId: CLIENT_ID,
  brokerId: 'gone',
  fleetConnectionId: 'c-1',
  ...overrides,
});

describe("a gone broker's will", () => {
  it("is its device's uplink, bound to the connection it came with", () => {
    expect(judgeStrandedWill(will())).toEqual({
      ok: true,
      mac: 'a0:85:e3:f4:49:34',
      connectionId: 'c-1',
      payload: Buffer.from('{"type":"goodbye"}'),
    });
  });

  it("is refused where the device's own publish would be: another topic, $SYS, retained, QoS above 0", () => {
    expect(judgeStrandedWill(will({ topic: 'devices/p2p/a0_85_e3_f4_49_35' }))).toEqual({
      ok: false,
      reason: 'device_topic',
    });
    expect(judgeStrandedWill(will({ topic: '$SYS/x' }))).toEqual({ ok: false, reason: 'sys_topic' });
    expect(judgeStrandedWill(will({ retain: true }))).toEqual({ ok: false, reason: 'retain' });
    expect(judgeStrandedWill(will({ qos: 1 }))).toEqual({ ok: false, reason: 'device_qos' });
  });

  it("is refused without a device's client id, without its connection, or with a payload it cannot read", () => {
    expect(judgeStrandedWill(will({ clientId: 'orchestrator-1' }))).toEqual({
      ok: false,
      reason: 'not_a_device',
    });
    expect(judgeStrandedWill(will({ clientId: undefined }))).toEqual({ ok: false, reason: 'not_a_device' });
    expect(judgeStrandedWill(will({ fleetConnectionId: undefined }))).toEqual({
      ok: false,
      reason: 'no_connection',
    });
    expect(judgeStrandedWill(will({ payload: 42 }))).toEqual({ ok: false, reason: 'unreadable' });
  });
});
