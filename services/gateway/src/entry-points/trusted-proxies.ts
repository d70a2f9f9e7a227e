import { BlockList, isIP } from 'node:net';

/**
 * Whether a socket address is one of TRUST_PROXY's entries (addresses or CIDR ranges). IPv4-mapped
 * IPv6 addresses (a dual-stack listener's view of IPv4 clients) match their IPv4 entries.
 */
export function trustedProxyMatcher(entries: string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (isIP(address) === 0) continue;
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    const plain = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1] ?? address;
    const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
    return isIP(plain) !== 0 && list.check(plain, family);
  };
}
