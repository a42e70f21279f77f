import fc from 'fast-check';
import { embeddedIpv4 } from './embedded-ipv4';

describe('the IPv4 address inside an IPv6 address', () => {
  it.each([
    ['::ffff:127.0.0.1', 'ipv4-mapped', '127.0.0.1'],
    ['::127.0.0.1', 'ipv4-compatible', '127.0.0.1'],
    ['::a00:1', 'ipv4-compatible', '10.0.0.1'],
    ['64:ff9b::7f00:1', 'nat64', '127.0.0.1'],
    ['64:ff9b::169.254.169.254', 'nat64', '169.254.169.254'],
    ['64:ff9b:1::c0a8:101', 'nat64-local', '192.168.1.1'],
    ['2002:7f00:1::', '6to4', '127.0.0.1'],
    ['2002:c0a8:0101:5::1', '6to4', '192.168.1.1'],
    // Teredo: server 65.54.227.120, client 127.0.0.1 stored inverted (0x80ff:0xfffe).
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo', '127.0.0.1'],
    ['2001::cdd:b7a8:3f57:fef5', 'teredo', '192.168.1.10'],
  ])('reads %s as %s of %s', (address, form, ipv4) => {
    expect(embeddedIpv4(address)).toEqual({ form, ipv4 });
  });

  it('finds none in an ordinary IPv6 address, nor in the unspecified and loopback ones', () => {
    for (const address of ['2606:4700::6810:84e5', '::', '::1', 'fe80::1', '2001:db8::1', 'not an address']) {
      expect(embeddedIpv4(address)).toBeUndefined();
    }
  });

  it('reads back any IPv4 address written in each form', () => {
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    fc.assert(
      fc.property(fc.ipV4(), (ipv4) => {
        const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
        const inverted = [a, b, c, d].map((x) => x ^ 0xff) as [number, number, number, number];
        return (
          embeddedIpv4(`64:ff9b::${ipv4}`)?.ipv4 === ipv4 &&
          embeddedIpv4(`2002:${hex(a, b)}:${hex(c, d)}::1`)?.ipv4 === ipv4 &&
          embeddedIpv4(
            `2001:0:4136:e378:8000:63bf:${hex(inverted[0], inverted[1])}:${hex(inverted[2], inverted[3])}`,
          )?.ipv4 === ipv4
        );
      }),
    );
  });
});
