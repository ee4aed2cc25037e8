import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `<id>.<HMAC-SHA256 of the id, base64url>`: how a machine of the appliance (an edge, an ingest
 * node) proves who it is to another. Made from a key derived from the signing key, so nothing
 * secret is stored per machine; nginx's njs checks the same form (appliance/nginx/*-auth.js).
 */
const mac = (key: string, id: string) => createHmac('sha256', key).update(id).digest('base64url');

export const idCredential = (key: string, id: string): string => `${id}.${mac(key, id)}`;

/** The id a credential was made for; null when it was not made with this key or the id has not the shape. */
export function credentialId(key: string, credential: string, idShape: RegExp): string | null {
  const dot = credential.indexOf('.');
  if (dot === -1) return null;
  const id = credential.slice(0, dot);
  if (!idShape.test(id)) return null;
  const given = Buffer.from(credential.slice(dot + 1));
  const expected = Buffer.from(mac(key, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
