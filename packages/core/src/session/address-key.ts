import { isIPv4, isIPv6 } from 'node:net';

/**
 * The part of a client address that the sign-in throttle counts: an IPv4 address whole (also
 * when written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64 prefix, since one
 * client usually holds a whole /64 and could otherwise step through its addresses.
 *
 * @example
 * addressKey('2001:db8:1:2:aaaa::1'); // '2001:db8:1:2::/64'
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(address)) return address;
  const plain = address.replace(/%.*$/, '');
  if (!isIPv6(plain)) return address.slice(0, 64);
  const [head = '', tail = ''] = plain.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = plain.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = plain.includes('::') ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
