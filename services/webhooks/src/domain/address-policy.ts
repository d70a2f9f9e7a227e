import { BlockList, isIP } from 'node:net';

/** What the operator allows beyond public addresses (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOWED_HOSTS). */
export interface AddressPolicy {
  allowPrivate: boolean;
  /** Host names (exact, case-insensitive) and CIDR ranges exempt from the private-address rule. */
  allowedHosts: string[];
}

/** Ranges no webhook may reach by default: this host, private networks, link-local, and the like. */
const RANGES: Array<[string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['fc00::', 7, 'ipv6', 'private (unique local)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const blocked = RANGES.map(([network, prefix, family, kind]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, family, kind };
});

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`, NAT64 `64:ff9b::7f00:1`): its IPv4 form. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why `address` is not a public address ("loopback"), or undefined when it is. */
export function privateKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const ipv4 = embeddedIpv4(address);
    if (ipv4 !== undefined) return privateKind(ipv4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return blocked.find((range) => range.family === type && range.list.check(address, type))?.kind;
}

function inAllowedRange(address: string, entry: string): boolean {
  const [network, prefixText] = entry.split('/');
  if (network === undefined || isIP(network) === 0) return false;
  const type = isIP(network) === 4 ? 'ipv4' : 'ipv6';
  const prefix = prefixText === undefined ? (type === 'ipv4' ? 32 : 128) : Number(prefixText);
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  const candidate = isIP(address) === 6 ? (embeddedIpv4(address) ?? address) : address;
  return list.check(candidate, isIP(candidate) === 4 ? 'ipv4' : 'ipv6');
}

/** Whether the operator exempted this host name itself. */
export const hostAllowed = (host: string, policy: AddressPolicy): boolean =>
  policy.allowPrivate || policy.allowedHosts.some((entry) => entry.toLowerCase() === host.toLowerCase());

/** Why a delivery to `address` (resolved from `host`) is refused, or undefined when it may go. */
export function refusalOf(host: string, address: string, policy: AddressPolicy): string | undefined {
  if (hostAllowed(host, policy)) return undefined;
  const kind = privateKind(address);
  if (kind === undefined) return undefined;
  if (policy.allowedHosts.some((entry) => inAllowedRange(address, entry))) return undefined;
  return `${address} is a ${kind} address`;
}
