import { deriveKey } from '../../../config/secrets.js';
import { credentialId, idCredential } from '../../../core/id-credential.js';

/**
 * The key an edge's credential is made with (docs/decisions.md, "Edge tier"): derived from the
 * signing key, so secrets.json needs no new entry and no credential is stored. The origin's nginx
 * checks credentials with it too (appliance/nginx/origin-auth.js), as a string key.
 */
export const edgeKey = (signingKey: string): string =>
  deriveKey(signingKey, 'svc edge credential v1').toString('base64url');

const ID = /^edg_[a-z0-9]{20}$/;

/** `<edge id>.<HMAC-SHA256 of the id>`: what an edge (or a CDN) shows the origin. */
export const edgeCredential = (key: string, edgeId: string): string => idCredential(key, edgeId);

/** The edge id a credential was made for; null when it was not made with this key. */
export const credentialEdgeId = (key: string, credential: string): string | null => credentialId(key, credential, ID);
