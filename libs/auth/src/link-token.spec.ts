import { generateLinkToken, parseLinkToken, verifyLinkTokenSecret } from './link-token';

describe('ListenAI device tokens', () => {
  it('verify against their stored hash and nothing else', () => {
    const token = generateLinkToken();
    const parsed = parseLinkToken(token.plaintext);
    expect(parsed?.prefix).toBe(token.prefix);
    expect(verifyLinkTokenSecret(parsed!.secret, token.secretHash)).toBe(true);
    const other = parsed!.secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect(verifyLinkTokenSecret(other, token.secretHash)).toBe(false);
    expect(token.secretHash).not.toContain(parsed!.secret);
  });

  it('are not API keys, and an API key is not one', () => {
    expect(parseLinkToken(generateLinkToken().plaintext.replace(/^lt_/, 'fk_'))).toBeUndefined();
    expect(parseLinkToken('lt_short_abc')).toBeUndefined();
  });
});
