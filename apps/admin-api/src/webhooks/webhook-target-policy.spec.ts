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
