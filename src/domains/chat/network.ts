import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { deriveKey } from '../../config/secrets.js';

/** The key anonymous posters' networks are hashed with; derived, so secrets.json needs no new key. */
export const chatNetworkKey = (signingKey: string): Buffer => deriveKey(signingKey, 'svc chat network v1');

/**
 * A keyed hash of the network an anonymous post came from: the IPv4 address, or the IPv6 /64
 * (one household or phone). Stored with anonymous posts and bans so a ban outlives a new browser;
 * the address itself is never stored, and without the appliance's key the hash names nobody.
 */
export function networkOf(address: string, key: Buffer): string {
  let network = address;
  if (ipaddr.isValid(address)) {
    let parsed = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    network = parsed.kind() === 'ipv6' ? `${(parsed as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':')}::/64` : parsed.toString();
  }
  return createHmac('sha256', key).update(network).digest('base64url').slice(0, 22);
}
