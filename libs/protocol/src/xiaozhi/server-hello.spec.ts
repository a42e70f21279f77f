import { buildSessionNonce } from '../udp/nonce';
import { encodeServerMessage } from './encode-server-message';
import { acceptServerHello } from './server-hello-acceptance';
import { serverMessage } from './server-message-builders';
import { serverHelloSchema } from './server-messages';

const KEY = '00112233445566778899aabbccddeeff';
const NONCE = '01000000abcdef010000000000000000';
const hello = (patch: Record<string, unknown> = {}, udpPatch: Record<string, unknown> = {}) => ({
  type: 'hello',
  version: 3,
  session_id: 'a1b2c3',
  transport: 'udp',
  udp: { server: '203.0.113.5', port: 8884, encryption: 'aes-128-ctr', key: KEY, nonce: NONCE, ...udpPatch },
  audio_params: { format: 'opus', sample_rate: 24000, channels: 1, frame_duration: 60 },
  ...patch,
});

describe('the server hello and the device acceptance rules', () => {
  it('is written in the key order of xiaozhi §1.4', () => {
    const text = encodeServerMessage(
      serverMessage.hello({
        sessionId: 'a1b2c3',
        udpServer: '203.0.113.5',
        udpPort: 8884,
        key: Buffer.from(KEY, 'hex'),
        nonce: buildSessionNonce(0xabcdef01),
      }),
    );
    expect(text).toBe(
      '{"type":"hello","version":3,"session_id":"a1b2c3","transport":"udp","udp":{"server":"203.0.113.5","port":8884,"encryption":"aes-128-ctr","key":"00112233445566778899aabbccddeeff","nonce":"01000000abcdef010000000000000000"},"audio_params":{"format":"opus","sample_rate":24000,"channels":1,"frame_duration":60}}',
    );
    expect(acceptServerHello(text).ok).toBe(true);
  });

  it('is accepted with the session id, udp target, 16-byte key and nonce the device keeps', () => {
    const accepted = acceptServerHello(JSON.stringify(hello({ audio_params: { sample_rate: 16000 } })));
    expect(accepted).toEqual({
      ok: true,
      value: {
        sessionId: 'a1b2c3',
        udpServer: '203.0.113.5',
        udpPort: 8884,
        key: new Uint8Array(Buffer.from(KEY, 'hex')),
        nonce: new Uint8Array(Buffer.from(NONCE, 'hex')),
        sampleRate: 16000,
        frameDuration: 60,
      },
    });
  });

  it('defaults a missing session id to "" and accepts hex of either case', () => {
    const { session_id: _omit, ...rest } = hello({}, { key: KEY.toUpperCase() });
    const accepted = acceptServerHello(JSON.stringify(rest));
    expect(accepted.ok && accepted.value.sessionId).toBe('');
    expect(serverHelloSchema.safeParse(rest).success).toBe(true);
  });

  it.each([
    ['type is not hello', hello({ type: 'Hello' }), 'not_hello'],
    ['transport is websocket', hello({ transport: 'websocket' }), 'wrong_transport'],
    ['transport is missing', hello({ transport: undefined }), 'wrong_transport'],
    ['udp is missing', hello({ udp: undefined }), 'missing_udp'],
    ['udp is not an object', hello({ udp: 'x' }), 'missing_udp'],
    ['udp.server is a number', hello({}, { server: 1 }), 'udp_server_not_string'],
    ['udp.port is 0', hello({}, { port: 0 }), 'udp_port_invalid'],
    ['udp.port is 65536', hello({}, { port: 65536 }), 'udp_port_invalid'],
    ['udp.port is a string', hello({}, { port: '8884' }), 'udp_port_invalid'],
    ['key is 15 bytes', hello({}, { key: KEY.slice(2) }), 'key_invalid'],
    ['key is 17 bytes', hello({}, { key: `${KEY}00` }), 'key_invalid'],
    ['key is not hex', hello({}, { key: `${KEY.slice(2)}zz` }), 'key_invalid'],
    ['key is missing', hello({}, { key: undefined }), 'key_invalid'],
    ['nonce is 8 bytes', hello({}, { nonce: NONCE.slice(16) }), 'nonce_invalid'],
  ])('is ignored by the device when %s', (_case, message, reason) => {
    const text = JSON.stringify(message);
    expect(acceptServerHello(text)).toMatchObject({ ok: false, error: { kind: reason } });
    expect(serverHelloSchema.safeParse(JSON.parse(text)).success).toBe(false);
  });

  it('reads the keys case-insensitively and the first duplicate, like the firmware', () => {
    const text = `{"TYPE":"hello","transport":"udp","transport":"websocket","UDP":{"Server":"h","PORT":1,"key":"${KEY}","nonce":"${NONCE}"}}`;
    expect(acceptServerHello(text).ok).toBe(true);
  });
});
