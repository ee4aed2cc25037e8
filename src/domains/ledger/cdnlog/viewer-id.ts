import { deriveKey } from '../../../config/secrets.js';

/**
 * The key nginx hashes a viewer's address and user agent with into the CDN log's viewer id
 * (appliance/nginx/cdn-viewer.js), derived so that secrets.json needs no new key. Stable across
 * restarts: a viewer keeps one id within a minute whatever happens to nginx.
 */
export const cdnViewerKey = (signingKey: string): string =>
  deriveKey(signingKey, 'svc cdn viewer id v1').toString('base64url');
