/** The ways an IPv6 address carries an IPv4 address that the packets are routed to. */
export type Ipv4Embedding = 'ipv4-mapped' | 'ipv4-compatible' | 'nat64' | 'nat64-local' | '6to4' | 'teredo';

export interface EmbeddedIpv4 {
  form: Ipv4Embedding;
  ipv4: string;
}

const NAMES: Record<Ipv4Embedding, string> = {
  'ipv4-mapped': 'IPv4-mapped',
  'ipv4-compatible': 'IPv4-compatible',
  nat64: 'NAT64',
  'nat64-local': 'local-use NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
};

/**
 * Pure: the IPv4 address an IPv6 address leads to, and the form that carries it; undefined for an IPv6 address
 * that embeds none (or for something that is not an IPv6 address). A translator or relay on the way delivers
 * to that IPv4 address, so a webhook target is judged by it as by a plain IPv4 one.
 */
export function embeddedIpv4(address: string): EmbeddedIpv4 | undefined {
  const g = groupsOf(address);
  if (!g) return undefined;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const last32 = () => ipv4Of(g[6]!, g[7]!);
  // ::ffff:0:0/96 (RFC 4291 §2.5.5.2).
  if (zero(0, 5) && g[5] === 0xffff) return { form: 'ipv4-mapped', ipv4: last32() };
  // ::/96, deprecated (RFC 4291 §2.5.5.1); `::` and `::1` are the unspecified and loopback addresses themselves.
  if (zero(0, 6) && (g[6] !== 0 || g[7]! > 1)) return { form: 'ipv4-compatible', ipv4: last32() };
  // 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052 §2.1): the IPv4 address in the last 32 bits.
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return { form: 'nat64', ipv4: last32() };
  // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): the prefix length a site uses is its own; read as /96, the most
  // common. The whole prefix is not globally reachable in any case (the policy refuses it as private).
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return { form: 'nat64-local', ipv4: last32() };
  // 2002::/16, 6to4 (RFC 3056 §2): the IPv4 address in bits 16–47.
  if (g[0] === 0x2002) return { form: '6to4', ipv4: ipv4Of(g[1]!, g[2]!) };
  // 2001::/32, Teredo (RFC 4380 §4): the client's IPv4 address in the last 32 bits, each bit inverted.
  if (g[0] === 0x2001 && g[1] === 0) return { form: 'teredo', ipv4: ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff) };
  return undefined;
}

/** "NAT64 of 127.0.0.1": what an error message says about the address a target really leads to. */
export function describeEmbedding({ form, ipv4 }: EmbeddedIpv4): string {
  return `${NAMES[form]} of ${ipv4}`;
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The eight 16-bit groups of an IPv6 address. The URL parser (WHATWG) validates it and writes it in one
 * canonical form (hex groups, one `::`, no dotted quad), which leaves only the `::` to expand.
 */
function groupsOf(address: string): number[] | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address.split('%')[0]}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = '', tail] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}
