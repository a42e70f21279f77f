import { isCanonicalMac, macFromTopicId, macToTopicId, normaliseMac } from './mac';
import {
  DEVICE_SERVER_TOPIC,
  deviceP2pTopic,
  fleetPresenceTopic,
  fleetUplinkTopic,
  parseDeviceP2pTopic,
  parseFleetTopic,
  uplinkKindOf,
} from './topics';

const MAC = 'a0:85:e3:f4:49:34';

describe('MAC addresses', () => {
  it.each([
    'A0:85:E3:F4:49:34',
    'a0-85-e3-f4-49-34',
    'a0_85_e3_f4_49_34',
    'a085e3f44934',
    ' a0:85:e3:f4:49:34 ',
  ])('normalises %j to lower case with colons', (text) => {
    expect(normaliseMac(text)).toEqual({ ok: true, value: MAC });
  });

  it.each(['a0:85:e3:f4:49', 'a0:85-e3:f4:49:34', 'g0:85:e3:f4:49:34', ''])('refuses %j', (text) => {
    expect(normaliseMac(text)).toMatchObject({ ok: false, error: { kind: 'invalid_mac' } });
  });

  it('converts between the colon and underscore forms', () => {
    expect(macToTopicId(MAC)).toBe('a0_85_e3_f4_49_34');
    expect(macFromTopicId('a0_85_e3_f4_49_34')).toEqual({ ok: true, value: MAC });
    expect(macFromTopicId('A0_85_E3_F4_49_34').ok).toBe(false);
    expect(isCanonicalMac(MAC)).toBe(true);
  });
});

describe('topics', () => {
  it('names the device and fleet topics', () => {
    expect(DEVICE_SERVER_TOPIC).toBe('device-server');
    expect(deviceP2pTopic(MAC)).toBe('devices/p2p/a0_85_e3_f4_49_34');
    expect(fleetUplinkTopic(MAC, 'mcp')).toBe('fleet/devices/a0_85_e3_f4_49_34/up/mcp');
    expect(fleetPresenceTopic(MAC)).toBe('fleet/devices/a0_85_e3_f4_49_34/presence');
  });

  it('parses them back and refuses anything else', () => {
    expect(parseFleetTopic('fleet/devices/a0_85_e3_f4_49_34/up/voice')).toEqual({
      ok: true,
      value: { kind: 'uplink', mac: MAC, uplink: 'voice' },
    });
    expect(parseFleetTopic('fleet/devices/a0_85_e3_f4_49_34/presence')).toEqual({
      ok: true,
      value: { kind: 'presence', mac: MAC },
    });
    expect(parseFleetTopic('fleet/devices/a0_85_e3_f4_49_34/up/audio').ok).toBe(false);
    expect(parseFleetTopic('fleet/devices/nope/presence').ok).toBe(false);
    expect(parseDeviceP2pTopic('devices/p2p/a0_85_e3_f4_49_34')).toEqual({ ok: true, value: MAC });
    expect(parseDeviceP2pTopic('devices/p2p/a0_85_e3_f4_49_34/x').ok).toBe(false);
  });

  it('sorts device messages into mcp, voice and other uplinks', () => {
    expect(
      ['mcp', 'hello', 'listen', 'abort', 'goodbye', 'udp_timeout', undefined].map(uplinkKindOf),
    ).toEqual(['mcp', 'voice', 'voice', 'voice', 'voice', 'other', 'other']);
  });
});
