import ipaddr from 'ipaddr.js';

/**
 * The network an address stands for when limiting or recognising a viewer: the IPv4 address, or
 * the IPv6 /64 (one household or phone gets a whole /64 and can pick any address in it, so a
 * limit per IPv6 address would be a limit on nothing). Anything that is not an address is itself.
 */
export function networkOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.kind() === 'ipv6'
    ? `${(parsed as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':')}::/64`
    : parsed.toString();
}
