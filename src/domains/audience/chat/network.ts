import { createHmac } from 'node:crypto';
import { deriveKey } from '../../../config/secrets.js';
import { networkOf } from '../../../core/network.js';

/** The key anonymous posters' networks are hashed with; derived, so secrets.json needs no new key. */
export const chatNetworkKey = (signingKey: string): Buffer => deriveKey(signingKey, 'svc chat network v1');

/**
 * A keyed hash of the network an anonymous post came from (`networkOf`: the IPv4 address or the
 * IPv6 /64). Stored with anonymous posts and bans so a ban outlives a new browser; the address
 * itself is never stored, and without the appliance's key the hash names nobody.
 */
export function hashedNetworkOf(address: string, key: Buffer): string {
  return createHmac('sha256', key).update(networkOf(address)).digest('base64url').slice(0, 22);
}
