import { signMqttPassword, verifyMqttPassword } from './password';

const CLIENT_ID = 'GID_bread-compact-wifi@@@a0_85_e3_f4_49_34@@@aeebef32-f0ef-4bce-9d8a-894d91bc6932';
const USERNAME = 'eyJpcCI6InVua25vd24ifQ==';
const PASSWORD = 'OGMF+c1CGUf4Xxv8aeenwYpENRZE3OhAZEYAZlIuVnQ=';

describe('the MQTT password of the gateway convention', () => {
  it('is base64(HMAC-SHA256(key, client_id|username)), matching the documented vector', () => {
    expect(signMqttPassword('test', CLIENT_ID, USERNAME)).toBe(PASSWORD);
    expect(signMqttPassword(Buffer.from('test'), CLIENT_ID, USERNAME)).toBe(PASSWORD);
  });

  it('verifies against a list of keys and says which one matched', () => {
    const keys = [
      { id: 'next', secret: 'rotated-in' },
      { id: 'current', secret: 'test' },
    ];
    expect(verifyMqttPassword(keys, CLIENT_ID, USERNAME, PASSWORD)).toEqual({ ok: true, keyId: 'current' });
  });

  it('refuses a password no key signed, a truncated one, and any password when there are no keys', () => {
    const keys = [{ id: 'current', secret: 'test' }];
    expect(
      verifyMqttPassword(keys, CLIENT_ID, USERNAME, signMqttPassword('other', CLIENT_ID, USERNAME)),
    ).toEqual({ ok: false });
    expect(verifyMqttPassword(keys, CLIENT_ID, USERNAME, PASSWORD.slice(0, -1))).toEqual({ ok: false });
    expect(verifyMqttPassword(keys, `${CLIENT_ID}x`, USERNAME, PASSWORD)).toEqual({ ok: false });
    expect(verifyMqttPassword([], CLIENT_ID, USERNAME, PASSWORD)).toEqual({ ok: false });
  });
});
