import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../../config/secrets.js';

/**
 * The key an edge's credential is made with (docs/decisions.md, "Edge tier"): derived from the
 * signing key, so secrets.json needs no new entry and no credential is stored. The origin's nginx
 * checks credentials with it too (appliance/nginx/edge-auth.js), as a string key.
 */
export const edgeKey = (signingKey: string): string =>
  deriveKey(signingKey, 'svc edge credential v1').toString('base64url');

const ID = /^edg_[a-z0-9]{20}$/;

const mac = (key: string, edgeId: string) => createHmac('sha256', key).update(edgeId).digest('base64url');

/** `<edge id>.<HMAC-SHA256 of the id>`: what an edge (or a CDN) shows the origin. */
export const edgeCredential = (key: string, edgeId: string): string => `${edgeId}.${mac(key, edgeId)}`;

/** The edge id a credential was made for; null when it was not made with this key. */
export function credentialEdgeId(key: string, credential: string): string | null {
  const dot = credential.indexOf('.');
  if (dot === -1) return null;
  const id = credential.slice(0, dot);
  if (!ID.test(id)) return null;
  const given = Buffer.from(credential.slice(dot + 1));
  const expected = Buffer.from(mac(key, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
