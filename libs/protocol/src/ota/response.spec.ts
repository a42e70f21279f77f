import { buildOtaResponse, validateOtaResponse, type OtaResponseInput } from './response';

const MQTT = {
  host: 'mqtt.example.com',
  port: 1883,
  clientId: 'GID_bread-compact-wifi@@@a0_85_e3_f4_49_34@@@aeebef32-f0ef-4bce-9d8a-894d91bc6932',
  username: 'eyJpcCI6InVua25vd24ifQ==',
  password: 'OGMF+c1CGUf4Xxv8aeenwYpENRZE3OhAZEYAZlIuVnQ=',
  keepalive: 240,
};

describe('the OTA response', () => {
  it('is written in the firmware section and key order with an explicit port and the p2p topic', () => {
    const built = buildOtaResponse({
      serverTime: { timestampMs: 1754620000000, timezoneOffsetMinutes: 480 },
      firmware: { version: '2.4.3', url: 'http://ota.example.com/fw/ab.bin' },
      mqtt: MQTT,
    });
    if (!built.ok) throw new Error(built.error.message);
    expect(JSON.stringify(built.value)).toBe(
      '{"server_time":{"timestamp":1754620000000,"timezone_offset":480},' +
        '"firmware":{"version":"2.4.3","url":"http://ota.example.com/fw/ab.bin","force":0},' +
        `"mqtt":{"endpoint":"mqtt.example.com:1883","client_id":"${MQTT.clientId}","username":"${MQTT.username}","password":"${MQTT.password}",` +
        '"publish_topic":"device-server","subscribe_topic":"devices/p2p/a0_85_e3_f4_49_34","keepalive":240}}',
    );
  });

  it('sets force to 1 only when asked', () => {
    const built = buildOtaResponse({ firmware: { version: '2.4.3', url: 'http://x/f.bin', force: true } });
    expect(built.ok && built.value.firmware?.force).toBe(1);
  });

  it.each<[string, OtaResponseInput]>([
    ['a firmware version std::stoi cannot read', { firmware: { version: '2.4.3-beta.1', url: 'http://x' } }],
    ['a port outside 1..65535', { mqtt: { ...MQTT, port: 70000 } }],
    ['a host with a colon (IPv6)', { mqtt: { ...MQTT, host: '::1' } }],
    ['a client id off the convention', { mqtt: { ...MQTT, clientId: 'device-1' } }],
    ['an activation code that is not digits', { activation: { code: '12ab', message: 'm', challenge: 'c' } }],
  ])('refuses %s', (_case, input) => {
    expect(buildOtaResponse(input)).toMatchObject({ ok: false, error: { kind: 'invalid_ota_response' } });
  });

  it('finds every broken rule in an answer built elsewhere', () => {
    expect(
      validateOtaResponse({
        mqtt: {
          endpoint: 'mqtt.example.com',
          client_id: 'c',
          username: 'u',
          password: 'p',
          publish_topic: 'device-server',
          subscribe_topic_long: 'x',
        },
        firmware: { version: '2.4.3', url: 'http://x', force: 2 },
        activation: { code: '123456', message: 'xiaozhi.me\n123456' },
      }),
    ).toEqual([
      'firmware.force: Invalid input',
      'mqtt.endpoint: host:port with an explicit port in 1..65535',
      'mqtt.subscribe_topic_long: mqtt key longer than 15 characters',
      'activation.challenge: a code needs a challenge',
    ]);
    expect(
      validateOtaResponse({ activation: { code: '123456', message: 'm', challenge: 'a0:85:e3:f4:49:34' } }),
    ).toEqual([]);
  });
});
