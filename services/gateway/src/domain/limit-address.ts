import { isIPv6 } from 'node:net';

/** The first four groups of an IPv6 address, expanded (`::` filled in), in lower case. */
function prefix64(address: string): string {
  const [head = '', tail] = address.toLowerCase().split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':');
}

/**
 * The unit a client is limited as. An IPv4 address is one client; an IPv6 /64 is one host's (a
 * home or a cloud instance gets a whole /64, and picking a fresh address in it costs nothing), so
 * every address in a /64 shares one count. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is its IPv4 address.
 */
export function limitAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const unscoped = ip.split('%')[0]!;
  if (!isIPv6(unscoped)) return ip;
  return `${prefix64(unscoped)}::/64`;
}
