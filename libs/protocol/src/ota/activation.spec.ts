import { activationHmac, readActivationRequest, verifyActivationHmac } from './activation';

const key = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
const challenge = '0123456789abcdef0123456789abcdef';
const body = (o: unknown) => Buffer.from(JSON.stringify(o));

describe('the activation request (xiaozhi §4.3)', () => {
  it('reads `{}` and an empty body as the plain request of a device without an eFuse serial', () => {
    expect(readActivationRequest(body({}))).toEqual({ ok: true, value: { kind: 'plain' } });
    expect(readActivationRequest(undefined)).toEqual({ ok: true, value: { kind: 'plain' } });
  });

  it('reads the proof of a device with an eFuse serial', () => {
    const hmac = activationHmac(key, challenge);
    const read = readActivationRequest(
      body({ algorithm: 'hmac-sha256', serial_number: 'SN-1', challenge, hmac }),
    );
    expect(read).toEqual({ ok: true, value: { kind: 'proof', serialNumber: 'SN-1', challenge, hmac } });
  });

  it.each([
    ['another algorithm', { algorithm: 'md5', serial_number: 'SN-1', challenge, hmac: 'a'.repeat(64) }],
    ['an empty hmac', { algorithm: 'hmac-sha256', serial_number: 'SN-1', challenge, hmac: '' }],
    [
      'a long serial',
      { algorithm: 'hmac-sha256', serial_number: 'S'.repeat(33), challenge, hmac: 'a'.repeat(64) },
    ],
  ])('refuses a body with %s, naming the field', (_what, value) => {
    expect(readActivationRequest(body(value))).toMatchObject({
      ok: false,
      error: { kind: 'invalid_activation_body' },
    });
  });

  it('verifies the HMAC of the challenge under the eFuse key, and nothing else', () => {
    const hmac = activationHmac(key, challenge);
    expect(hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyActivationHmac(key, challenge, hmac)).toBe(true);
    expect(verifyActivationHmac(key, challenge, hmac.toUpperCase())).toBe(true);
    expect(verifyActivationHmac(key, `${challenge.slice(1)}0`, hmac)).toBe(false);
    expect(verifyActivationHmac(Buffer.alloc(32), challenge, hmac)).toBe(false);
    expect(verifyActivationHmac(key, challenge, 'zz')).toBe(false);
  });
});
