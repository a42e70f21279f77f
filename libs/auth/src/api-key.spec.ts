import { generateApiKey, parseApiKey, verifyApiKeySecret } from './api-key';

describe('API keys', () => {
  it('verify against their stored hash and nothing else', () => {
    const key = generateApiKey();
    const parsed = parseApiKey(key.plaintext);
    expect(parsed?.prefix).toBe(key.prefix);
    expect(verifyApiKeySecret(parsed!.secret, key.secretHash)).toBe(true);
    expect(
      verifyApiKeySecret(
        parsed!.secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        key.secretHash,
      ),
    ).toBe(false);
  });

  it('never store the plaintext', () => {
    const key = generateApiKey();
    expect(key.secretHash).not.toContain(parseApiKey(key.plaintext)!.secret);
  });

  it('reject strings that are not keys', () => {
    expect(parseApiKey('Bearer x')).toBeUndefined();
    expect(parseApiKey('fk_short_abc')).toBeUndefined();
  });
});
