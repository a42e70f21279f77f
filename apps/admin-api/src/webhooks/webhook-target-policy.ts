import { BlockList, isIP } from 'node:net';

/** Why an address is no place to send a webhook to. */
export type RefusedTarget = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

// IANA special-purpose registries (RFC 6890 and successors): the addresses a webhook must not reach unless an
// operator allows them, because they lead into the platform's own host or network (SSRF), not to a receiver.
const RANGES: [RefusedTarget, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'], // carrier-grade NAT, RFC 6598
  ['private', '192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['private', '198.18.0.0', 15, 'ipv4'], // benchmarking, RFC 2544
  ['link-local', '169.254.0.0', 16, 'ipv4'], // cloud metadata services live here
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'], // and 255.255.255.255
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'], // unique local
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['private', 'fec0::', 10, 'ipv6'], // site-local, deprecated but routable inside old networks
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'], // discard
  ['reserved', '2001:db8::', 32, 'ipv6'], // documentation
];

/**
 * Which addresses webhooks may reach: anything public, and loopback, private or link-local ones (v4 and v6, an
 * IPv4-mapped IPv6 address counting as its IPv4 one) only when an allow-list entry covers them. Pure.
 */
export class WebhookTargetPolicy {
  private readonly refused = new Map<RefusedTarget, BlockList>();
  private readonly allowed = new BlockList();

  constructor(allowList: readonly string[]) {
    for (const [reason, network, prefix, type] of RANGES) {
      const list = this.refused.get(reason) ?? new BlockList();
      list.addSubnet(network, prefix, type);
      this.refused.set(reason, list);
    }
    for (const entry of allowList) {
      const { network, prefix, type } = parseCidr(entry);
      this.allowed.addSubnet(network, prefix, type);
    }
  }

  /** Why `address` (an IP) is refused, or undefined when a webhook may go there. */
  refusalFor(address: string): RefusedTarget | undefined {
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (this.allowed.check(address, type)) return undefined;
    for (const [reason, list] of this.refused) if (list.check(address, type)) return reason;
    return undefined;
  }
}

/** `10.0.0.0/8`, `fd00::/8` or a single address; throws a message naming what is wrong. */
export function parseCidr(entry: string): { network: string; prefix: number; type: 'ipv4' | 'ipv6' } {
  const [network = '', bits] = entry.trim().split('/');
  const version = isIP(network);
  if (version === 0) throw new Error(`${entry}: not an IP address or CIDR range`);
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`${entry}: bad prefix length`);
  return { network, prefix, type: version === 4 ? 'ipv4' : 'ipv6' };
}

/** A URL's host as an IP literal (brackets of IPv6 taken off), or undefined for a name. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : undefined;
}
