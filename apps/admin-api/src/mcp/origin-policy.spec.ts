import { LOOPBACK_ORIGINS, originAllowed, originOfUrl, parseOriginPattern } from './origin-policy';

describe('the /mcp origin allow-list', () => {
  const loopback = LOOPBACK_ORIGINS.map(parseOriginPattern);

  it('allows the loopback forms on any port, and nothing else by default', () => {
    for (const origin of [
      'http://localhost:6274',
      'http://127.0.0.1:8080',
      'http://[::1]:5173',
      'https://localhost',
    ]) {
      expect(originAllowed(origin, loopback)).toBe(true);
    }
    for (const origin of [
      'http://evil.example',
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io:8080',
      'null',
      'file://',
      'http://localhost:8080/path',
      'not an origin',
    ]) {
      expect(originAllowed(origin, loopback)).toBe(false);
    }
  });

  it('matches an exact origin by scheme, host and port, the default port written or not', () => {
    const console = [parseOriginPattern('https://fleet.example.com')];
    expect(originAllowed('https://fleet.example.com', console)).toBe(true);
    expect(originAllowed('https://fleet.example.com:8443', console)).toBe(false);
    expect(originAllowed('http://fleet.example.com', console)).toBe(false);
    expect(originOfUrl('https://fleet.example.com:443/console/?x=1')).toEqual(console[0]);
  });

  it('refuses a configured entry that is not an origin, naming it', () => {
    expect(() => parseOriginPattern('https://fleet.example.com/console')).toThrow(
      /fleet\.example\.com\/console/,
    );
    expect(() => parseOriginPattern('ftp://fleet.example.com')).toThrow(/expected an origin/);
    expect(() => parseOriginPattern('*')).toThrow(/expected an origin/);
  });
});
