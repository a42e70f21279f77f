import { ipLiteralOf, parseCidr, WebhookTargetPolicy } from './webhook-target-policy';

describe('webhook targets', () => {
  const policy = new WebhookTargetPolicy([]);

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.5', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
  ])('refuse %s (%s)', (address, reason) => {
    expect(policy.refusalFor(address)).toBe(reason);
  });

  // An IPv6 address that carries an IPv4 one is judged by it: the translator or relay delivers there.
  it.each([
    ['64:ff9b::7f00:1', 'loopback', 'NAT64 of 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'link-local', 'NAT64 of 169.254.169.254'],
    ['64:ff9b:1::c0a8:101', 'private', 'local-use NAT64 of 192.168.1.1'],
    ['::127.0.0.1', 'loopback', 'IPv4-compatible of 127.0.0.1'],
    ['::10.1.2.3', 'private', 'IPv4-compatible of 10.1.2.3'],
    ['2002:7f00:1::', 'loopback', '6to4 of 127.0.0.1'],
    ['2002:ac14:5::1', 'private', '6to4 of 172.20.0.5'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', 'Teredo of 127.0.0.1'],
    ['2001::cdd:b7a8:3f57:fef5', 'private', 'Teredo of 192.168.1.10'],
  ])('refuse %s (%s: %s)', (address, reason, via) => {
    expect(policy.judge(address)).toEqual({ reason, via });
  });

  it('let through IPv6 forms of public IPv4 addresses, and refuse all of local-use NAT64', () => {
    for (const address of [
      '64:ff9b::5db8:d70e', // NAT64 of 93.184.215.14
      '::ffff:93.184.215.14',
      '2002:5db8:d70e::1', // 6to4
      '2001:0:4136:e378:8000:63bf:a247:28f1', // Teredo, client 93.184.215.14
    ]) {
      expect([address, policy.refusalFor(address)]).toEqual([address, undefined]);
    }
    // The prefix is an operator's own (RFC 8215), whatever it embeds.
    expect(policy.judge('64:ff9b:1::5db8:d70e')).toEqual({ reason: 'private' });
  });

  it('let an embedded address through when the allow-list covers the IPv4 address it leads to', () => {
    const allowing = new WebhookTargetPolicy(['10.8.0.0/16']);
    expect(allowing.refusalFor('64:ff9b::a08:304')).toBeUndefined();
    expect(allowing.refusalFor('64:ff9b::a09:304')).toBe('private');
  });

  it('let public addresses through', () => {
    expect(policy.refusalFor('93.184.215.14')).toBeUndefined();
    expect(policy.refusalFor('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBeUndefined();
  });

  it('let through what an allow-list covers, and nothing more', () => {
    const allowing = new WebhookTargetPolicy(['127.0.0.1', '10.8.0.0/16']);
    expect(allowing.refusalFor('127.0.0.1')).toBeUndefined();
    expect(allowing.refusalFor('10.8.3.4')).toBeUndefined();
    expect(allowing.refusalFor('127.0.0.2')).toBe('loopback');
    expect(allowing.refusalFor('10.9.0.1')).toBe('private');
  });

  it('read allow-list entries strictly, and IP literals out of URLs', () => {
    expect(() => parseCidr('10.0.0.0/33')).toThrow(/bad prefix/);
    expect(() => parseCidr('intranet')).toThrow(/not an IP/);
    expect(ipLiteralOf(new URL('http://[::1]:8080/x'))).toBe('::1');
    expect(ipLiteralOf(new URL('https://hooks.example.com/x'))).toBeUndefined();
  });
});
