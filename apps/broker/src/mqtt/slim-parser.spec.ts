import { generate, parser as mqttParser, type Packet } from 'mqtt-packet';
import { slimParser, type ParserState } from './slim-parser';

function connect(protocolVersion: 4 | 5): Buffer {
  return generate({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion,
    clean: true,
    keepalive: 240,
    clientId: 'GID_test@@@aa_bb_cc_dd_ee_ff@@@uuid',
    username: 'device-user',
    password: Buffer.from('device-password'),
  });
}

function publish(topic: string, body: string, protocolVersion: 4 | 5): Buffer {
  return generate(
    { cmd: 'publish', topic, payload: Buffer.from(body), qos: 0, retain: false, dup: false },
    { protocolVersion },
  );
}

function connectedParser(protocolVersion: 4 | 5) {
  const p = mqttParser({ protocolVersion });
  const packets: Packet[] = [];
  p.on('packet', (packet: Packet) => packets.push(packet));
  p.parse(connect(protocolVersion));
  return { p, state: p as unknown as ParserState, packets };
}

describe('slimParser', () => {
  it('keeps no CONNECT credentials once the connection is up', () => {
    const { state } = connectedParser(4);
    expect((state.settings as Record<string, unknown>)['password']).toEqual(Buffer.from('device-password'));
    slimParser(state);
    expect(state.settings).toEqual({ protocolVersion: 4 });
  });

  it('parses packets after it as before, split anywhere, with a half-received packet kept across it', () => {
    const { p, state, packets } = connectedParser(4);
    const bytes = Buffer.concat([publish('device-server', 'one', 4), publish('device-server', 'two', 4)]);
    p.parse(bytes.subarray(0, 7));
    slimParser(state);
    for (const b of bytes.subarray(7)) p.parse(Buffer.from([b]));
    const bodies = packets
      .filter((x) => x.cmd === 'publish')
      .map((x) => String((x as { payload: Buffer }).payload));
    expect(bodies).toEqual(['one', 'two']);
  });

  it('still parses MQTT 5 properties (the protocol version is kept)', () => {
    const { p, state, packets } = connectedParser(5);
    slimParser(state);
    p.parse(publish('device-server', 'five', 5));
    const last = packets[packets.length - 1] as { cmd: string; payload: Buffer };
    expect(last.cmd).toBe('publish');
    expect(String(last.payload)).toBe('five');
  });
});
