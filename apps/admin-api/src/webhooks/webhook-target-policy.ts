import { BlockList, isIP } from 'node:net';
import { describeEmbedding, embeddedIpv4 } from './embedded-ipv4';

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
  ['private', '64:ff9b:1::', 48, 'ipv6'], // local-use NAT64 (RFC 8215): leads into the operator's own network
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'], // discard
  ['reserved', '2001:db8::', 32, 'ipv6'], // documentation
];

/** Why a target is refused, and the IPv4 address it leads to when an IPv6 address carries one. */
export interface Refusal {
  reason: RefusedTarget;
  /** "NAT64 of 127.0.0.1", for an IPv6 address judged by the IPv4 address it embeds. */
  via?: string;
}

/**
 * Which addresses webhooks may reach: anything public, and loopback, private or link-local ones (v4 and v6)
 * only when an allow-list entry covers them. An IPv6 address that carries an IPv4 one (IPv4-mapped or
 * -compatible, NAT64, 6to4, Teredo) is judged by that IPv4 address too: a translator or relay delivers there.
 * Pure.
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
    return this.judge(address)?.reason;
  }

  /** As refusalFor, saying which IPv4 address an IPv6 one was judged by. */
  judge(address: string): Refusal | undefined {
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    // An allow-list entry names the addresses it allows: an IPv6 range allows what it covers, embedded or not.
    if (this.allowed.check(address, type)) return undefined;
    const embedded = type === 'ipv6' ? embeddedIpv4(address) : undefined;
    if (embedded && !this.allowed.check(embedded.ipv4, 'ipv4')) {
      const reason = this.refusedAs(embedded.ipv4, 'ipv4');
      if (reason) return { reason, via: describeEmbedding(embedded) };
    }
    const reason = this.refusedAs(address, type);
    return reason && { reason };
  }

  private refusedAs(address: string, type: 'ipv4' | 'ipv6'): RefusedTarget | undefined {
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
