import { deriveKey } from '../../../config/secrets.js';
import { credentialId, idCredential } from '../../../core/id-credential.js';

/**
 * The key an ingest node's credential is made with (docs/decisions.md, "Ingest nodes"): derived
 * from the signing key, like an edge's. The origin's nginx checks it on `/_ingest/`
 * (appliance/nginx/origin-auth.js), as a string key.
 */
export const nodeKey = (signingKey: string): string =>
  deriveKey(signingKey, 'svc ingest node credential v1').toString('base64url');

export const NODE_ID = /^nod_[a-z0-9]{20}$/;

/** `<node id>.<HMAC-SHA256 of the id>`: what an ingest node shows the origin (header `X-Svc-Node`). */
export const nodeCredential = (key: string, nodeId: string): string => idCredential(key, nodeId);

/** The node id a credential was made for; null when it was not made with this key. */
export const credentialNodeId = (key: string, credential: string): string | null =>
  credentialId(key, credential, NODE_ID);
