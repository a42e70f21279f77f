import { isIPv6 } from 'node:net';

/**
 * The key a connection's address is budgeted under: an IPv4 address as it is (IPv4-mapped IPv6 included), an IPv6
 * address by its /64. A single subscriber is routinely given a whole /64, so a cap per IPv6 address would cap
 * nothing.
 */
export function addressKey(remoteAddress: string | undefined): string {
  if (!remoteAddress) return 'unknown';
  const address = remoteAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, an embedded dotted IPv4 tail as two groups. */
function expandIPv6(address: string): string[] {
  const withoutZone = address.split('%')[0]!.toLowerCase();
  const [head = '', tail = ''] = withoutZone.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap(dottedToGroups));
  const left = groups(head);
  const right = withoutZone.includes('::') ? groups(tail) : [];
  const zeros = Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => g.replace(/^0+(?=.)/, ''));
}

function dottedToGroups(group: string): string[] {
  if (!group.includes('.')) return [group];
  const bytes = group.split('.').map(Number);
  return [((bytes[0]! << 8) | bytes[1]!).toString(16), ((bytes[2]! << 8) | bytes[3]!).toString(16)];
}
